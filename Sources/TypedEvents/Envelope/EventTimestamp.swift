import Foundation

/// RFC 3339 timestamps that give back the exact `Date` they were made from, and that every
/// mainstream parser reads.
///
/// `ISO8601DateFormatter` keeps milliseconds, so a `Date()` written with it reads back as another
/// `Date`. This form writes the whole seconds in UTC and then the fewest fractional digits `d`
/// for which whole seconds + `0.d` is the original `Date` again: `2026-11-23T12:00:00.1234567Z`.
/// ``date(from:)`` reads it back `==` to the original.
///
/// ## How many digits
///
/// A `Date` is a Double of seconds since 2001-01-01T00:00:00Z, so its precision shrinks with its
/// distance from 2001. At least 2²³ seconds (97 days) away, before 2000-09-25T21:49:52Z or from
/// 2001-04-08T02:10:08Z on, its spacing is coarser than a nanosecond and **at most 9 digits**
/// are ever written: Java's `Instant.parse` (which takes at most 9, to the nanosecond), Python's
/// `datetime.fromisoformat` and PostgreSQL's `timestamptz` (to the microsecond) all read it. `Date()` today needs 6 or 7. Closer to 2001 a `Date`
/// can need up to 17 digits; a reader limited to 9, such as `Instant.parse`, refuses those
/// timestamps, while readers that take any number of digits round them to what they keep.
///
/// Reading is lenient: any number of digits (so logs written with longer fractions read back
/// exactly), `Z` or an offset, `T`, `t` or a space between date and time.
///
/// Exact for every `Date` within about 95 billion years of 2001 (`timeIntervalSinceReferenceDate`
/// below 3e18 in magnitude); RFC 3339 has no form for the others.
public enum EventTimestamp {
  /// Seconds from 1970-01-01 to 2001-01-01, the reference date of `Date`.
  static let referenceOffset: Int64 = 978_307_200
  /// Dates further than this from 2001 (about 95 billion years) have no timestamp: the seconds
  /// of an 11-digit year still fit in an `Int64`.
  static let limit: Double = 3e18

  /// The date of an RFC 3339 timestamp (`T` or a space between date and time; `Z` or an offset
  /// such as `+02:00`; any number of fractional digits), or nil when `text` is not one.
  public static func date(from text: String) -> Date? {
    var text = text
    return text.withUTF8 { date(utf8: $0) }
  }

  /// ``date(from:)`` of the text whose UTF-8 is `utf8`.
  static func date(utf8: UnsafeBufferPointer<UInt8>) -> Date? {
    var scanner = Scanner(utf8)
    guard
      case (let year, let month, let day, let hour, let minute, let second)? = fixedFields(&scanner)
        ?? scannedFields(&scanner)
    else { return nil }
    guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24,
      minute < 60, second < 60
    else { return nil }

    var fractionDigits = utf8[0..<0]
    if scanner.take(".") {
      fractionDigits = scanner.digits()
      guard !fractionDigits.isEmpty else { return nil }
    }
    var offset: Int64 = 0
    if !scanner.take("Z") && !scanner.take("z") {
      guard let sign: Int64 = scanner.take("+") ? 1 : (scanner.take("-") ? -1 : nil) else { return nil }
      guard let hours = scanner.number(minimumDigits: 2, maximumDigits: 2), scanner.take(":"),
        let minutes = scanner.number(minimumDigits: 2, maximumDigits: 2), hours < 24, minutes < 60
      else { return nil }
      offset = sign * (hours * 3600 + minutes * 60)
    }
    guard scanner.isAtEnd else { return nil }

    let unix = days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset
    let whole = Double(unix - referenceOffset)
    guard abs(whole) < limit else { return nil }
    guard fractionDigits.contains(where: { $0 != UInt8(ascii: "0") }) else {
      return Date(timeIntervalSinceReferenceDate: whole)
    }
    if whole == -1 {
      // -1 + 0.d is -(0.e) with e the ten's complement of d: one correctly rounded parse.
      let digits = String(decoding: fractionDigits, as: UTF8.self)
      guard let magnitude = Double("0." + tenComplement(digits)) else { return nil }
      return Date(timeIntervalSinceReferenceDate: -magnitude)
    }
    guard let fraction = Self.fraction(fractionDigits) ?? Double("0." + String(decoding: fractionDigits, as: UTF8.self))
    else { return nil }
    // Exact for a timestamp this type wrote: `whole + fraction` is the Date itself.
    return Date(timeIntervalSinceReferenceDate: whole + fraction)
  }

  /// The year, month, day, hour, minute and second of a timestamp that begins as most do,
  /// `YYYY-MM-DDTHH:MM:SS` (a four-digit year, no sign), read at their fixed places, with the
  /// scanner moved past them; nil for any other beginning, which ``scannedFields(_:)`` reads.
  /// Scanning each field took most of reading a timestamp, which an endpoint does for every
  /// event.
  private static func fixedFields(_ scanner: inout Scanner) -> (Int64, Int64, Int64, Int64, Int64, Int64)? {
    let utf8 = scanner.bytes
    guard utf8.count >= 19, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
      utf8[10] == UInt8(ascii: "T") || utf8[10] == UInt8(ascii: "t") || utf8[10] == UInt8(ascii: " "),
      utf8[13] == UInt8(ascii: ":"), utf8[16] == UInt8(ascii: ":")
    else { return nil }
    var valid = true
    func number(_ start: Int, _ count: Int) -> Int64 {
      var value: Int64 = 0
      for offset in start..<(start + count) {
        let digit = utf8[offset] &- UInt8(ascii: "0")
        valid = valid && digit < 10
        value = value &* 10 &+ Int64(digit)
      }
      return value
    }
    let fields = (number(0, 4), number(5, 2), number(8, 2), number(11, 2), number(14, 2), number(17, 2))
    // A digit right after the seconds would be a third digit of them, which the scanner refuses.
    guard valid, utf8.count == 19 || !isDigit(utf8[19]) else { return nil }
    scanner.index = 19
    return fields
  }

  /// The year, month, day, hour, minute and second that begin a timestamp, scanned: a sign and
  /// up to 11 digits for the year, `T`, `t` or a space before the time.
  private static func scannedFields(_ scanner: inout Scanner) -> (Int64, Int64, Int64, Int64, Int64, Int64)? {
    var negativeYear = false
    if scanner.take("-") {
      negativeYear = true
    } else {
      _ = scanner.take("+")
    }
    guard let year = scanner.number(minimumDigits: 4, maximumDigits: 11), scanner.take("-"),
      let month = scanner.number(minimumDigits: 2, maximumDigits: 2), scanner.take("-"),
      let day = scanner.number(minimumDigits: 2, maximumDigits: 2),
      scanner.take("T") || scanner.take("t") || scanner.take(" "),
      let hour = scanner.number(minimumDigits: 2, maximumDigits: 2), scanner.take(":"),
      let minute = scanner.number(minimumDigits: 2, maximumDigits: 2), scanner.take(":"),
      let second = scanner.number(minimumDigits: 2, maximumDigits: 2)
    else { return nil }
    return (negativeYear ? -year : year, month, day, hour, minute, second)
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

  // MARK: Digits

  /// Powers of ten that a Double holds exactly, for the fast check in `fractionNumerator(of:whole:)`
  /// and for ``fraction(_:)``.
  static let exactPowersOfTen: [Double] = (0...15).map { (0..<$0).reduce(1.0) { product, _ in product * 10 } }

  /// The digits of 1 - 0.`digits`: each digit from 9, the last non-zero one from 10.
  static func tenComplement(_ digits: String) -> String {
    var bytes = Array(digits.utf8)
    while bytes.last == UInt8(ascii: "0") { bytes.removeLast() }
    guard !bytes.isEmpty else { return "0" }
    for index in bytes.indices {
      let digit = bytes[index] - UInt8(ascii: "0")
      bytes[index] = UInt8(ascii: "0") + (index == bytes.count - 1 ? 10 - digit : 9 - digit)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  // MARK: Calendar (proleptic Gregorian, after Howard Hinnant's days_from_civil)

  static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return value % divisor < 0 ? quotient - 1 : quotient
  }

  private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = floorDivide(shiftedYear, 400)
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let shifted = days + 719_468
    let era = floorDivide(shifted, 146_097)
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400
    return (month <= 2 ? year + 1 : year, month, day)
  }

  private static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2:
      let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
      return leap ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// 0.`digits`, correctly rounded, for at most 15 digits: the digits as a whole number and
  /// 10^count are both exact Doubles, and one division rounds once, as parsing does. Nil for
  /// more digits, which `Double("0." + digits)` parses instead.
  private static func fraction(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
    guard digits.count < exactPowersOfTen.count else { return nil }
    var whole: Int64 = 0
    for digit in digits { whole = whole * 10 + Int64(digit - UInt8(ascii: "0")) }
    return Double(whole) / exactPowersOfTen[digits.count]
  }

  /// Reads a timestamp's bytes from the front.
  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
      self.bytes = bytes
    }

    var isAtEnd: Bool { index == bytes.count }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
      guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
      index += 1
      return true
    }

    mutating func digits() -> Slice<UnsafeBufferPointer<UInt8>> {
      let start = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      return bytes[start..<index]
    }

    mutating func number(minimumDigits: Int, maximumDigits: Int) -> Int64? {
      // One loop that reads and adds up the digits: a slice of them and a `reduce` over it took
      // most of reading a timestamp, which an endpoint does for every event it is sent. The sum
      // may wrap past 18 digits; it is not used then.
      let start = index
      var value: Int64 = 0
      while index < bytes.count {
        let digit = bytes[index] &- UInt8(ascii: "0")
        guard digit < 10 else { break }
        value = value &* 10 &+ Int64(digit)
        index += 1
      }
      guard (minimumDigits...maximumDigits).contains(index - start) else {
        index = start
        return nil
      }
      return value
    }
  }
}
