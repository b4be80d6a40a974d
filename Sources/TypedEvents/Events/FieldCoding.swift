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
/// (``UserInfoCodable``), `==` and `hash(into:)`.
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

  /// Whether two values have equal fields. Allocates nothing: the right-hand side's fields are
  /// copied into a buffer on the stack, then compared one by one with the left-hand side's.
  ///
  /// The runtime's, written once, rather than the compiler's synthesized `==` per type, which
  /// made a clean debug build of 300 generated events a fifth slower (Benchmarks/compile-cost.sh).
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    let alignment = Swift.max(MemoryLayout<Self>.alignment, MemoryLayout<ObjectIdentifier>.alignment)
    let equal = withUnsafeTemporaryAllocation(byteCount: FieldComparison.capacity(for: Self.self), alignment: alignment) {
      FieldComparison.compare(lhs, rhs, in: $0)
    }
    return equal ?? FieldComparison.compareOnTheHeap(lhs, rhs)
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

/// `==` without allocating: one value's fields are stashed in a buffer on the stack, each behind
/// the identity of its type, and the other value's fields are compared with them in write order.
@_spi(Generated)
public enum FieldComparison {
  /// Enough for the fields of any generated type (they are its stored properties) and a type
  /// identity before each.
  @inlinable
  public static func capacity<Value>(for type: Value.Type) -> Int {
    4 * MemoryLayout<Value>.size + 128
  }

  /// Whether `lhs` and `rhs` have equal fields, or nil when `rhs`'s fields do not fit in
  /// `buffer` or the two values wrote different kinds of fields (a hand-written conformance
  /// whose fields depend on their values).
  @inlinable
  public static func compare<Value: FieldCodable>(_ lhs: Value, _ rhs: Value, in buffer: UnsafeMutableRawBufferPointer) -> Bool? {
    var stash = FieldStash(buffer)
    rhs.write(fields: &stash)
    var result: Bool?
    if !stash.overflowed {
      var comparer = FieldComparer(buffer, count: stash.count)
      lhs.write(fields: &comparer)
      result = comparer.consistent && comparer.index == stash.count ? comparer.equal : nil
    }
    // The same writes again, to release what was stashed with the types it was stashed as.
    var releaser = FieldReleaser(buffer, count: stash.count)
    rhs.write(fields: &releaser)
    return result
  }

  /// The comparison when the fields do not fit on the stack: each side's fields boxed in an array.
  @inlinable
  public static func compareOnTheHeap<Value: FieldCodable>(_ lhs: Value, _ rhs: Value) -> Bool {
    var left = FieldList()
    var right = FieldList()
    lhs.write(fields: &left)
    rhs.write(fields: &right)
    return left.values == right.values
  }
}

/// Walks a buffer of entries: the `ObjectIdentifier` of a field's type, then the field, each at
/// its alignment.
@_spi(Generated)
public struct FieldCursor {
  public let buffer: UnsafeMutableRawBufferPointer
  public var offset = 0

  @inlinable
  public init(_ buffer: UnsafeMutableRawBufferPointer) {
    self.buffer = buffer
  }

  /// The addresses of the next entry for a field of type `Value`, or nil when it does not fit.
  @inlinable
  public mutating func next<Value>(_ type: Value.Type) -> (tag: UnsafeMutableRawPointer, value: UnsafeMutableRawPointer)? {
    guard let base = buffer.baseAddress else { return nil }
    let tag = Self.aligned(offset, MemoryLayout<ObjectIdentifier>.alignment)
    let value = Self.aligned(tag + MemoryLayout<ObjectIdentifier>.size, MemoryLayout<Value>.alignment)
    guard value + MemoryLayout<Value>.size <= buffer.count else { return nil }
    offset = value + MemoryLayout<Value>.size
    return (base + tag, base + value)
  }

  @inlinable
  public static func aligned(_ offset: Int, _ alignment: Int) -> Int {
    (offset + alignment - 1) / alignment * alignment
  }
}

/// Copies each field, behind its type's identity, into the buffer.
@_spi(Generated)
public struct FieldStash: FieldWriter {
  public var cursor: FieldCursor
  public var overflowed = false
  /// How many fields were stashed.
  public var count = 0

  @inlinable
  public init(_ buffer: UnsafeMutableRawBufferPointer) {
    cursor = FieldCursor(buffer)
  }

  @inlinable
  public mutating func encode<Value: FieldValue>(_ value: Value, forKey key: String) {
    stash(value)
  }

  @inlinable
  public mutating func encodeIfPresent<Value: FieldValue>(_ value: Value?, forKey key: String) {
    stash(value)
  }

  @inlinable
  public mutating func stash<Value>(_ value: Value) {
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
@_spi(Generated)
public struct FieldComparer: FieldWriter {
  public var cursor: FieldCursor
  public let count: Int
  public var index = 0
  public var equal = true
  /// False once a field's type differs from the stashed one, or there are more fields.
  public var consistent = true

  @inlinable
  public init(_ buffer: UnsafeMutableRawBufferPointer, count: Int) {
    cursor = FieldCursor(buffer)
    self.count = count
  }

  @inlinable
  public mutating func encode<Value: FieldValue>(_ value: Value, forKey key: String) {
    compare(value)
  }

  @inlinable
  public mutating func encodeIfPresent<Value: FieldValue>(_ value: Value?, forKey key: String) {
    compare(value)
  }

  @inlinable
  public mutating func compare<Value: Equatable>(_ value: Value) {
    guard consistent, index < count, let entry = cursor.next(Value.self),
      entry.tag.load(as: ObjectIdentifier.self) == ObjectIdentifier(Value.self)
    else {
      consistent = false
      return
    }
    index += 1
    if equal { equal = entry.value.assumingMemoryBound(to: Value.self).pointee == value }
  }
}

/// Deinitializes the first `count` stashed fields, as the same writes meet them again.
@_spi(Generated)
public struct FieldReleaser: FieldWriter {
  public var cursor: FieldCursor
  public var remaining: Int

  @inlinable
  public init(_ buffer: UnsafeMutableRawBufferPointer, count: Int) {
    cursor = FieldCursor(buffer)
    remaining = count
  }

  @inlinable
  public mutating func encode<Value: FieldValue>(_ value: Value, forKey key: String) {
    release(Value.self)
  }

  @inlinable
  public mutating func encodeIfPresent<Value: FieldValue>(_ value: Value?, forKey key: String) {
    release(Value?.self)
  }

  @inlinable
  public mutating func release<Value>(_ type: Value.Type) {
    guard remaining > 0, let entry = cursor.next(Value.self) else { return }
    remaining -= 1
    entry.value.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
  }
}

/// Each field boxed, for the comparison of fields that do not fit on the stack.
@_spi(Generated)
public struct FieldList: FieldWriter {
  public var values: [AnyHashable] = []

  @inlinable
  public init() {}

  @inlinable
  public mutating func encode<Value: FieldValue>(_ value: Value, forKey key: String) {
    values.append(AnyHashable(value))
  }

  @inlinable
  public mutating func encodeIfPresent<Value: FieldValue>(_ value: Value?, forKey key: String) {
    values.append(AnyHashable(value))
  }
}
