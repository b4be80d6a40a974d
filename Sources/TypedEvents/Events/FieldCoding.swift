// Everything in this file is generated code's interface to the runtime, not app code's: it is
// `@_spi(Generated)`, so it stays out of an app's autocompletion, and generated files import it
// with `@_spi(Generated) import TypedEvents`.

/// What a field of an event or value type may hold: it has a JSON form and a property-list form,
/// and it is `Hashable`, so that the fields make the value's `hash(into:)`.
@_spi(Generated)
public typealias FieldValue = Codable & PropertyListConvertible & Hashable

/// Reads the fields of an event or value type, by wire key.
///
/// Generated code reads its fields once, generically, through this protocol; `userInfo`
/// (``UserInfoReader``) and JSON (``DecodingFields``) are its two implementations. In a release
/// build the generic reader is specialised for each, so sharing costs nothing at run time and
/// halves the code the compiler has to build.
@_spi(Generated)
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
@_spi(Generated)
public protocol FieldWriter {
  /// Writes `value` under `key`.
  mutating func encode<Value: FieldValue>(_ value: Value, forKey key: String)

  /// Writes `value` under `key`, or nothing when it is nil.
  mutating func encodeIfPresent<Value: FieldValue>(_ value: Value?, forKey key: String)
}

@_spi(Generated) extension UserInfoReader: FieldReader {}
@_spi(Generated) extension UserInfoWriter: FieldWriter {}
@_spi(Generated) extension DecodingFields: FieldReader {}
@_spi(Generated) extension EncodingFields: FieldWriter {}

/// A type whose fields generated code reads and writes once, generically: the runtime derives
/// from those two functions its JSON coding (`Codable`), its `userInfo` coding
/// (``UserInfoCodable``) and `hash(into:)`.
///
/// `==` is the compiler's, synthesized from the stored properties: it compares field by field
/// and allocates nothing, where a comparison through ``write(fields:)`` would have to collect
/// each side's fields into a buffer first.
///
/// Keeping those in the runtime, written once, rather than in every generated type is most of
/// what keeps generated code cheap to compile (Benchmarks/compile-cost.sh). The defaults are
/// inlinable, so a release build still specialises them for each type.
@_spi(Generated)
public protocol FieldCodable: Hashable, Codable, UserInfoCodable {
  /// Reads the fields from JSON or `userInfo`; unknown keys are ignored, missing keys take
  /// their defaults.
  init<Reader: FieldReader>(fields reader: Reader) throws(Reader.Failure)
  /// Writes the fields, by wire key, to JSON, `userInfo` or a hasher.
  func write<Writer: FieldWriter>(fields writer: inout Writer)
}

@_spi(Generated)
extension FieldCodable {
  /// Decodes from JSON or another `Decoder`, with the schema's wire keys.
  @inlinable
  public init(from decoder: any Decoder) throws {
    try self.init(fields: DecodingFields(decoder))
  }

  /// Encodes to JSON or another `Encoder`, with the schema's wire keys.
  @inlinable
  public func encode(to encoder: any Encoder) throws {
    var fields = EncodingFields(encoder)
    write(fields: &fields)
    try fields.finish()
  }

  /// Reads the fields from a `userInfo` dictionary.
  @inlinable
  public init(reading reader: UserInfoReader) throws(UserInfoDecodingError) {
    try self.init(fields: reader)
  }

  /// Writes the fields as property-list values into a `userInfo` dictionary.
  @inlinable
  public func write(to writer: inout UserInfoWriter) {
    write(fields: &writer)
  }

  /// Hashes every field.
  @inlinable
  public func hash(into hasher: inout Hasher) {
    var fields = FieldHasher(hasher: hasher)
    write(fields: &fields)
    hasher = fields.hasher
  }
}

/// Feeds each field into a hasher.
@_spi(Generated)
public struct FieldHasher: FieldWriter {
  /// The hasher the fields go into.
  public var hasher: Hasher

  /// A writer that feeds `hasher`.
  @inlinable
  public init(hasher: Hasher) {
    self.hasher = hasher
  }

  /// Combines `value` into the hasher; the key is the same for every value of the type.
  @inlinable
  public mutating func encode<Value: FieldValue>(_ value: Value, forKey key: String) {
    hasher.combine(value)
  }

  /// Combines `value`, nil included, into the hasher.
  @inlinable
  public mutating func encodeIfPresent<Value: FieldValue>(_ value: Value?, forKey key: String) {
    hasher.combine(value)
  }
}
