import Foundation

/// A value that has a property-list form: what it becomes inside a `userInfo` dictionary.
///
/// The property-list form is a `String`, a number, a `Bool`, a `Date`, `Data`, an array or a
/// `[String: Any]` of those, so that `PropertyListSerialization` accepts it and an Objective-C
/// observer can read it. Types you list under `external:` in a schema conform to this.
public protocol PropertyListConvertible: Sendable {
  /// The value's property-list form.
  var propertyListValue: Any { get }
  /// Reads the value back from its property-list form, throwing rather than trapping.
  init(propertyListValue: Any) throws(UserInfoDecodingError)
  /// Whether every value of the type is its own property-list form (strings, numbers, booleans,
  /// dates, data, and arrays and dictionaries of them), so that an array or a dictionary of it
  /// travels as it is instead of element by element. The runtime's concern: keep the default.
  static var _isOwnPropertyListForm: Bool { get }
}

extension PropertyListConvertible {
  @inlinable
  public static var _isOwnPropertyListForm: Bool { false }
}

/// The types whose values are their own property-list form.
@usableFromInline
protocol OwnPropertyListForm: PropertyListConvertible {}

extension OwnPropertyListForm {
  @inlinable
  public static var _isOwnPropertyListForm: Bool { true }
}

extension String: OwnPropertyListForm {}
extension Bool: OwnPropertyListForm {}
extension Int: OwnPropertyListForm {}
extension Int8: OwnPropertyListForm {}
extension Int16: OwnPropertyListForm {}
extension Int32: OwnPropertyListForm {}
extension Int64: OwnPropertyListForm {}
extension UInt: OwnPropertyListForm {}
extension UInt8: OwnPropertyListForm {}
extension UInt16: OwnPropertyListForm {}
extension UInt32: OwnPropertyListForm {}
extension UInt64: OwnPropertyListForm {}
extension Double: OwnPropertyListForm {}
extension Float: OwnPropertyListForm {}
extension Date: OwnPropertyListForm {}
extension Data: OwnPropertyListForm {}

extension String: PropertyListConvertible {
  @inlinable
  public var propertyListValue: Any { self }
  @inlinable
  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    guard let string = value as? String else { throw .typeMismatch(expected: "String", found: value) }
    self = string
  }
}

extension Bool: PropertyListConvertible {
  @inlinable
  public var propertyListValue: Any { self }
  @inlinable
  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    if let bool = value as? Bool, !PropertyListNumbers.isNonBooleanNumber(value) {
      self = bool
      return
    }
    throw .typeMismatch(expected: "Bool", found: value)
  }
}

extension Int: PropertyListConvertible {}
extension Int8: PropertyListConvertible {}
extension Int16: PropertyListConvertible {}
extension Int32: PropertyListConvertible {}
extension Int64: PropertyListConvertible {}
extension UInt: PropertyListConvertible {}
extension UInt8: PropertyListConvertible {}
extension UInt16: PropertyListConvertible {}
extension UInt32: PropertyListConvertible {}
extension UInt64: PropertyListConvertible {}

extension FixedWidthInteger where Self: PropertyListConvertible {
  /// The integer itself: `NSNumber` in a property list.
  @inlinable
  public var propertyListValue: Any { self }
  /// Accepts any integer type, `NSNumber` or a floating-point number, as long as the value
  /// converts exactly; a fraction or an out-of-range value is an error, never a silent change.
  @inlinable
  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    // The common case first: the very type, as generated code writes it. Asking whether it
    // is a boolean would bridge it to an NSNumber, an allocation.
    if type(of: value) == Self.self, let same = value as? Self {
      self = same
      return
    }
    guard let converted: Self = PropertyListNumbers.integer(from: value) else {
      throw PropertyListNumbers.mismatch(expected: "\(Self.self)", found: value)
    }
    self = converted
  }
}

extension Double: PropertyListConvertible {
  @inlinable
  public var propertyListValue: Any { self }
  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    guard let double = PropertyListNumbers.double(from: value) else {
      throw PropertyListNumbers.mismatch(expected: "Double", found: value)
    }
    self = double
  }
}

extension Float: PropertyListConvertible {
  public var propertyListValue: Any { self }
  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    if let float = value as? Float, !PropertyListNumbers.isBoolean(value) {
      self = float
      return
    }
    guard let double = PropertyListNumbers.double(from: value) else {
      throw PropertyListNumbers.mismatch(expected: "Float", found: value)
    }
    // A Float widened to Double converts back exactly; NaN stays NaN.
    guard let float = double.isNaN ? Float.nan : Float(exactly: double) else {
      throw .init(problem: .invalidValue(expected: "a Float", found: "\(double)"))
    }
    self = float
  }
}

/// Decimals travel as their exact string (`"12.50"` stays `12.5`, never a rounded Double).
extension Decimal: PropertyListConvertible {
  public var propertyListValue: Any { description }
  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    if let string = value as? String {
      guard let decimal = DecimalText.decimal(string) else {
        throw .init(problem: .invalidValue(expected: "a decimal number", found: "\"\(string)\""))
      }
      self = decimal
    } else if let decimal = value as? Decimal {
      self = decimal
    } else if let integer: Int64 = PropertyListNumbers.integer(from: value) {
      self = Decimal(integer)
    } else {
      throw PropertyListNumbers.mismatch(expected: "Decimal (a string)", found: value)
    }
  }
}

extension Date: PropertyListConvertible {
  @inlinable
  public var propertyListValue: Any { self }
  @inlinable
  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    guard let date = value as? Date else { throw .typeMismatch(expected: "Date", found: value) }
    self = date
  }
}

extension Data: PropertyListConvertible {
  @inlinable
  public var propertyListValue: Any { self }
  @inlinable
  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    guard let data = value as? Data else { throw .typeMismatch(expected: "Data", found: value) }
    self = data
  }
}

/// UUIDs travel as their string.
extension UUID: PropertyListConvertible {
  public var propertyListValue: Any { uuidString }
  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    if let uuid = value as? UUID {
      self = uuid
      return
    }
    guard let string = value as? String else { throw .typeMismatch(expected: "UUID (a string)", found: value) }
    guard let uuid = UUID(uuidString: string) else {
      throw .init(problem: .invalidValue(expected: "a UUID", found: "\"\(string)\""))
    }
    self = uuid
  }
}

/// URLs travel as their absolute string.
extension URL: PropertyListConvertible {
  public var propertyListValue: Any { absoluteString }
  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    if let url = value as? URL {
      self = url
      return
    }
    guard let string = value as? String else { throw .typeMismatch(expected: "URL (a string)", found: value) }
    guard let url = URL(string: string) else {
      throw .init(problem: .invalidValue(expected: "a URL", found: "\"\(string)\""))
    }
    self = url
  }
}

extension Array: PropertyListConvertible where Element: PropertyListConvertible {
  @inlinable
  public var propertyListValue: Any {
    // Elements that are their own property-list form travel as the array itself: no copy, as
    // hand-written code would write it.
    if Element._isOwnPropertyListForm { return self }
    return map(\.propertyListValue)
  }

  @inlinable
  public static var _isOwnPropertyListForm: Bool { Element._isOwnPropertyListForm }

  @inlinable
  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    // The array as written above: exactly `[Element]` of a type that is its own form, so every
    // element is valid as it is (an `NSNumber` that is a boolean never gets here as an `Int`).
    if Element._isOwnPropertyListForm, type(of: value) == [Element].self, let same = value as? [Element] {
      self = same
      return
    }
    guard let items = value as? [Any] else { throw .typeMismatch(expected: "Array", found: value) }
    var result: [Element] = []
    result.reserveCapacity(items.count)
    for (index, item) in items.enumerated() {
      do {
        result.append(try Element(propertyListValue: item))
      } catch {
        throw error.prefixed(by: .index(index))
      }
    }
    self = result
  }
}

/// An optional inside an array or a dictionary (`[Int?]`, `[String: Money?]`). A property list
/// has no null, so `nil` travels as an empty array and a value `x` as the one-element array
/// `[x]`: unambiguous at any depth, and `[nil, 3]` keeps its positions. (An optional field is
/// not written this way: its key is left out.)
extension Optional: PropertyListConvertible where Wrapped: PropertyListConvertible {
  @inlinable
  public var propertyListValue: Any {
    switch self {
    case .some(let wrapped): [wrapped.propertyListValue]
    case .none: [Any]()
    }
  }

  @inlinable
  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    guard let items = value as? [Any], items.count <= 1 else {
      throw .typeMismatch(expected: "\(Wrapped.self)? (an empty or one-element array)", found: value)
    }
    if let first = items.first {
      self = .some(try Wrapped(propertyListValue: first))
    } else {
      self = .none
    }
  }
}

extension Dictionary: PropertyListConvertible where Key == String, Value: PropertyListConvertible {
  @inlinable
  public var propertyListValue: Any {
    // As for arrays: values that are their own property-list form keep the dictionary as it is.
    if Value._isOwnPropertyListForm { return self }
    return mapValues(\.propertyListValue) as [String: Any]
  }

  @inlinable
  public static var _isOwnPropertyListForm: Bool { Value._isOwnPropertyListForm }

  @inlinable
  public init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    if Value._isOwnPropertyListForm, type(of: value) == [String: Value].self, let same = value as? [String: Value] {
      self = same
      return
    }
    guard let entries = UserInfoReader.dictionary(value) else {
      throw .typeMismatch(expected: "Dictionary", found: value)
    }
    var result: [String: Value] = [:]
    result.reserveCapacity(entries.count)
    for (key, item) in entries {
      do {
        result[key] = try Value(propertyListValue: item)
      } catch {
        throw error.prefixed(by: .key(key))
      }
    }
    self = result
  }
}
