/// A strong identifier: a struct around one raw value, such as `ListingID` around `String`.
///
/// Generated for `wraps:` types. It is `Codable` as its bare raw value (a single value, not an
/// object), and travels in `userInfo` as the raw value's property-list form.
public protocol StrongIdentifier: RawRepresentable, Hashable, Sendable, Codable, PropertyListConvertible,
  CustomStringConvertible
where RawValue: Hashable & Sendable & Codable & PropertyListConvertible {
  /// Creates the identifier.
  init(rawValue: RawValue)
}

extension StrongIdentifier {
  /// Creates the identifier around `rawValue`.
  public init(_ rawValue: RawValue) {
    self.init(rawValue: rawValue)
  }

  /// Decodes the identifier from its bare raw value, not an object.
  public init(from decoder: any Decoder) throws {
    self.init(rawValue: try decoder.singleValueContainer().decode(RawValue.self))
  }

  /// Encodes the identifier as its bare raw value, not an object.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  @inlinable
  public var propertyListValue: Any { rawValue.propertyListValue }

  @inlinable
  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    self.init(rawValue: try RawValue(propertyListValue: value))
  }

  public var description: String { "\(rawValue)" }
}

/// An enum of string raw values, generated for `enum:` types.
///
/// Open enums (the default) keep an unknown raw value in an `UNRECOGNIZED(String)` case and write it
/// back unchanged; frozen ones (`frozen: true`) refuse it. Either way the enum is `Codable` as
/// its raw value, through the standard library's `RawRepresentable` support.
public protocol StringEnumeration: RawRepresentable, Hashable, Sendable, Codable, PropertyListConvertible
where RawValue == String {}

extension StringEnumeration {
  @inlinable
  public var propertyListValue: Any { rawValue }

  @inlinable
  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    guard let string = value as? String else {
      throw .typeMismatch(expected: "\(Self.self) (a string)", found: value)
    }
    guard let value = Self(rawValue: string) else {
      throw UserInfoDecodingError(problem: .invalidValue(expected: "a case of \(Self.self)", found: "\"\(string)\""))
    }
    self = value
  }
}
