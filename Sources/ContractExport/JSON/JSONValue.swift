import EventSchema

/// A JSON value whose objects keep their keys in the order they were set, so that a document
/// built in a fixed order prints in that order, byte for byte, on every run.
///
/// Numbers keep their exact text (``JSONNumber``): `UInt64.max` prints as
/// `18446744073709551615` and a decimal default as written in the schema, never rounded
/// through a `Double`.
public indirect enum JSONValue: Hashable, Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, as its exact text.
  case number(JSONNumber)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object, keys in order.
  case object(JSONObject)

  /// The object's value under `key`, or the array's element at the index `key` spells; nil
  /// for anything else. For tests and readers that walk a document.
  public subscript(key: String) -> JSONValue? {
    switch self {
    case .object(let object): return object[key]
    case .array(let elements): return Int(key).flatMap { elements.indices.contains($0) ? elements[$0] : nil }
    default: return nil
    }
  }

  /// The object, or nil when this is not one.
  public var objectValue: JSONObject? {
    if case .object(let object) = self { return object }
    return nil
  }

  /// The string, or nil when this is not one.
  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }
}

/// A JSON number, kept as the text that is printed: no rounding on the way out.
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
  /// The number's JSON text, such as `-9223372036854775808` or `120.5`.
  public let text: String

  /// The number `text` spells, or nil when it is not a JSON number (RFC 8259: an optional
  /// minus, no leading zeros, an optional fraction and exponent; no `+`, no `.5`, no `inf`).
  public init?(text: String) {
    guard Self.isJSONNumber(Array(text.utf8)) else { return nil }
    self.text = text
  }

  /// An integer.
  public init(_ value: Int64) { text = String(value) }

  /// An unsigned integer, exact up to `UInt64.max`.
  public init(_ value: UInt64) { text = String(value) }

  /// An integer.
  public init(_ value: Int) { text = String(value) }

  /// The number's JSON text.
  public var description: String { text }

  /// The text as YAML 1.1 readers also read it as a number: an exponent with its sign and a
  /// mantissa with a point (PyYAML and SnakeYAML read `1e308` and `1.5e308` as strings, and
  /// `1.0e+308` as a number). JSON reads both forms alike.
  public var portableText: String {
    guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return text }
    var mantissa = String(text[..<e])
    var exponent = String(text[text.index(after: e)...])
    if !mantissa.contains(".") { mantissa += ".0" }
    if exponent.first != "+" && exponent.first != "-" { exponent = "+" + exponent }
    return mantissa + "e" + exponent
  }

  private static func isJSONNumber(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { JSONNumberSyntax.end(in: $0, from: 0) == $0.count }
  }
}

/// A JSON object: members in the order they were first set.
public struct JSONObject: Hashable, Sendable {
  /// One member of an object.
  public struct Member: Hashable, Sendable {
    /// The key.
    public var key: String
    /// The value.
    public var value: JSONValue
  }

  /// The members, in order.
  public private(set) var members: [Member] = []

  /// An empty object.
  public init() {}

  /// The keys, in order.
  public var keys: [String] { members.map(\.key) }

  /// Whether the object has no members.
  public var isEmpty: Bool { members.isEmpty }

  /// The value under `key`. Setting a new key appends it; setting an existing one replaces its
  /// value in place; setting nil removes it.
  public subscript(key: String) -> JSONValue? {
    get { members.first { $0.key == key }?.value }
    set {
      let index = members.firstIndex { $0.key == key }
      switch (index, newValue) {
      case (let index?, let value?): members[index].value = value
      case (let index?, nil): members.remove(at: index)
      case (nil, let value?): members.append(Member(key: key, value: value))
      case (nil, nil): break
      }
    }
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  /// A string.
  public init(stringLiteral value: String) { self = .string(value) }
  /// `true` or `false`.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// An integer.
  public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
  /// An array of the elements in order.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

  /// An object with the members in the order written; a repeated key keeps its first position
  /// and its last value.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    var object = JSONObject()
    for (key, value) in elements { object[key] = value }
    self = .object(object)
  }
}
