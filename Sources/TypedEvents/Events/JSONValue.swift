import Foundation

/// Any JSON value: what a schema leaves free-form (`{}`, a property without `type`, an object
/// without `properties`) becomes in generated code.
///
/// Numbers keep what was written: an integer that fits 64 bits is ``integer(_:)``, another number
/// that `Decimal` holds exactly (up to 38 significant digits, exponents up to ±127) is
/// ``decimal(_:)``, and only a number beyond that is ``double(_:)``. So `9007199254740993`,
/// `12345678901234567890.123456789` and `0.1` all encode back as written.
///
/// Numbers compare by value, as JSON means them: `1`, `1.0` and `.decimal(1)` are equal.
///
/// In `userInfo` a value travels as its JSON text, a `String`: a property list has no null, and
/// the text keeps every number exact.
///
/// ```swift
/// let metadata: JSONValue = ["source": "import", "attempts": 3, "tags": ["a", "b"], "note": nil]
/// metadata["attempts"]?.int64Value  // 3
/// ```
public enum JSONValue: Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number without fraction that fits in 64 bits.
  case integer(Int64)
  /// Another number, held exactly.
  case decimal(Decimal)
  /// A number `Decimal` cannot hold: beyond its range or its 38 digits.
  case double(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object; JSON does not order its keys, and neither does this.
  case object([String: JSONValue])
}

// MARK: - Equality

extension JSONValue: Hashable {
  /// Equal JSON: numbers by value, objects whatever their keys' order.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)): return a == b
    case (.integer, _), (.decimal, _), (.double, _):
      // Exact when neither is a Double; otherwise as the Doubles they are nearest to.
      if let a = lhs.exactNumber, let b = rhs.exactNumber { return a == b }
      guard let a = lhs.doubleValue, let b = rhs.doubleValue else { return false }
      return a == b
    default: return false
    }
  }

  /// Hashes equal values alike: a number by its nearest `Double`.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let value): hasher.combine(value)
    case .string(let value): hasher.combine(value)
    case .array(let value): hasher.combine(value)
    case .object(let value): hasher.combine(value)
    case .integer, .decimal, .double: hasher.combine(doubleValue)
    }
  }

  private var exactNumber: Decimal? {
    switch self {
    case .integer(let value): return Decimal(value)
    case .decimal(let value): return value
    default: return nil
    }
  }
}

// MARK: - Accessors

extension JSONValue {
  /// Whether the value is `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The boolean, or nil for another kind of value.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The string, or nil for another kind of value.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The number as an `Int64` when it is an integer that fits, whatever case holds it.
  public var int64Value: Int64? {
    switch self {
    case .integer(let value): return value
    case .decimal(let value): return Int64(value.description)
    case .double(let value): return Int64(exactly: value)
    default: return nil
    }
  }

  /// The number as a `Double`, rounded to the nearest when it is not one exactly; nil for
  /// another kind of value.
  public var doubleValue: Double? {
    switch self {
    case .integer(let value): return Double(value)
    case .decimal(let value): return Double(value.description)
    case .double(let value): return value
    default: return nil
    }
  }

  /// The number as a `Decimal`, exact for ``integer(_:)`` and ``decimal(_:)``; nil for
  /// another kind of value.
  public var decimalValue: Decimal? {
    switch self {
    case .integer(let value): return Decimal(value)
    case .decimal(let value): return value
    case .double(let value): return Decimal(value)
    default: return nil
    }
  }

  /// The elements, or nil for another kind of value.
  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The members, or nil for another kind of value.
  public var objectValue: [String: JSONValue]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The member under `key` of an object; nil for a missing key or another kind of value.
  public subscript(key: String) -> JSONValue? {
    objectValue?[key]
  }

  /// The element at `index` of an array; nil when out of range or another kind of value.
  public subscript(index: Int) -> JSONValue? {
    guard let array = arrayValue, array.indices.contains(index) else { return nil }
    return array[index]
  }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  /// `null`.
  public init(nilLiteral: ()) {
    self = .null
  }

  /// A boolean.
  public init(booleanLiteral value: Bool) {
    self = .bool(value)
  }

  /// An integer.
  public init(integerLiteral value: Int64) {
    self = .integer(value)
  }

  /// A number with a fraction: a `Double` literal is already rounded to binary, so it is kept as
  /// one. Write `.decimal(Decimal(string: "0.1")!)` for an exact decimal.
  public init(floatLiteral value: Double) {
    self = .double(value)
  }

  /// A string.
  public init(stringLiteral value: String) {
    self = .string(value)
  }

  /// An array.
  public init(arrayLiteral elements: JSONValue...) {
    self = .array(elements)
  }

  /// An object; a key written twice keeps its last value.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}

// MARK: - Codable

extension JSONValue: Codable {
  /// Decodes any JSON value; numbers as described on the type.
  public init(from decoder: any Decoder) throws {
    if let container = try? decoder.container(keyedBy: FieldKey.self) {
      var members: [String: JSONValue] = [:]
      for key in container.allKeys {
        members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
      }
      self = .object(members)
      return
    }
    if var container = try? decoder.unkeyedContainer() {
      var elements: [JSONValue] = []
      if let count = container.count { elements.reserveCapacity(count) }
      while !container.isAtEnd {
        elements.append(try container.decode(JSONValue.self))
      }
      self = .array(elements)
      return
    }
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Decimal.self), value.isFinite {
      self = .decimal(value)
    } else {
      self = .double(try container.decode(Double.self))
    }
  }

  /// Encodes the value as the JSON it holds.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .object(let members):
      var container = encoder.container(keyedBy: FieldKey.self)
      for (key, value) in members {
        try container.encode(value, forKey: FieldKey(stringValue: key))
      }
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements {
        try container.encode(element)
      }
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .integer(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .decimal(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .double(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .string(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    }
  }
}

// MARK: - JSON text and userInfo

extension JSONValue: CustomStringConvertible {
  /// The value as compact JSON text, object keys sorted. A `Double` that is not finite, which
  /// JSON cannot write, is `null`.
  public var description: String {
    var text = ""
    write(to: &text)
    return text
  }

  /// Reads JSON text; throws ``JSONSyntaxError`` when it is not one JSON value under
  /// ``StrictJSON``'s grammar (no repeated key, no trailing comma, …).
  public init(jsonText: String) throws {
    let data = Data(jsonText.utf8)
    try StrictJSON.check(data)
    self = try JSONDecoder().decode(JSONValue.self, from: data)
  }

  private func write(to text: inout String) {
    switch self {
    case .null: text += "null"
    case .bool(let value): text += value ? "true" : "false"
    case .integer(let value): text += String(value)
    case .decimal(let value): text += value.description
    case .double(let value): text += value.isFinite ? "\(value)" : "null"
    case .string(let value): Self.writeString(value, to: &text)
    case .array(let elements):
      text += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { text += "," }
        element.write(to: &text)
      }
      text += "]"
    case .object(let members):
      text += "{"
      for (index, key) in members.keys.sorted().enumerated() {
        if index > 0 { text += "," }
        Self.writeString(key, to: &text)
        text += ":"
        members[key]?.write(to: &text)
      }
      text += "}"
    }
  }

  private static func writeString(_ value: String, to text: inout String) {
    text += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }
}

extension JSONValue: PropertyListConvertible {
  /// The JSON text: a property list has no null, and text keeps numbers exact.
  public var propertyListValue: Any { description }

  /// Reads the JSON text written by ``propertyListValue``.
  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    guard let text = value as? String else {
      throw .typeMismatch(expected: "JSONValue (its JSON text, a string)", found: value)
    }
    do {
      self = try JSONValue(jsonText: text)
    } catch {
      throw UserInfoDecodingError(problem: .invalidValue(expected: "JSON text", found: "\"\(text)\""))
    }
  }
}
