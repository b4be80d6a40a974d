import Foundation

/// Scans JSON bytes for the readers that skip `JSONDecoder` on the shapes writers produce
/// (``CloudEventJSONReader``, ``JSONFieldReader``): every method gives nil or false when it is
/// not sure the bytes are what it reads, and the reader then leaves the whole input to
/// `JSONDecoder`, which decides and words any error. So a method may refuse more than JSON
/// does, never less.
struct FastJSONScanner {
  /// The bytes scanned; valid only as long as the caller's `withUnsafeBytes`.
  let bytes: UnsafeRawBufferPointer
  /// Where the scan is.
  var index: Int

  init(bytes: UnsafeRawBufferPointer, at index: Int = 0) {
    self.bytes = bytes
    self.index = index
  }

  static let quote = UInt8(ascii: "\"")
  static let backslash = UInt8(ascii: "\\")

  /// The byte at ``index``, nil at the end.
  var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// Skips JSON's whitespace: space, tab, line feed, carriage return.
  mutating func skipSpace() {
    while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
  }

  /// What `read` reads after any whitespace, when only whitespace follows it.
  mutating func whole<Value>(_ read: (inout FastJSONScanner) -> Value?) -> Value? {
    skipSpace()
    guard let value = read(&self) else { return nil }
    skipSpace()
    return index == bytes.count ? value : nil
  }

  /// A string without escapes or control characters, in valid UTF-8.
  mutating func plainString() -> String? {
    plainStringBytes().map { String(decoding: $0, as: UTF8.self) }
  }

  /// The bytes between the quotes of a string without escapes or control characters, in valid
  /// UTF-8.
  mutating func plainStringBytes() -> UnsafeRawBufferPointer? {
    let start = index + 1
    guard skipString(escapes: false) else { return nil }
    return UnsafeRawBufferPointer(rebasing: bytes[start..<(index - 1)])
  }

  /// `-?(0|[1-9][0-9]*)` that fits `Int`, not followed by a fraction or an exponent; not `-0`.
  mutating func wholeNumber() -> Int? {
    let negative = current == UInt8(ascii: "-")
    if negative { index += 1 }
    guard let first = current, Self.isDigit(first) else { return nil }
    var value = 0
    var digits = 0
    while let byte = current, Self.isDigit(byte) {
      let digit = Int(byte - UInt8(ascii: "0"))
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (next, overflow2) =
        negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
      guard !overflow1, !overflow2 else { return nil }
      value = next
      digits += 1
      index += 1
    }
    if first == UInt8(ascii: "0") && digits > 1 { return nil }
    if negative && value == 0 { return nil }
    if let byte = current, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
      return nil
    }
    return value
  }

  mutating func literal(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
    index += count
    return true
  }

  /// Skips any JSON value, checking that it is JSON: true when it was a number or a literal,
  /// nil when it is not JSON or nests deeper than 256.
  mutating func skipValue(depth: Int) -> Bool? {
    guard depth <= 256, let byte = current else { return nil }
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      let object = byte == UInt8(ascii: "{")
      let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
      index += 1
      skipSpace()
      if current == close {
        index += 1
        return false
      }
      while true {
        skipSpace()
        if object {
          guard skipString(escapes: true) else { return nil }
          skipSpace()
          guard current == UInt8(ascii: ":") else { return nil }
          index += 1
          skipSpace()
        }
        guard skipValue(depth: depth + 1) != nil else { return nil }
        skipSpace()
        guard let separator = current else { return nil }
        index += 1
        if separator == close { return false }
        guard separator == UInt8(ascii: ",") else { return nil }
      }
    case Self.quote:
      return skipString(escapes: true) ? false : nil
    case UInt8(ascii: "t"):
      return literal("true") ? true : nil
    case UInt8(ascii: "f"):
      return literal("false") ? true : nil
    case UInt8(ascii: "n"):
      return literal("null") ? true : nil
    default:
      return skipNumber() ? true : nil
    }
  }

  /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, within `Double`'s range.
  ///
  /// `JSONSerialization`, which ``EventEnvelope/validate()`` parses with, refuses a number beyond
  /// that range (`1e400`, which RFC 8259 allows), and so does this scanner, so that whatever it
  /// passes, `validate()` passes.
  mutating func skipNumber() -> Bool {
    let start = index
    if current == UInt8(ascii: "-") { index += 1 }
    guard let first = current, Self.isDigit(first) else { return false }
    index += 1
    if first != UInt8(ascii: "0") {
      while let byte = current, Self.isDigit(byte) { index += 1 }
    }
    // The number is below 10^(integer digits + exponent): it is parsed to learn whether it is
    // within range only when that bound passes 10^308, so ordinary numbers are never parsed.
    var magnitude = index - start
    if current == UInt8(ascii: ".") {
      index += 1
      guard let byte = current, Self.isDigit(byte) else { return false }
      while let byte = current, Self.isDigit(byte) { index += 1 }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      index += 1
      let negative = current == UInt8(ascii: "-")
      if negative || current == UInt8(ascii: "+") { index += 1 }
      guard let byte = current, Self.isDigit(byte) else { return false }
      var exponent = 0
      while let byte = current, Self.isDigit(byte) {
        exponent = min(exponent * 10 + Int(byte - UInt8(ascii: "0")), 100_000)
        index += 1
      }
      magnitude += negative ? -exponent : exponent
    }
    guard magnitude > 308 else { return true }
    let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    return Double(text)?.isFinite ?? false
  }

  /// Skips a string with no control characters, in valid UTF-8, and with `escapes` those RFC
  /// 8259 allows but a surrogate's (whether it is paired is JSONDecoder's to say), else none;
  /// false when it is not such a string.
  mutating func skipString(escapes: Bool) -> Bool {
    guard current == Self.quote else { return false }
    let start = index + 1
    var end = start
    var ascii = true
    while end < bytes.count {
      // Eight bytes at a time up to the first that needs a look: most strings have none.
      end = Self.firstSpecialByte(in: bytes, from: end)
      guard end < bytes.count else { break }
      let byte = bytes[end]
      if byte == Self.quote { break }
      if byte < 0x20 { return false }
      if byte >= 0x80 { ascii = false }
      if byte == Self.backslash {
        guard escapes, let length = escapeLength(at: end) else { return false }
        end += length
        continue
      }
      end += 1
    }
    guard end < bytes.count else { return false }
    index = end + 1
    return ascii || String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) != nil
  }

  /// The index of the first byte from `start` on that is a quote, a backslash, a control
  /// character or not ASCII; `bytes.count` when there is none. Words of eight bytes are tested
  /// at once (the lowest byte a test flags is exact: a borrow only runs upwards from a byte that
  /// is flagged itself); the last few bytes one by one. Scanning strings a byte at a time was a
  /// tenth of reading a CloudEvents batch.
  @inline(__always)
  static func firstSpecialByte(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var index = start
    while index + 8 <= bytes.count {
      let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let quotes = word ^ (ones &* UInt64(quote))
      let backslashes = word ^ (ones &* UInt64(backslash))
      // A byte below 0x20 becomes one with its high bit set (so do those from 0xA0); `| word`
      // flags every byte from 0x80.
      let special =
        ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes) | (word &- ones &* 0x20) | word
      let flags = special & highs
      if flags != 0 { return index + flags.trailingZeroBitCount / 8 }
      index += 8
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == quote || byte == backslash || byte < 0x20 || byte >= 0x80 { return index }
      index += 1
    }
    return index
  }

  /// The length of the escape at `at` (a backslash), nil for one RFC 8259 does not allow or
  /// one of a surrogate.
  func escapeLength(at: Int) -> Int? {
    guard at + 1 < bytes.count else { return nil }
    switch bytes[at + 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
      UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return 2
    case UInt8(ascii: "u"):
      guard at + 6 <= bytes.count else { return nil }
      var scalar: UInt32 = 0
      for offset in 2..<6 {
        guard let digit = Self.hexValue(bytes[at + offset]) else { return nil }
        scalar = scalar << 4 | digit
      }
      return (0xD800...0xDFFF).contains(scalar) ? nil : 6
    default:
      return nil
    }
  }

  static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
  }
}

extension UnsafeRawBufferPointer {
  /// Whether `other` holds the same bytes: `memcmp`, where `elementsEqual` made matching a
  /// short name about three times as costly.
  func hasSameBytes(as other: UnsafeRawBufferPointer) -> Bool {
    guard count == other.count else { return false }
    guard let base = baseAddress, let otherBase = other.baseAddress else { return true }
    return memcmp(base, otherBase, count) == 0
  }
}
