import Foundation
import TestSupport
import Testing

@testable import TypedEvents

@Suite("Decimal text")
struct DecimalTextTests {
  /// What Foundation alone makes of `text`, with the literal check the runtime always applied.
  func reference(_ text: String) -> Decimal? {
    guard PropertyListNumbers.isDecimalLiteral(text) else { return nil }
    return Decimal(string: text, locale: PropertyListNumbers.posix)
  }

  func expectSameAsFoundation(_ text: String) {
    let fast = DecimalText.decimal(text)
    let slow = reference(text)
    #expect(fast == slow, "\(text)")
    #expect(fast?.description == slow?.description, "\(text)")
    #expect(fast?.hashValue == slow?.hashValue, "\(text)")
  }

  @Test(arguments: [
    "0", "-0", "+0", "0.00", "-0.00", "12.50", "-12.50", ".5", "5.", "+1", "007", "0.001",
    "9999999999999999999", "99999999999999999999", "18446744073709551615", "1.8446744073709551615",
    "1e3", "-2.5E-3", "12abc", "", ".", "-", "1..2", "1.2.3", " 1", "1 ", "١٢", "NaN",
  ])
  func edgeCasesReadAsFoundationReadsThem(text: String) {
    expectSameAsFoundation(text)
  }

  @Test func negativeZeroIsZeroNotNaN() {
    // Older Foundations (macOS 12-14) make a negative Decimal of zero length NaN.
    for text in ["-0", "-0.00", "-.0"] {
      #expect(DecimalText.decimal(text) == Decimal.zero, "\(text)")
      #expect(DecimalText.decimal(text)?.isNaN == false, "\(text)")
    }
  }

  @Test func randomLiteralsReadAsFoundationReadsThem() {
    var random = SplitMix64(state: 0x5EED)
    let digits = Array("0123456789")
    for _ in 0..<10_000 {
      var text = ["", "-", "+"][Int.random(in: 0..<3, using: &random)]
      text += String(
        (0..<Int.random(in: 0...12, using: &random)).map { _ in digits[Int.random(in: 0..<10, using: &random)] })
      if Bool.random(using: &random) {
        text +=
          "."
          + String(
            (0..<Int.random(in: 0...10, using: &random)).map { _ in digits[Int.random(in: 0..<10, using: &random)] })
      }
      expectSameAsFoundation(text)
    }
  }
}
