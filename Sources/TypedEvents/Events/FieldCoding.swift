/// What a field of an event or value type may hold: it has a JSON form and a property-list form,
/// and it is `Hashable`, so that the fields make the value's `==` and `hash(into:)`.
public typealias FieldValue = Codable & PropertyListConvertible & Hashable

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

/// A type whose fields generated code reads and writes once, generically: the runtime derives
/// from those two functions its JSON coding (`Codable`), its `userInfo` coding
/// (``UserInfoCodable``), `==` and `hash(into:)`.
///
/// Keeping those in the runtime, written once, rather than in every generated type is most of
/// what keeps generated code cheap to compile (Benchmarks/compile-cost.sh). The defaults are
/// inlinable, so a release build still specialises them for each type.
public protocol FieldCodable: Hashable, Codable, UserInfoCodable {
  /// Reads the fields from JSON or `userInfo`; unknown keys are ignored, missing keys take
  /// their defaults.
  init<Reader: FieldReader>(fields reader: Reader) throws(Reader.Failure)
  /// Writes the fields, by wire key, to JSON, `userInfo`, a hasher or a comparison.
  func write<Writer: FieldWriter>(fields writer: inout Writer)
}

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

  /// Whether two values have equal fields.
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    var left = FieldList()
    var right = FieldList()
    lhs.write(fields: &left)
    rhs.write(fields: &right)
    return left.values == right.values
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
@usableFromInline
struct FieldHasher: FieldWriter {
  @usableFromInline var hasher: Hasher

  @inlinable
  init(hasher: Hasher) {
    self.hasher = hasher
  }

  @inlinable
  mutating func encode<Value: FieldValue>(_ value: Value, forKey key: String) {
    hasher.combine(value)
  }

  @inlinable
  mutating func encodeIfPresent<Value: FieldValue>(_ value: Value?, forKey key: String) {
    hasher.combine(value)
  }
}

/// The fields in order, for comparing two values of one type.
@usableFromInline
struct FieldList: FieldWriter {
  @usableFromInline var values: [AnyHashable] = []

  @inlinable
  init() {}

  @inlinable
  mutating func encode<Value: FieldValue>(_ value: Value, forKey key: String) {
    values.append(AnyHashable(value))
  }

  @inlinable
  mutating func encodeIfPresent<Value: FieldValue>(_ value: Value?, forKey key: String) {
    values.append(AnyHashable(value))
  }
}
