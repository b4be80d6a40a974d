// Everything in this file is generated code's interface to the runtime, not app code's: it is
// `@_spi(Generated)`, so it stays out of an app's autocompletion, and generated files import it
// with `@_spi(Generated) import TypedEvents`.

/// What a ``FieldReader`` needs of a field's type: its JSON form and its property-list form.
///
/// Narrower than ``FieldValue`` on purpose: each protocol in a generic signature is one more
/// witness table that unspecialised generated code looks up and passes at every field.
@_spi(Generated)
public typealias DecodableField = Decodable & PropertyListConvertible

/// What a ``FieldWriter`` needs of a field's type: its JSON form, its property-list form, and
/// `Hashable` for `hash(into:)` and `==`.
@_spi(Generated)
public typealias EncodableField = Encodable & PropertyListConvertible & Hashable

/// What a field of an event or value type may hold: what a reader and a writer need of it, a
/// JSON form, a property-list form, and `Hashable`.
@_spi(Generated)
public typealias FieldValue = DecodableField & EncodableField

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
  func decode<Value: DecodableField>(_ type: Value.Type, forKey key: String) throws(Failure) -> Value

  /// The value under `key`, or nil when the key is missing.
  func decodeIfPresent<Value: DecodableField>(_ type: Value.Type, forKey key: String) throws(Failure) -> Value?

  /// The value under `key`, or `defaultValue` when the key is missing.
  func decode<Value: DecodableField>(
    _ type: Value.Type, forKey key: String, default defaultValue: @autoclosure () -> Value
  ) throws(Failure) -> Value

  /// Checks that the value under `key` is `expected`, a field's `const`; a missing key is an
  /// error only when `required`.
  func decodeConstant<Value: DecodableField & Equatable>(
    _ expected: Value, forKey key: String, required: Bool
  ) throws(Failure)

  /// Every key but `known`, with its value: what a schema's `additionalProperties` keeps.
  func decodeOtherKeys<Value: DecodableField>(
    _ type: Value.Type, excluding known: Set<String>
  ) throws(Failure) -> [String: Value]
}

/// Writes the fields of an event or value type, by wire key; the counterpart of ``FieldReader``.
///
/// Writing does not throw field by field: a writer that can fail (JSON) keeps its first error
/// and reports it when done. A `try` per field would double the code generated for each type.
@_spi(Generated)
public protocol FieldWriter {
  /// Writes `value` under `key`.
  mutating func encode<Value: EncodableField>(_ value: Value, forKey key: String)

  /// Writes `value` under `key`, or nothing when it is nil.
  mutating func encodeIfPresent<Value: EncodableField>(_ value: Value?, forKey key: String)

  /// Writes each entry of `values` under its own key, beside the fields: the keys that a
  /// schema's `additionalProperties` kept.
  mutating func encodeOtherKeys<Value: EncodableField>(_ values: [String: Value])
}

extension FieldWriter {
  /// The entries as one value: what a hasher or a comparison needs of them.
  @inlinable
  public mutating func encodeOtherKeys<Value: EncodableField>(_ values: [String: Value]) {
    encode(values, forKey: "")
  }
}

@_spi(Generated) extension UserInfoReader: FieldReader {}
@_spi(Generated) extension UserInfoWriter: FieldWriter {}
@_spi(Generated) extension DecodingFields: FieldReader {}
@_spi(Generated) extension EncodingFields: FieldWriter {}

/// A type whose fields generated code reads and writes once, generically: the runtime derives
/// from those two functions its JSON coding (`Codable`), its `userInfo` coding
/// (``UserInfoCodable``), `==`, `hash(into:)` and `hashValue`.
///
/// Keeping those in the runtime, written once, rather than in every generated type is most of
/// what keeps generated code cheap to compile (Benchmarks/compile-cost.sh). Only the `userInfo`
/// defaults are inlinable, so a release build specialises them for each type: `userInfo` is
/// what the notification bridge carries. JSON coding (the event log's, the envelopes' and the
/// PostgreSQL store's format), `==`, `hash(into:)` and `hashValue` run the generic code
/// instead; specialising them for every type took a quarter of a clean release build of 300
/// events.
///
/// A conforming type keeps the `init(from:)` this protocol gives it: where it can,
/// ``EventEnvelope/decode(using:acceptingNewerVersions:)`` reads an envelope's JSON through
/// `init(fields:)` directly, without `init(from:)`.
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
  // Not inlinable, nor left for a release build to serialise on its own: see the protocol.
  @_semantics("optimize.no.crossmodule")
  public init(from decoder: any Decoder) throws {
    try self.init(fields: DecodingFields(decoder))
  }

  /// Encodes to JSON or another `Encoder`, with the schema's wire keys.
  @_semantics("optimize.no.crossmodule")
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

  /// Whether two values have equal fields. Allocates nothing: the right-hand side's fields are
  /// copied into a buffer on the stack, then compared one by one with the left-hand side's.
  ///
  /// Written once in the runtime and not inlinable: the compiler's synthesized `==` per type
  /// made a clean debug build of 300 generated events a fifth slower, and specialising this one
  /// per type a release build about a tenth slower (Benchmarks/compile-cost.sh). Comparing
  /// events is not on the bus's path.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    FieldComparison.equal(lhs, rhs)
  }

  /// Hashes every field.
  @_semantics("optimize.no.crossmodule")
  public func hash(into hasher: inout Hasher) {
    var fields = FieldHasher(hasher: hasher)
    write(fields: &fields)
    hasher = fields.hasher
  }

  /// The hash of every field, as `hash(into:)` feeds them to a fresh `Hasher`.
  ///
  /// Written here once: otherwise the compiler synthesizes this property for every type.
  @_semantics("optimize.no.crossmodule")
  public var hashValue: Int {
    var hasher = Hasher()
    hash(into: &hasher)
    return hasher.finalize()
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
  public mutating func encode<Value: EncodableField>(_ value: Value, forKey key: String) {
    hasher.combine(value)
  }

  /// Combines `value`, nil included, into the hasher.
  @inlinable
  public mutating func encodeIfPresent<Value: EncodableField>(_ value: Value?, forKey key: String) {
    hasher.combine(value)
  }
}

/// `==` without allocating: one value's fields are stashed in a buffer on the stack, each behind
/// the identity of its type, and the other value's fields are compared with them in write order.
enum FieldComparison {
  /// Whether `lhs` and `rhs` have equal fields.
  static func equal<Value: FieldCodable>(_ lhs: Value, _ rhs: Value) -> Bool {
    let alignment = Swift.max(MemoryLayout<Value>.alignment, MemoryLayout<ObjectIdentifier>.alignment)
    let equal = withUnsafeTemporaryAllocation(byteCount: capacity(for: Value.self), alignment: alignment) {
      compare(lhs, rhs, in: $0)
    }
    return equal ?? compareOnTheHeap(lhs, rhs)
  }

  /// Enough for the fields of any generated type (they are its stored properties) and a type
  /// identity before each.
  static func capacity<Value>(for type: Value.Type) -> Int {
    4 * MemoryLayout<Value>.size + 128
  }

  /// Whether `lhs` and `rhs` have equal fields, or nil when `rhs`'s fields do not fit in
  /// `buffer` or the two values wrote different kinds of fields (a hand-written conformance
  /// whose fields depend on their values).
  static func compare<Value: FieldCodable>(
    _ lhs: Value, _ rhs: Value, in buffer: UnsafeMutableRawBufferPointer
  ) -> Bool? {
    var stash = FieldStash(buffer)
    rhs.write(fields: &stash)
    guard !stash.overflowed else {
      release(rhs, in: buffer, from: 0, count: stash.count)
      return nil
    }
    // The comparer takes each stashed field out as it compares it.
    var comparer = FieldComparer(buffer, count: stash.count)
    lhs.write(fields: &comparer)
    if comparer.consistent && comparer.index == stash.count { return comparer.equal }
    release(rhs, in: buffer, from: comparer.index, count: stash.count)
    return nil
  }

  /// Deinitializes the stashed fields `start..<count` of `value`, meeting their types by
  /// replaying its writes.
  static func release<Value: FieldCodable>(
    _ value: Value, in buffer: UnsafeMutableRawBufferPointer, from start: Int, count: Int
  ) {
    var releaser = FieldReleaser(buffer, skipping: start, count: count)
    value.write(fields: &releaser)
  }

  /// The comparison when the fields do not fit on the stack: each side's fields boxed in an array.
  static func compareOnTheHeap<Value: FieldCodable>(_ lhs: Value, _ rhs: Value) -> Bool {
    var left = FieldList()
    var right = FieldList()
    lhs.write(fields: &left)
    rhs.write(fields: &right)
    return left.values == right.values
  }
}

/// Walks a buffer of entries: the `ObjectIdentifier` of a field's type, then the field, each at
/// its alignment.
struct FieldCursor {
  let buffer: UnsafeMutableRawBufferPointer
  var offset = 0

  init(_ buffer: UnsafeMutableRawBufferPointer) {
    self.buffer = buffer
  }

  /// The addresses of the next entry for a field of type `Value`, or nil when it does not fit.
  mutating func next<Value>(_ type: Value.Type) -> (tag: UnsafeMutableRawPointer, value: UnsafeMutableRawPointer)? {
    guard let base = buffer.baseAddress else { return nil }
    let tag = Self.aligned(offset, MemoryLayout<ObjectIdentifier>.alignment)
    let value = Self.aligned(tag + MemoryLayout<ObjectIdentifier>.size, MemoryLayout<Value>.alignment)
    guard value + MemoryLayout<Value>.size <= buffer.count else { return nil }
    offset = value + MemoryLayout<Value>.size
    return (base + tag, base + value)
  }

  static func aligned(_ offset: Int, _ alignment: Int) -> Int {
    (offset + alignment - 1) / alignment * alignment
  }
}

/// Copies each field, behind its type's identity, into the buffer.
struct FieldStash: FieldWriter {
  var cursor: FieldCursor
  var overflowed = false
  /// How many fields were stashed.
  var count = 0

  init(_ buffer: UnsafeMutableRawBufferPointer) {
    cursor = FieldCursor(buffer)
  }

  mutating func encode<Value: EncodableField>(_ value: Value, forKey key: String) {
    stash(value)
  }

  mutating func encodeIfPresent<Value: EncodableField>(_ value: Value?, forKey key: String) {
    stash(value)
  }

  mutating func stash<Value>(_ value: Value) {
    guard !overflowed, let entry = cursor.next(Value.self) else {
      overflowed = true
      return
    }
    entry.tag.initializeMemory(as: ObjectIdentifier.self, to: ObjectIdentifier(Value.self))
    entry.value.initializeMemory(as: Value.self, to: value)
    count += 1
  }
}

/// Compares each field with the stashed one at the same position, if it has the same type.
struct FieldComparer: FieldWriter {
  var cursor: FieldCursor
  let count: Int
  var index = 0
  var equal = true
  /// False once a field's type differs from the stashed one, or there are more fields.
  var consistent = true

  init(_ buffer: UnsafeMutableRawBufferPointer, count: Int) {
    cursor = FieldCursor(buffer)
    self.count = count
  }

  mutating func encode<Value: EncodableField>(_ value: Value, forKey key: String) {
    compare(value)
  }

  mutating func encodeIfPresent<Value: EncodableField>(_ value: Value?, forKey key: String) {
    compare(value)
  }

  mutating func compare<Value: Equatable>(_ value: Value) {
    guard consistent, index < count, let entry = cursor.next(Value.self),
      entry.tag.load(as: ObjectIdentifier.self) == ObjectIdentifier(Value.self)
    else {
      consistent = false
      return
    }
    index += 1
    let stashed = entry.value.assumingMemoryBound(to: Value.self).move()
    if equal { equal = stashed == value }
  }
}

/// Deinitializes the stashed fields `start..<count`, as the same writes meet them again.
struct FieldReleaser: FieldWriter {
  var cursor: FieldCursor
  var index = 0
  let start: Int
  let count: Int

  init(_ buffer: UnsafeMutableRawBufferPointer, skipping start: Int, count: Int) {
    cursor = FieldCursor(buffer)
    self.start = start
    self.count = count
  }

  mutating func encode<Value: EncodableField>(_ value: Value, forKey key: String) {
    release(Value.self)
  }

  mutating func encodeIfPresent<Value: EncodableField>(_ value: Value?, forKey key: String) {
    release(Value?.self)
  }

  mutating func release<Value>(_ type: Value.Type) {
    guard index < count, let entry = cursor.next(Value.self) else { return }
    if index >= start { entry.value.assumingMemoryBound(to: Value.self).deinitialize(count: 1) }
    index += 1
  }
}

/// Each field boxed, for the comparison of fields that do not fit on the stack.
struct FieldList: FieldWriter {
  var values: [AnyHashable] = []

  mutating func encode<Value: EncodableField>(_ value: Value, forKey key: String) {
    values.append(AnyHashable(value))
  }

  mutating func encodeIfPresent<Value: EncodableField>(_ value: Value?, forKey key: String) {
    values.append(AnyHashable(value))
  }
}
