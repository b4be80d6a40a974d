/// What a field of an event or value type may hold: it has a JSON form and a property-list form.
public typealias FieldValue = Codable & PropertyListConvertible

/// Reads the fields of an event or value type, by wire key.
///
/// Generated code reads its fields once, generically, through this protocol; `userInfo`
/// (``UserInfoReader``) and JSON (``DecodingFields``) are its two implementations. In a release
/// build the generic reader is specialised for each, so sharing costs nothing at run time and
/// halves the code the compiler has to build.
public protocol FieldReader {
  /// What reading throws: ``UserInfoDecodingError`` for `userInfo`, `DecodingError` for JSON.
  associatedtype Failure: Error

  /// The value under `key`; a missing key is an error.
  func decode<Value: FieldValue>(_ type: Value.Type, forKey key: String) throws(Failure) -> Value

  /// The value under `key`, or nil when the key is missing.
  func decodeIfPresent<Value: FieldValue>(_ type: Value.Type, forKey key: String) throws(Failure) -> Value?

  /// The value under `key`, or `defaultValue` when the key is missing.
  func decode<Value: FieldValue>(
    _ type: Value.Type, forKey key: String, default defaultValue: @autoclosure () -> Value
  ) throws(Failure) -> Value
}

/// Writes the fields of an event or value type, by wire key; the counterpart of ``FieldReader``.
///
/// Writing does not throw field by field: a writer that can fail (JSON) keeps its first error
/// and reports it when done. A `try` per field would double the code generated for each type.
public protocol FieldWriter {
  /// Writes `value` under `key`.
  mutating func encode<Value: FieldValue>(_ value: Value, forKey key: String)

  /// Writes `value` under `key`, or nothing when it is nil.
  mutating func encodeIfPresent<Value: FieldValue>(_ value: Value?, forKey key: String)
}

extension UserInfoReader: FieldReader {}
extension UserInfoWriter: FieldWriter {}
extension DecodingFields: FieldReader {}
extension EncodingFields: FieldWriter {}

/// Field comparison for the `==` that generated types implement.
///
/// Swift can synthesise `Equatable`, but type-checking the synthesised `lhs.x == rhs.x` resolves
/// the `==` operator among all its overloads for every field; a generic function has one
/// candidate, which keeps large schemas cheap to compile.
public enum FieldComparison {
  /// Whether two field values are equal.
  @inlinable
  public static func equal<Value: Equatable>(_ lhs: Value, _ rhs: Value) -> Bool {
    lhs == rhs
  }
}
