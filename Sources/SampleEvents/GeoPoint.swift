import TypedEvents

/// A point on Earth: the sample's `external:` type, written by hand.
///
/// A type listed under `external:` conforms to `Hashable`, `Sendable`, `Codable` and
/// `PropertyListConvertible`; here it travels in `userInfo` as `[latitude, longitude]`.
nonisolated public struct GeoPoint: Hashable, Sendable, Codable, PropertyListConvertible {
  /// Degrees north of the equator.
  public var latitude: Double
  /// Degrees east of Greenwich.
  public var longitude: Double

  /// Creates a point.
  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  public var propertyListValue: Any { [latitude, longitude] }

  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    let pair = try [Double](propertyListValue: value)
    guard pair.count == 2 else {
      throw UserInfoDecodingError(
        problem: .invalidValue(expected: "[latitude, longitude]", found: "\(pair.count) numbers"))
    }
    self.init(latitude: pair[0], longitude: pair[1])
  }
}
