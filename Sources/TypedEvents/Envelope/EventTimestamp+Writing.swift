import Foundation

// Writing a timestamp: ``EventTimestamp/string(from:)`` and the bytes a log line holds.
extension EventTimestamp {
  /// The timestamp of `date`, or nil when the date is not finite or beyond year ±95,000,000,000.
  public static func string(from date: Date) -> String? {
    var text: [UInt8] = []
    text.reserveCapacity(32)
    guard append(date, to: &text) else { return nil }
    return String(decoding: text, as: UTF8.self)
  }

  /// Appends the UTF-8 of ``string(from:)`` to `text`; false, with nothing appended, when it is
  /// nil. The digits are written as bytes: the `String`s a timestamp was built of before (a
  /// padded one for each field, an array of candidates for each fractional digit) cost about
  /// 10,000 instructions a timestamp, on every append and every event a page or a stream sends.
  static func append(_ date: Date, to text: inout [UInt8]) -> Bool {
    let interval = date.timeIntervalSinceReferenceDate
    guard interval.isFinite, abs(interval) < limit else { return false }
    let whole = interval.rounded(.down)
    // Exact when |interval| >= 1 or interval >= 0: the difference is representable.
    let fraction = interval - whole
    let unix = Int64(whole) + referenceOffset
    let days = floorDivide(unix, 86_400)
    let secondOfDay = unix - days * 86_400
    let (year, month, day) = civil(fromDays: days)

    // Written into 64 bytes on the stack and appended once: a sign, a year of at most 11
    // digits, 15 more digits and signs, and at most 15 fractional digits. The rare fractions of
    // 16 or 17 digits are appended apart.
    var stack: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    var longFraction: String?
    withUnsafeMutableBytes(of: &stack) { buffer in
      var writer = DigitWriter(buffer: buffer)
      if year < 0 {
        writer.append(UInt8(ascii: "-"))
        writer.append(UInt64(-year), width: 4)
      } else if year > 9999 {
        writer.append(UInt8(ascii: "+"))
        writer.append(UInt64(year), width: 1)
      } else {
        writer.append(UInt64(year), width: 4)
      }
      writer.append(UInt8(ascii: "-"))
      writer.append(UInt64(month), width: 2)
      writer.append(UInt8(ascii: "-"))
      writer.append(UInt64(day), width: 2)
      writer.append(UInt8(ascii: "T"))
      writer.append(UInt64(secondOfDay / 3600), width: 2)
      writer.append(UInt8(ascii: ":"))
      writer.append(UInt64(secondOfDay / 60 % 60), width: 2)
      writer.append(UInt8(ascii: ":"))
      writer.append(UInt64(secondOfDay % 60), width: 2)
      if fraction > 0 {
        writer.append(UInt8(ascii: "."))
        if whole == -1 {
          // In (-1, 0), `-1 + fraction` would round: write 1 - |interval| digit by digit
          // instead, and ``date(from:)`` takes the complement back.
          longFraction = tenComplement(fractionDigits(-interval))
        } else if let (numerator, count) = fractionNumerator(of: interval, whole: whole) {
          // `count` digits, leading zeros kept, trailing ones left out.
          var numerator = numerator
          var width = count
          while numerator % 10 == 0 {
            numerator /= 10
            width -= 1
          }
          writer.append(numerator, width: width)
        } else {
          // 16 or 17 digits, within days of 2001: the shortest form of the fraction is exact.
          longFraction = fractionDigits(fraction)
        }
      }
      if longFraction == nil { writer.append(UInt8(ascii: "Z")) }
      text.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<writer.count]))
    }
    if let longFraction {
      text += longFraction.utf8
      text.append(UInt8(ascii: "Z"))
    }
    return true
  }

  /// Writes a timestamp's bytes into a buffer large enough for them.
  private struct DigitWriter {
    let buffer: UnsafeMutableRawBufferPointer
    var count = 0

    mutating func append(_ byte: UInt8) {
      buffer[count] = byte
      count += 1
    }

    /// The decimal digits of `value`, with leading zeros to `width` digits.
    mutating func append(_ value: UInt64, width: Int) {
      var digits = 1
      var bound: UInt64 = 10
      while digits < 20 && value >= bound {
        digits += 1
        bound = bound &* 10
      }
      let end = count + max(digits, width)
      var index = end
      var rest = value
      while index > count {
        index -= 1
        buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
      }
      count = end
    }
  }

  /// The fewest digits `d` after the point for which `whole + Double("0.d")`, what ``date(from:)``
  /// computes, is `interval` itself: at most 9 for a date more than about 116 days from 2001.
  /// Given as `d` read as a whole number and how many digits it has, leading zeros counted; nil
  /// when 15 are not enough.
  ///
  /// The shortest digits of the fraction taken alone are often longer, as the fraction, a Double
  /// of its own, carries 17 significant digits the sum rounds away (issue: a JVM reads at most 9).
  private static func fractionNumerator(of interval: Double, whole: Double) -> (UInt64, Int)? {
    let fraction = interval - whole
    for count in 1...15 {
      let scale = exactPowersOfTen[count]
      let nearest = (fraction * scale).rounded(.toNearestOrEven)
      // The product rounds, so the right numerator may be a neighbour of the nearest one: the
      // nearest, the one below, the one above (no array of the three, one an iteration).
      for step in 0..<3 {
        let numerator = nearest + (step == 0 ? 0 : step == 1 ? -1 : 1)
        // Both operands are exact (numerator < 10^15 < 2^53), so the quotient is the correctly
        // rounded value of 0.d: the Double that `Double("0." + digits)` parses.
        if numerator > 0 && numerator < scale && whole + numerator / scale == interval {
          return (UInt64(numerator), count)
        }
      }
    }
    return nil
  }

  /// The digits after "0." of `fraction` in (0, 1), shortest that read back as the same Double.
  private static func fractionDigits(_ fraction: Double) -> String {
    let shortest = "\(fraction)"  // Swift prints the shortest form that round-trips.
    if shortest.hasPrefix("0.") { return String(shortest.dropFirst(2)) }
    // Scientific form, such as 1.25e-05: the mantissa's digits after exponent - 1 zeros.
    let parts = shortest.split(separator: "e")
    guard parts.count == 2, let exponent = Int(parts[1]), exponent < 0 else { return "0" }
    let mantissa = parts[0].replacingOccurrences(of: ".", with: "")
    return String(repeating: "0", count: -exponent - 1) + mantissa
  }
}
