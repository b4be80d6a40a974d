import Foundation

/// How a ``BinaryEvent`` whose data is text (a message of a `text/*` content type, such as an
/// MQTT topic's `42` or `ONLINE`) reads and writes its typed value: the UTF-8 text of its
/// description, or of its raw value for an enum. Generated code calls it.
@_spi(Generated) public enum TextPayload {
  /// The value whose text `bytes` hold.
  ///
  /// - Throws: ``EventLogError/malformed(_:)`` when the bytes are not UTF-8, or their text is no
  ///   value of `type`.
  public static func value<Value: LosslessStringConvertible>(_ type: Value.Type, from bytes: Data) throws -> Value {
    let text = try self.text(bytes)
    guard let value = Value(text) else { throw notA(type, text) }
    return value
  }

  /// The enum case whose raw value `bytes` hold (an open enum keeps one it does not know).
  ///
  /// - Throws: ``EventLogError/malformed(_:)`` when the bytes are not UTF-8, or their text is no
  ///   case of a frozen `type`.
  public static func value<Value: RawRepresentable>(
    _ type: Value.Type, from bytes: Data
  ) throws -> Value where Value.RawValue == String {
    let text = try self.text(bytes)
    guard let value = Value(rawValue: text) else { throw notA(type, text) }
    return value
  }

  /// The text of `value`, as UTF-8.
  public static func bytes(of value: some LosslessStringConvertible) -> Data {
    Data(value.description.utf8)
  }

  /// The raw value of `value`, as UTF-8.
  public static func bytes<Value: RawRepresentable>(of value: Value) -> Data where Value.RawValue == String {
    Data(value.rawValue.utf8)
  }

  private static func text(_ bytes: Data) throws -> String {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw EventLogError.malformed("the event's text is not UTF-8")
    }
    return text
  }

  private static func notA<Value>(_ type: Value.Type, _ text: String) -> EventLogError {
    EventLogError.malformed("the event's text \"\(text.prefix(80))\" is no \(Value.self)")
  }
}
