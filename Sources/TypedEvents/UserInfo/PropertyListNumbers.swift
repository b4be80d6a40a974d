import Foundation

/// Number conversions for `userInfo` values, which arrive as Swift numbers of any width or as
/// `NSNumber` (after `PropertyListSerialization`, or from Objective-C). A conversion succeeds
/// only when it is exact, and a boolean is never taken for a number or the other way round.
@usableFromInline
enum PropertyListNumbers {
  /// Whether `value` is a boolean, native or `NSNumber`.
  @usableFromInline
  static func isBoolean(_ value: Any) -> Bool {
    if type(of: value) == Bool.self { return true }
    guard let number = value as? NSNumber, type(of: value) is NSNumber.Type else { return false }
    #if canImport(ObjectiveC)
      return CFGetTypeID(number as CFTypeRef) == CFBooleanGetTypeID()
    #else
      // swift-corelibs-foundation makes booleans instances of a private NSNumber subclass.
      return String(describing: type(of: number)).contains("Boolean")
    #endif
  }

  /// Whether `value` is a number but not a boolean.
  @usableFromInline
  static func isNonBooleanNumber(_ value: Any) -> Bool {
    guard type(of: value) != Bool.self, value is NSNumber else { return false }
    return !isBoolean(value)
  }

  /// `value` as an integer of type `T`, when it is a number that converts exactly.
  @usableFromInline
  static func integer<T: FixedWidthInteger>(from value: Any) -> T? {
    guard !isBoolean(value), let number = value as? NSNumber else { return nil }
    // Bridging an NSNumber to a Swift integer succeeds only for an exact value.
    return number as? T
  }

  /// `value` as a Double, when it is a number that converts exactly (NaN and infinities included).
  static func double(from value: Any) -> Double? {
    if let double = value as? Double, type(of: value) == Double.self { return double }
    guard !isBoolean(value), let number = value as? NSNumber else { return nil }
    let kind = String(cString: number.objCType)
    if kind == "d" || kind == "f" { return number.doubleValue }
    return number as? Double
  }

  /// A type mismatch, or an invalid value when the number is of the right kind but does not fit.
  @usableFromInline
  static func mismatch(expected: String, found value: Any) -> UserInfoDecodingError {
    if !isBoolean(value), let number = value as? NSNumber {
      return UserInfoDecodingError(
        problem: .invalidValue(expected: "a number that fits \(expected)", found: number.description))
    }
    return .typeMismatch(expected: expected, found: value)
  }

  static let posix = Locale(identifier: "en_US_POSIX")

  /// Whether `text` is a whole decimal number such as `-12.50` or `1e3`: `Decimal(string:)`
  /// alone accepts a number followed by anything (`"12abc"` reads as 12).
  static func isDecimalLiteral(_ text: String) -> Bool {
    var characters = Substring(text)
    if characters.first == "-" || characters.first == "+" { characters = characters.dropFirst() }
    let integer = characters.prefix { $0.isASCII && $0.isNumber }
    characters = characters.dropFirst(integer.count)
    var fractionDigits = 0
    if characters.first == "." {
      characters = characters.dropFirst()
      fractionDigits = characters.prefix { $0.isASCII && $0.isNumber }.count
      characters = characters.dropFirst(fractionDigits)
    }
    guard integer.count + fractionDigits > 0 else { return false }
    if characters.first == "e" || characters.first == "E" {
      characters = characters.dropFirst()
      if characters.first == "-" || characters.first == "+" { characters = characters.dropFirst() }
      let exponent = characters.prefix { $0.isASCII && $0.isNumber }
      guard !exponent.isEmpty else { return false }
      characters = characters.dropFirst(exponent.count)
    }
    return characters.isEmpty
  }
}
