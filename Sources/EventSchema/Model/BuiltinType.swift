/// The types every schema can use without declaring them.
public enum BuiltinType: String, CaseIterable, Hashable, Sendable {
  case string = "String"
  case bool = "Bool"
  case int = "Int"
  case int8 = "Int8"
  case int16 = "Int16"
  case int32 = "Int32"
  case int64 = "Int64"
  case uint = "UInt"
  case uint8 = "UInt8"
  case uint16 = "UInt16"
  case uint32 = "UInt32"
  case uint64 = "UInt64"
  case double = "Double"
  case float = "Float"
  case decimal = "Decimal"
  case date = "Date"
  case uuid = "UUID"
  case url = "URL"
  case data = "Data"
  /// Any JSON value (the runtime's `JSONValue`): what a free-form schema becomes.
  case json = "JSONValue"

  /// The Swift name of the type.
  public var swiftName: String { rawValue }

  /// Whether this is one of the fixed-width or platform integers.
  public var isInteger: Bool { integerBounds != nil }

  /// The exact bounds of an integer type, or nil for other types. `Int` and `UInt` are 64 bits
  /// wide on every platform the generated code targets.
  public var integerBounds: (min: Int64, max: UInt64)? {
    switch self {
    case .int, .int64: return (Int64.min, UInt64(Int64.max))
    case .int8: return (Int64(Int8.min), UInt64(Int8.max))
    case .int16: return (Int64(Int16.min), UInt64(Int16.max))
    case .int32: return (Int64(Int32.min), UInt64(Int32.max))
    case .uint, .uint64: return (0, UInt64.max)
    case .uint8: return (0, UInt64(UInt8.max))
    case .uint16: return (0, UInt64(UInt16.max))
    case .uint32: return (0, UInt64(UInt32.max))
    default: return nil
    }
  }

  /// The types a `wraps:` declaration may wrap: those with a plain property-list form.
  public var isWrappable: Bool {
    switch self {
    case .string, .uuid, .double, .float: return true
    default: return isInteger
    }
  }
}
