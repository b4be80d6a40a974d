import Foundation

/// Exact parsing of the text a `Decimal` travels as in `userInfo`, fast for the common case.
///
/// `Decimal(string:)` divides its 128-bit mantissa digit by digit and, with the literal check
/// it needs, was a sixth of a generated round trip (perf). A literal of at most 19 digits
/// without an exponent — every amount of money — is read here with integer arithmetic and
/// Foundation's public `init(sign:exponent:significand:)`; anything else goes to Foundation. The
/// results are identical: a test compares them on random literals.
enum DecimalText {
  /// The decimal that `text` spells, when it is a whole decimal literal such as `-12.50` or
  /// `1e3`; nil for anything else (`"12abc"`, which `Decimal(string:)` alone reads as 12).
  static func decimal(_ text: String) -> Decimal? {
    if let fast = fastDecimal(text) { return fast }
    guard PropertyListNumbers.isDecimalLiteral(text) else { return nil }
    return Decimal(string: text, locale: PropertyListNumbers.posix)
  }

  /// `[-+]digits[.digits]` with at most 19 digits, without Foundation; nil otherwise.
  private static func fastDecimal(_ text: String) -> Decimal? {
    var utf8 = text.utf8[...]
    var negative = false
    if let sign = utf8.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
      negative = sign == UInt8(ascii: "-")
      utf8 = utf8.dropFirst()
    }
    var mantissa: UInt64 = 0
    var digits = 0
    var fractionDigits = 0
    var seenPoint = false
    for byte in utf8 {
      if byte == UInt8(ascii: "."), !seenPoint {
        seenPoint = true
        continue
      }
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 19 else { return nil }
      mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
      digits += 1
      if seenPoint { fractionDigits += 1 }
    }
    guard digits > 0 else { return nil }
    // Zero is never negative: older Foundations make a negative zero-length Decimal NaN.
    let sign: FloatingPointSign = negative && mantissa != 0 ? .minus : .plus
    return Decimal(sign: sign, exponent: -fractionDigits, significand: Decimal(mantissa))
  }
}
