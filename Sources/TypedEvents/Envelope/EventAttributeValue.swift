import Foundation

/// The value of an envelope's metadata entry: a CloudEvents extension attribute.
///
/// CloudEvents 1.0 gives attributes seven types. Three travel as their own JSON type and are the
/// cases here: Boolean, Integer and String. The other four travel as strings, so they are made
/// with ``timestamp(_:)``, ``binary(_:)``, ``uri(_:)`` and ``uriReference(_:)``, which give the
/// string, and read with ``dateValue``, ``dataValue`` and ``urlValue``. A value therefore reads
/// back `==` to what was written, from a log, a store, the structured mode or a batch.
///
/// Literals work as values: `metadata: ["service": "listings", "retries": 3, "replayed": true]`.
///
/// In the binary content mode every attribute is a header, that is text: Integer and Boolean
/// values are written as `3` and `true` and read back as ``string(_:)``, as the CloudEvents
/// bindings specify (a receiver knows an extension's type only from the extension itself).
public enum EventAttributeValue: Sendable, Hashable {
  /// A CloudEvents String (also how Timestamp, Binary, URI and URI-reference values travel).
  case string(String)
  /// A CloudEvents Integer: a signed 32-bit whole number. A CloudEvents writer refuses others.
  case integer(Int)
  /// A CloudEvents Boolean.
  case boolean(Bool)

  /// A CloudEvents Timestamp: the date as an exact ``EventTimestamp``, nil when it has none.
  public static func timestamp(_ date: Date) -> EventAttributeValue? {
    EventTimestamp.string(from: date).map(EventAttributeValue.string)
  }

  /// A CloudEvents Binary: the bytes in base64.
  public static func binary(_ data: Data) -> EventAttributeValue {
    .string(data.base64EncodedString())
  }

  /// A CloudEvents URI.
  public static func uri(_ url: URL) -> EventAttributeValue {
    .string(url.absoluteString)
  }

  /// A CloudEvents URI-reference, such as `/listings-service`.
  public static func uriReference(_ reference: String) -> EventAttributeValue {
    .string(reference)
  }

  /// The text of a ``string(_:)`` value; nil for the others.
  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The value as a binary-mode header carries it: `3`, `true`, or the string itself.
  public var headerText: String {
    switch self {
    case .string(let text): return text
    case .integer(let number): return String(number)
    case .boolean(let flag): return flag ? "true" : "false"
    }
  }

  /// The date of a Timestamp value (an RFC 3339 string), else nil.
  public var dateValue: Date? { stringValue.flatMap(EventTimestamp.date(from:)) }

  /// The bytes of a Binary value (a base64 string), else nil.
  public var dataValue: Data? { stringValue.flatMap { Data(base64Encoded: $0) } }

  /// The URL of a URI or URI-reference value, else nil.
  public var urlValue: URL? { stringValue.flatMap { URL(string: $0) } }
}

extension EventAttributeValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
  /// A ``string(_:)`` value.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An ``integer(_:)`` value.
  public init(integerLiteral value: Int) { self = .integer(value) }
  /// A ``boolean(_:)`` value.
  public init(booleanLiteral value: Bool) { self = .boolean(value) }
}

extension EventAttributeValue: CustomStringConvertible {
  /// The value as text, as a header carries it.
  public var description: String { headerText }
}

extension EventAttributeValue: Codable {
  /// Reads a JSON string, whole number or Boolean.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    // Strings first, as most values are: a type that does not match throws, which costs more
    // than the decoding. A JSON value is of one type, so the order changes nothing else.
    if let text = try? container.decode(String.self) {
      self = .string(text)
    } else if let number = try? container.decode(Int.self) {
      self = .integer(number)
    } else {
      self = .boolean(try container.decode(Bool.self))
    }
  }

  /// Writes the value as its JSON type.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .string(let text): try container.encode(text)
    case .integer(let number): try container.encode(number)
    case .boolean(let flag): try container.encode(flag)
    }
  }
}
