/// The key of a field in JSON (or any keyed `Codable` container): the schema's wire key.
@_spi(Generated)
public struct FieldKey: CodingKey, Hashable, Sendable {
  public let stringValue: String
  public var intValue: Int? { nil }

  public init(stringValue: String) {
    self.stringValue = stringValue
  }

  public init?(intValue: Int) {
    nil
  }
}

/// Reads fields from a `Decoder`; used by generated `init(from:)`.
///
/// One generic `decode` instead of `KeyedDecodingContainer`'s many overloads keeps generated
/// code cheap to type-check, and string keys make a `CodingKeys` enum per type unnecessary.
@_spi(Generated)
public struct DecodingFields {
  @usableFromInline
  let container: KeyedDecodingContainer<FieldKey>

  /// The keyed container of `decoder`.
  public init(_ decoder: any Decoder) throws {
    container = try decoder.container(keyedBy: FieldKey.self)
  }

  /// The value under `key`; a missing key is an error.
  @inlinable
  public func decode<Value: Decodable>(_ type: Value.Type, forKey key: String) throws -> Value {
    try container.decode(Value.self, forKey: FieldKey(stringValue: key))
  }

  /// The value under `key`, or nil when the key is missing or null. A ``JSONValue`` holds null
  /// itself: for it, only a missing key is nil, so `{"note": null}` writes back as it came.
  @inlinable
  public func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: String) throws -> Value? {
    let key = FieldKey(stringValue: key)
    if Value.self == JSONValue.self {
      return container.contains(key) ? try container.decode(Value.self, forKey: key) : nil
    }
    return try container.decodeIfPresent(Value.self, forKey: key)
  }

  /// Checks that the value under `key` is the schema's `const`; a missing key is an error only
  /// when the field is required. The error names the key, the constant and the value found.
  public func decodeConstant<Value: Decodable & Equatable>(
    _ expected: Value, forKey key: String, required: Bool
  ) throws {
    let codingKey = FieldKey(stringValue: key)
    guard container.contains(codingKey) else {
      if required { _ = try container.decode(Value.self, forKey: codingKey) }  // throws keyNotFound
      return
    }
    let found = try container.decode(Value.self, forKey: codingKey)
    guard found == expected else {
      throw DecodingError.dataCorruptedError(
        forKey: codingKey, in: container,
        debugDescription:
          "`\(key)` must be the constant \(String(reflecting: expected)); found \(String(reflecting: found))")
    }
  }

  /// Every key but `known`, with its value.
  public func decodeOtherKeys<Value: Decodable>(
    _ type: Value.Type, excluding known: Set<String>
  ) throws -> [String:
    Value]
  {
    var result: [String: Value] = [:]
    for key in container.allKeys where !known.contains(key.stringValue) {
      result[key.stringValue] = try container.decode(Value.self, forKey: key)
    }
    return result
  }

  /// The value under `key`, or `defaultValue` when the key is missing or null.
  @inlinable
  public func decode<Value: Decodable>(
    _ type: Value.Type, forKey key: String, default defaultValue: @autoclosure () -> Value
  ) throws -> Value {
    try container.decodeIfPresent(Value.self, forKey: FieldKey(stringValue: key)) ?? defaultValue()
  }
}

/// Writes fields to an `Encoder`; used by generated `encode(to:)`.
///
/// It keeps the first error and skips the fields after it; ``finish()`` throws it.
@_spi(Generated)
public struct EncodingFields {
  @usableFromInline
  var container: KeyedEncodingContainer<FieldKey>
  @usableFromInline
  var error: (any Error)?

  /// The keyed container of `encoder`: an object, even when no field is written.
  public init(_ encoder: any Encoder) {
    container = encoder.container(keyedBy: FieldKey.self)
  }

  /// Writes `value` under `key`.
  @inlinable
  public mutating func encode<Value: Encodable>(_ value: Value, forKey key: String) {
    guard error == nil else { return }
    do {
      try container.encode(value, forKey: FieldKey(stringValue: key))
    } catch {
      self.error = error
    }
  }

  /// Writes `value` under `key`, or nothing when it is nil.
  @inlinable
  public mutating func encodeIfPresent<Value: Encodable>(_ value: Value?, forKey key: String) {
    if let value { encode(value, forKey: key) }
  }

  /// Writes each entry under its own key.
  public mutating func encodeOtherKeys<Value: Encodable>(_ values: [String: Value]) {
    for (key, value) in values { encode(value, forKey: key) }
  }

  /// Throws the first error that writing a field met.
  public func finish() throws {
    if let error { throw error }
  }
}
