/// A field's `default:`, checked against the field's type.
public indirect enum DefaultValue: Hashable, Sendable {
  /// Absent: only for optional fields.
  case none
  /// A string.
  case string(String)
  /// `true` or `false`.
  case bool(Bool)
  /// An integer, as decimal digits with an optional leading `-`, within the field type's range.
  case integer(String)
  /// A finite floating-point number, as written in the schema.
  case floatingPoint(String)
  /// An exact decimal number: `significand × 10^exponent`, the significand fitting in 64 bits.
  case decimal(significand: Int64, exponent: Int)
  /// A UUID, in its canonical upper-case form.
  case uuid(String)
  /// A case of an enum type, by its Swift case name.
  case enumCase(String)
  /// A strong identifier around a raw value.
  case wrapped(DefaultValue)
  /// An array literal.
  case array([DefaultValue])
  /// A dictionary literal, keys in the order written.
  case dictionary([DictionaryEntry])

  /// One entry of a dictionary default.
  public struct DictionaryEntry: Hashable, Sendable {
    /// The key.
    public var key: String
    /// The value.
    public var value: DefaultValue

    /// Creates an entry.
    public init(key: String, value: DefaultValue) {
      self.key = key
      self.value = value
    }
  }
}
