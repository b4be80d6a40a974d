import EventSchema

/// Spells field types and default values as Swift.
enum ValueSpelling {
  /// A default value as a Swift expression of type `type`.
  static func expression(_ value: DefaultValue, of type: FieldType) -> Code {
    switch (value, type) {
    case (.none, _):
      return "nil"
    case (_, .optional(let wrapped)):
      return expression(value, of: wrapped)
    case (.string(let text), _):
      return Code(SwiftSpelling.stringLiteral(text))
    case (.bool(let flag), _):
      return flag ? "true" : "false"
    case (.integer(let digits), _):
      return Code(digits)
    case (.floatingPoint(let text), .builtin(.float)):
      return Code(String(describing: Float(text) ?? 0))
    case (.floatingPoint(let text), _):
      return Code(String(describing: Double(text) ?? 0))
    case (.decimal(let significand, let exponent), _):
      let sign = significand < 0 ? ".minus" : ".plus"
      return
        "\(TypeReference.foundation("Decimal"))(sign: \(sign), exponent: \(exponent), significand: \("\(significand.magnitude)"))"
    case (.uuid(let text), _):
      return uuidLiteral(text)
    case (.enumCase(let name), _):
      return ".\(SwiftSpelling.member(name))"
    case (.wrapped(let raw), .named(let name, .wrapper(let builtin))):
      return "\(name)(rawValue: \(expression(raw, of: .builtin(builtin))))"
    case (.array(let items), .array(let element)):
      return "[\(Code.joined(items.map { expression($0, of: element) }, separator: ", "))]"
    case (.dictionary(let entries), .dictionary(let valueType)):
      guard !entries.isEmpty else { return "[:]" }
      let pairs = entries.map {
        "\(SwiftSpelling.stringLiteral($0.key)): \(expression($0.value, of: valueType))" as Code
      }
      return "[\(Code.joined(pairs, separator: ", "))]"
    default:
      // The validator pairs values with their types; other pairs do not reach the generator.
      return "nil"
    }
  }

  /// `Foundation.UUID(uuid: (0xE6, 0x21, …))`: a UUID without an optional initializer to unwrap.
  private static func uuidLiteral(_ text: String) -> Code {
    let hex = Array(text.filter(\.isHexDigit))
    let bytes = stride(from: 0, to: hex.count, by: 2).map { "0x" + String(hex[$0..<$0 + 2]) }
    return "\(TypeReference.foundation("UUID"))(uuid: (\(bytes.joined(separator: ", "))))"
  }
}
