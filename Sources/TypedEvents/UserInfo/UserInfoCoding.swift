/// A value type whose stored properties travel as a `userInfo`-style dictionary: every
/// ``Event``, and the value types and records that `eventgen` generates for `fields:`.
///
/// Generated code implements the two requirements field by field; the runtime supplies the
/// rest, so generated code stays small and regular.
public protocol UserInfoCodable: PropertyListConvertible {
  /// Reads the value's fields.
  init(reading reader: UserInfoReader) throws(UserInfoDecodingError)
  /// Writes the value's fields.
  func write(to writer: inout UserInfoWriter)
}

extension UserInfoCodable {
  /// The fields as a `[String: Any]` dictionary.
  public var propertyListValue: Any {
    var writer = UserInfoWriter()
    write(to: &writer)
    return writer.storage
  }

  /// Reads the fields from a dictionary.
  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    guard let reader = UserInfoReader(value) else {
      throw .typeMismatch(expected: "Dictionary", found: value)
    }
    try self.init(reading: reader)
  }
}

/// Writes fields into a `userInfo` dictionary; used by generated code.
public struct UserInfoWriter {
  /// The dictionary written so far.
  public var storage: [String: Any] { entries }

  // Internal rather than `private(set)`: the inlinable writes below insert into it directly, so
  // that a release build specialises the insertion for `String` keys at each field (callgrind).
  @usableFromInline
  var entries: [String: Any] = [:]

  /// Creates an empty writer.
  public init() {
    // Most events and values have a handful of fields: one allocation instead of growing
    // the dictionary three times.
    entries.reserveCapacity(8)
  }

  /// The dictionary with `AnyHashable` keys, as `Notification.userInfo` takes it.
  public var userInfo: [AnyHashable: Any] {
    // The runtime's upcast is twice as fast as inserting key by key (measured).
    entries as [AnyHashable: Any]
  }

  /// Writes `value` under `key`.
  @inlinable
  public mutating func encode<Value: PropertyListConvertible>(_ value: Value, forKey key: String) {
    set(value.propertyListValue, forKey: key)
  }

  /// Writes each entry under its own key.
  public mutating func encodeOtherKeys<Value: PropertyListConvertible>(_ values: [String: Value]) {
    for (key, value) in values { set(value.propertyListValue, forKey: key) }
  }

  /// Writes `value` under `key`, or nothing when it is nil: `nil` is an absent key.
  @inlinable
  public mutating func encodeIfPresent<Value: PropertyListConvertible>(_ value: Value?, forKey key: String) {
    if let value { set(value.propertyListValue, forKey: key) }
  }

  @inlinable
  mutating func set(_ value: consuming Any, forKey key: String) {
    entries[key] = value
  }
}

/// Reads fields from a `userInfo` dictionary; used by generated code.
///
/// It accepts `[AnyHashable: Any]` (as `Notification` holds it), `[String: Any]`, and the
/// dictionaries `PropertyListSerialization` returns. Unknown keys are ignored.
public struct UserInfoReader {
  /// Where the fields are looked up.
  @usableFromInline
  enum Storage {
    /// A notification's few entries, searched in order: one pass over the `[AnyHashable: Any]`
    /// and no second hash table (half the cost of copying into a `[String: Any]`, measured).
    case pairs(ContiguousArray<Entry>)
    /// A dictionary with string keys, as nested values arrive, or a large `userInfo`.
    case dictionary([String: Any])
  }

  /// One entry of a notification's `userInfo`. A struct, not a tuple: an array of tuples
  /// copied its elements through the runtime's generic tuple witnesses (callgrind).
  @usableFromInline
  struct Entry {
    @usableFromInline
    let key: String
    @usableFromInline
    let value: Any
  }

  @usableFromInline
  let storage: Storage

  /// Up to this many entries, a linear search by key beats hashing each key twice.
  private static var linearSearchLimit: Int { 16 }

  /// A reader over a notification's `userInfo`. Keys that are not strings are ignored, as
  /// unknown keys are.
  public init(_ userInfo: [AnyHashable: Any]) {
    // Looking a String up among AnyHashable keys boxes and casts per lookup; the string keys
    // are taken out once instead.
    guard userInfo.count <= Self.linearSearchLimit else {
      var strings: [String: Any] = [:]
      strings.reserveCapacity(userInfo.count)
      for (key, value) in userInfo {
        if let key = key.base as? String { strings[key] = value }
      }
      storage = .dictionary(strings)
      return
    }
    var pairs = ContiguousArray<Entry>()
    pairs.reserveCapacity(userInfo.count)
    for (key, value) in userInfo {
      if let key = key.base as? String { pairs.append(Entry(key: key, value: value)) }
    }
    storage = .pairs(pairs)
  }

  private init(storage: Storage) {
    self.storage = storage
  }

  /// A reader over `value` when it is a dictionary with string keys.
  public init?(_ value: Any) {
    if let strings = value as? [String: Any] {
      self.init(storage: .dictionary(strings))
    } else if let hashables = value as? [AnyHashable: Any] {
      self.init(hashables)
    } else {
      return nil
    }
  }

  /// `value` as a `[String: Any]`, when it is a dictionary whose keys are all strings.
  @usableFromInline
  static func dictionary(_ value: Any) -> [String: Any]? {
    if let strings = value as? [String: Any] { return strings }
    guard let hashables = value as? [AnyHashable: Any] else { return nil }
    var result: [String: Any] = [:]
    for (key, item) in hashables {
      guard let key = key.base as? String else { return nil }
      result[key] = item
    }
    return result
  }

  /// Every entry with a string key, as one dictionary.
  var entries: [String: Any] {
    switch storage {
    case .pairs(let pairs):
      var result: [String: Any] = [:]
      result.reserveCapacity(pairs.count)
      for pair in pairs { result[pair.key] = pair.value }
      return result
    case .dictionary(let strings):
      return strings
    }
  }

  @inlinable
  func value(forKey key: String) -> Any? {
    switch storage {
    case .pairs(let pairs):
      // A key appears once: AnyHashable keys that are equal strings are one key. Comparing the
      // lengths first is cheap for short keys and skips most full comparisons (callgrind).
      let length = key.utf8.count
      for index in pairs.indices where pairs[index].key.utf8.count == length && pairs[index].key == key {
        return pairs[index].value
      }
      return nil
    case .dictionary(let strings):
      return strings[key]
    }
  }

  /// The value under `key`; a missing key is an error.
  @inlinable
  public func decode<Value: PropertyListConvertible>(
    _ type: Value.Type = Value.self, forKey key: String
  ) throws(UserInfoDecodingError) -> Value {
    guard let raw = value(forKey: key) else {
      throw UserInfoDecodingError(path: [.key(key)], problem: .missingKey)
    }
    return try convert(raw, forKey: key)
  }

  /// The value under `key`, or nil when the key is missing.
  @inlinable
  public func decodeIfPresent<Value: PropertyListConvertible>(
    _ type: Value.Type = Value.self, forKey key: String
  ) throws(UserInfoDecodingError) -> Value? {
    guard let raw = value(forKey: key) else { return nil }
    // `as Value`: Value? is itself PropertyListConvertible (optionals inside containers), and
    // inference would otherwise read the value as one — an empty or one-element array.
    return try convert(raw, forKey: key) as Value
  }

  /// The value under `key`, or `defaultValue` when the key is missing.
  @inlinable
  public func decode<Value: PropertyListConvertible>(
    _ type: Value.Type = Value.self, forKey key: String, default defaultValue: @autoclosure () -> Value
  ) throws(UserInfoDecodingError) -> Value {
    guard let raw = value(forKey: key) else { return defaultValue() }
    return try convert(raw, forKey: key)
  }

  /// Checks that the value under `key` is the schema's `const`; a missing key is an error only
  /// when the field is required.
  public func decodeConstant<Value: PropertyListConvertible & Equatable>(
    _ expected: Value, forKey key: String, required: Bool
  ) throws(UserInfoDecodingError) {
    guard let raw = value(forKey: key) else {
      if required { throw UserInfoDecodingError(path: [.key(key)], problem: .missingKey) }
      return
    }
    let found: Value = try convert(raw, forKey: key)
    guard found == expected else {
      throw UserInfoDecodingError(
        path: [.key(key)],
        problem: .invalidValue(
          expected: "the constant \(String(reflecting: expected))", found: String(reflecting: found)))
    }
  }

  /// Every key but `known`, with its value.
  public func decodeOtherKeys<Value: PropertyListConvertible>(
    _ type: Value.Type, excluding known: Set<String>
  ) throws(UserInfoDecodingError) -> [String: Value] {
    var result: [String: Value] = [:]
    switch storage {
    case .pairs(let pairs):
      for pair in pairs where !known.contains(pair.key) {
        result[pair.key] = try convert(pair.value, forKey: pair.key) as Value
      }
    case .dictionary(let strings):
      for (key, value) in strings where !known.contains(key) {
        result[key] = try convert(value, forKey: key) as Value
      }
    }
    return result
  }

  @inlinable
  func convert<Value: PropertyListConvertible>(_ raw: Any, forKey key: String) throws(UserInfoDecodingError) -> Value {
    do {
      return try Value(propertyListValue: raw)
    } catch {
      throw error.prefixed(by: .key(key))
    }
  }
}
