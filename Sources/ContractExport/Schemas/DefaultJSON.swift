import EventSchema

/// A field's `default:` as the JSON value that the generated decoder would read into the same
/// Swift value: the raw value of an enum case, the bare raw value of a strong identifier, a
/// decimal with the digits written in the schema, `null` for `default: null`.
struct DefaultJSON {
  /// The cases of each enum type of the run, by type name.
  let enumCases: [String: [EnumCase]]

  func value(_ value: DefaultValue, of type: FieldType) -> JSONValue {
    switch (value, type) {
    case (.none, _):
      return .null
    case (_, .optional(let wrapped)):
      return self.value(value, of: wrapped)
    case (.string(let text), _), (.uuid(let text), _):
      return .string(text)
    case (.bool(let flag), _):
      return .bool(flag)
    case (.integer(let digits), _):
      return .number(Self.integer(digits))
    case (.floatingPoint(let text), _):
      return .number(Self.floatingPoint(text, isFloat: type == .builtin(.float)))
    case (.decimal(let significand, let exponent), _):
      return .number(Self.decimal(significand: significand, exponent: exponent))
    case (.enumCase(let name), .named(let typeName, .enumeration)):
      let raw = enumCases[typeName]?.first { $0.name == name }?.rawValue
      return raw.map(JSONValue.string) ?? .null
    case (.wrapped(let raw), .named(_, .wrapper(let builtin))):
      return self.value(raw, of: .builtin(builtin))
    case (.array(let items), .array(let element)):
      return .array(items.map { self.value($0, of: element) })
    case (.dictionary(let entries), .dictionary(let valueType)):
      var object = JSONObject()
      for entry in entries { object[entry.key] = self.value(entry.value, of: valueType) }
      return .object(object)
    default:
      // The validator pairs defaults with their types; other pairs never reach the exporter.
      return .null
    }
  }

  /// Digits as the integer they mean: `007` is `7`, `-0` is `0`.
  static func integer(_ digits: String) -> JSONNumber {
    if let value = Int64(digits) { return JSONNumber(value) }
    if let value = UInt64(digits) { return JSONNumber(value) }
    return JSONNumber(text: digits) ?? JSONNumber(0)
  }

  /// The text as written when it is a JSON number (`120.5`, `1e-3`); otherwise (YAML also takes
  /// `.5`, `+1` or `5.`) the shortest text of the value the generated code uses.
  static func floatingPoint(_ text: String, isFloat: Bool) -> JSONNumber {
    if let number = JSONNumber(text: text) { return number }
    let shortest = isFloat ? Float(text).map { "\($0)" } : Double(text).map { "\($0)" }
    return shortest.flatMap { JSONNumber(text: $0) } ?? JSONNumber(0)
  }

  /// `significand × 10^exponent` with every digit: `(-12345678, -4)` is `-1234.5678`, and
  /// `(1250, -2)` keeps its trailing zero as `12.50`.
  static func decimal(significand: Int64, exponent: Int) -> JSONNumber {
    let digits = String(significand.magnitude)
    let sign = significand < 0 ? "-" : ""
    let text: String
    if significand == 0 && exponent >= 0 {
      text = "0"
    } else if exponent >= 0 {
      text = exponent == 0 ? sign + digits : "\(sign)\(digits)e\(exponent)"
    } else if digits.count > -exponent {
      let point = digits.index(digits.endIndex, offsetBy: exponent)
      text = sign + digits[..<point] + "." + digits[point...]
    } else {
      text = sign + "0." + String(repeating: "0", count: -exponent - digits.count) + digits
    }
    return JSONNumber(text: text) ?? JSONNumber(0)
  }
}
