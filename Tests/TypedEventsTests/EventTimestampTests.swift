import Foundation
import TestSupport
import Testing
import TypedEvents

@Suite("Exact RFC 3339 timestamps")
struct EventTimestampTests {
  func roundTrip(_ interval: Double) -> Date? {
    EventTimestamp.string(from: Date(timeIntervalSinceReferenceDate: interval)).flatMap(EventTimestamp.date(from:))
  }

  @Test func theDateOfTheIssueComesBackExactly() throws {
    let date = Date(timeIntervalSinceReferenceDate: 785_000_000.1234567)
    let text = try #require(EventTimestamp.string(from: date))
    #expect(text == "2025-11-16T15:33:20.1234567Z")
    #expect(EventTimestamp.date(from: text) == date)
    // What ISO8601DateFormatter keeps: milliseconds, another Date.
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    #expect(formatter.date(from: formatter.string(from: date)) != date)
  }

  /// The text of each form the writer has: padded fields, a fraction with leading zeros and no
  /// trailing ones, years before 1 and after 9999, and the second before 2001 (written as a
  /// complement).
  @Test(
    arguments: [
      (0.0, "2001-01-01T00:00:00Z"),
      (0.5, "2001-01-01T00:00:00.5Z"),
      (3_600 * 24 * 31 + 3_723.000_25, "2001-02-01T01:02:03.00025Z"),
      (-978_307_200 + 0.001, "1970-01-01T00:00:00.001Z"),
      (-63_145_526_400, "0000-01-01T00:00:00Z"),
      (-63_145_526_400 - 86_400 * 365, "-0001-01-01T00:00:00Z"),  // year 0 is a leap year, -1 is not
      (252_423_993_600, "+10000-01-01T00:00:00Z"),
      (-0.25, "2000-12-31T23:59:59.75Z"),
    ] as [(Double, String)])
  func eachFormIsWrittenAsRFC3339Writes(_ interval: Double, _ text: String) {
    let date = Date(timeIntervalSinceReferenceDate: interval)
    #expect(EventTimestamp.string(from: date) == text)
    #expect(EventTimestamp.date(from: text) == date)
  }

  @Test func theIssuesDateHasTheDigitsAJVMReads() throws {
    let date = Date(timeIntervalSinceReferenceDate: 785_000_000.123456)
    #expect(EventTimestamp.string(from: date) == "2025-11-16T15:33:20.123456Z")
    #expect(EventTimestamp.date(from: "2025-11-16T15:33:20.12345600128173828Z") == date)  // old logs
  }

  /// The digits after the point, or "" for whole seconds.
  func fraction(of text: String) -> Substring {
    guard let dot = text.firstIndex(of: ".") else { return "" }
    return text[text.index(after: dot)..<text.index(before: text.endIndex)]
  }

  @Test func datesFrom1970To2100NeedAtMostNineDigitsAndComeBackExactly() {
    var random = SplitMix64(state: 0x1970_2100)
    // -978,307,200 s is 1970-01-01; 3,155,760,000 s after 2001 is 2101-01-01.
    let span = 978_307_200.0 + 3_155_760_000.0
    var longestFarFrom2001 = 0
    var beyondNine = 0
    for _ in 0..<100_000 {
      let interval = Double(random.next() >> 11) / Double(1 << 53) * span - 978_307_200
      guard let text = EventTimestamp.string(from: Date(timeIntervalSinceReferenceDate: interval)) else {
        Issue.record("no timestamp for \(interval)")
        continue
      }
      #expect(EventTimestamp.date(from: text)?.timeIntervalSinceReferenceDate == interval, "\(interval): \(text)")
      let digits = fraction(of: text).count
      if abs(interval) >= 8_388_608 { longestFarFrom2001 = max(longestFarFrom2001, digits) }
      if digits > 9 {
        beyondNine += 1
        #expect(abs(interval) < 8_388_608, "\(interval) needs \(digits) digits: \(text)")
      }
      // Fewest: one digit less gives another Date.
      if digits > 0 {
        let shorter = text.dropLast(2) + "Z"
        #expect(EventTimestamp.date(from: String(shorter))?.timeIntervalSinceReferenceDate != interval, "\(text)")
      }
    }
    #expect(longestFarFrom2001 == 9)
    // Only dates within 97 days of 2001, about 0.4 % of the span, may need more.
    #expect(beyondNine < 400)
  }

  @Test(arguments: [
    0.0, 1.0, -1.0, 86_400.0, -978_307_200.0, 3_155_760_000.0, -0.5, 0.5, 1e-9, -1e-9, 8_388_608.25,
    -8_388_608.000000001, 8_388_607.123456789, 4e9 + 0.1, -4e9 - 0.1, 1e12 + 0.5, -6e10, 1.7e11 + 0.001,
  ])
  func edgeCasesComeBackExactly(_ interval: Double) throws {
    let text = try #require(EventTimestamp.string(from: Date(timeIntervalSinceReferenceDate: interval)))
    #expect(EventTimestamp.date(from: text)?.timeIntervalSinceReferenceDate == interval, "\(text)")
    if abs(interval) >= 8_388_608 { #expect(fraction(of: text).count <= 9, "\(text)") }
    if interval == interval.rounded(.down) { #expect(!text.contains("."), "\(text)") }
  }

  @Test func nowComesBackExactly() {
    for _ in 0..<1_000 {
      let now = Date()
      #expect(roundTrip(now.timeIntervalSinceReferenceDate) == now)
    }
  }

  @Test func wholeSecondsAgreeWithFoundationsFormatter() throws {
    var random = SplitMix64(state: 0x7135)
    let formatter = ISO8601DateFormatter()
    for _ in 0..<10_000 {
      // Years 1583 to 9999: Foundation's formatter writes four digits there, and uses the Julian
      // calendar before the Gregorian reform, where RFC 3339 extends the Gregorian backwards.
      let seconds = Double(Int64(random.next() % 265_600_000_000)) - 13_190_860_800
      let date = Date(timeIntervalSinceReferenceDate: seconds)
      #expect(EventTimestamp.string(from: date) == formatter.string(from: date))
      #expect(EventTimestamp.date(from: formatter.string(from: date)) == date)
    }
  }

  @Test func everyRepresentableDoubleComesBackExactly() {
    var random = SplitMix64(state: 0xDA7E)
    var checked = 0
    for index in 0..<200_000 {
      let interval: Double
      switch index % 3 {
      case 0: interval = Double(bitPattern: random.next())  // every exponent, both signs
      case 1: interval = (Double(random.next() % 2_000_000_000_000) - 1e12) / 1_000  // ±30 years, ms
      default: interval = Double(random.next() >> 11) / Double(1 << 53) * (random.next() % 2 == 0 ? 1 : -1)  // (-1, 1)
      }
      guard interval.isFinite, abs(interval) < 3e18 else {
        #expect(EventTimestamp.string(from: Date(timeIntervalSinceReferenceDate: interval)) == nil)
        continue
      }
      checked += 1
      let back = roundTrip(interval)
      #expect(
        back?.timeIntervalSinceReferenceDate.bitPattern == interval.bitPattern
          || (interval == 0 && back?.timeIntervalSinceReferenceDate == 0), "\(interval)")
    }
    #expect(checked > 150_000)
  }

  /// Up to 15 digits, a fraction is one division of two exact Doubles; it must round as the
  /// parse of `0.digits` does.
  @Test func aFractionOfUpTo15DigitsIsWhatParsingItGives() throws {
    var random = SplitMix64(state: 0xF4AC_7105)
    for _ in 0..<20_000 {
      let count = Int.random(in: 1...15, using: &random)
      let digits = String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
      // 2001 itself for half of them: there the sum is the fraction, every bit of it.
      let whole =
        Bool.random(using: &random) ? 0 : Double(Int.random(in: -3_000_000_000...3_000_000_000, using: &random))
      guard whole != -1 else { continue }  // written as a complement: theLastSecondBefore2001IsExactToo
      let text = try #require(EventTimestamp.string(from: Date(timeIntervalSinceReferenceDate: whole)))
      let date = try #require(EventTimestamp.date(from: text.dropLast() + "." + digits + "Z"))
      let parsed = try #require(Double("0." + digits))
      #expect(date.timeIntervalSinceReferenceDate == whole + parsed, "\(text) \(digits)")
    }
  }

  @Test func theLastSecondBefore2001IsExactToo() throws {
    for interval in [-0.25, -1e-300, -0.1, -Double.ulpOfOne, -(1 - Double.ulpOfOne / 2), -Double.leastNonzeroMagnitude]
    {
      let text = try #require(EventTimestamp.string(from: Date(timeIntervalSinceReferenceDate: interval)))
      #expect(text.hasPrefix("2000-12-31T23:59:59."))
      #expect(EventTimestamp.date(from: text)?.timeIntervalSinceReferenceDate == interval, "\(interval): \(text)")
    }
  }

  @Test func offsetsSpacesAndLowercaseRead() {
    let utc = EventTimestamp.date(from: "2026-11-23T12:00:00Z")
    #expect(utc != nil)
    #expect(EventTimestamp.date(from: "2026-11-23T13:30:00+01:30") == utc)
    #expect(EventTimestamp.date(from: "2026-11-23T07:00:00-05:00") == utc)
    #expect(EventTimestamp.date(from: "2026-11-23 12:00:00z") == utc)
    #expect(EventTimestamp.date(from: "2026-11-23t12:00:00Z") == utc)
    #expect(EventTimestamp.date(from: "+2026-11-23T12:00:00Z") == utc)
    #expect(EventTimestamp.date(from: "2026-11-23T12:00:00.000Z") == utc)
    #expect(EventTimestamp.date(from: "2026-11-23T12:00:00.5Z") == utc?.addingTimeInterval(0.5))
    let far = EventTimestamp.string(from: Date(timeIntervalSinceReferenceDate: 1e15))
    #expect(far?.hasPrefix("+3169") == true)  // about 31.7 million years after 2001
    #expect(far.flatMap(EventTimestamp.date(from:)) == Date(timeIntervalSinceReferenceDate: 1e15))
    #expect(EventTimestamp.date(from: "-0001-01-01T00:00:00Z") != nil)
  }

  @Test(arguments: [
    "", "2026-11-23", "2026-11-23T12:00Z", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-11-31T00:00:00Z",
    "2026-11-23T24:00:00Z", "2026-11-23T12:60:00Z", "2026-11-23T12:00:60Z", "2026-11-23T12:00:00",
    "2026-11-23T12:00:00.Z",
    "2026-11-23T12:00:00+0100", "2026-11-23T12:00:00Zjunk", "26-11-23T12:00:00Z", "9999999999999-01-01T00:00:00Z",
    // Where a field has a digit too many or too few, or another character, at the places the
    // common layout puts them.
    "2026-11-23T12:00:001Z", "2026-11-2xT12:00:00Z", "2026-011-23T12:00:00Z", "2026-11-23T1:00:000Z",
    "2026-11-23X12:00:00Z", "2026+11-23T12:00:00Z",
  ])
  func malformedTimestampsAreRefused(_ text: String) {
    #expect(EventTimestamp.date(from: text) == nil)
  }

  @Test func leapDaysFollowTheGregorianRules() {
    #expect(EventTimestamp.date(from: "2024-02-29T00:00:00Z") != nil)
    #expect(EventTimestamp.date(from: "2000-02-29T00:00:00Z") != nil)
    #expect(EventTimestamp.date(from: "1900-02-29T00:00:00Z") == nil)
  }

  @Test func notFiniteDatesHaveNoTimestamp() {
    #expect(EventTimestamp.string(from: Date(timeIntervalSinceReferenceDate: .infinity)) == nil)
    #expect(EventTimestamp.string(from: Date(timeIntervalSinceReferenceDate: .nan)) == nil)
  }
}
