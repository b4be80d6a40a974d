import Foundation

/// The lexer of ``StrictJSON``'s grammar, and the scanner the readers that skip `JSONDecoder`
/// (``CloudEventJSONReader``, ``JSONFieldReader``) read with: one grammar, so that whatever a
/// reader takes is JSON by the same rules that refuse what it does not.
///
/// The throwing methods check and say where a text breaks the grammar. The optional ones read the
/// shapes writers produce and give nil or false when the bytes are not that shape (or not JSON):
/// a reader then gives up, and its caller has ``StrictJSON`` check the whole text, which either
/// refuses it, saying where, or accepts it for `JSONDecoder` to map.
struct JSONScanner {
  /// The bytes scanned; valid only as long as the caller's `withUnsafeBytes`.
  let bytes: UnsafeRawBufferPointer
  /// Where the scan is.
  var index: Int
  /// The caps on nesting, members and strings.
  let limits: JSONLimits
  /// The emptied record of the last value's containers, whose arrays the next value reuses: a
  /// batch's events would each allocate and free them again. Nil until a value has containers:
  /// a scanner is made for each field a reader reads, and making and destroying three empty
  /// arrays each time cost more than reading an integer.
  var spareContainers: OpenContainers?

  init(bytes: UnsafeRawBufferPointer, at index: Int = 0, limits: JSONLimits = .standard) {
    self.bytes = bytes
    self.index = index
    self.limits = limits
  }

  static let quote = UInt8(ascii: "\"")
  static let backslash = UInt8(ascii: "\\")

  /// The byte at ``index``, nil at the end. Inlined: called, it was a tenth of skipping a small
  /// object.
  var current: UInt8? {
    @inline(__always) get { index < bytes.count ? bytes[index] : nil }
  }

  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// Skips JSON's whitespace: space, tab, line feed, carriage return.
  @inline(__always)
  mutating func skipSpace() {
    // Compact JSON has none: one comparison, inlined, where a call took about 17 instructions
    // and a reader makes eight or more an event.
    guard index < bytes.count, bytes[index] <= 0x20 else { return }
    while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
  }

  /// What `read` reads after any whitespace, when only whitespace follows it.
  mutating func whole<Value>(_ read: (inout JSONScanner) -> Value?) -> Value? {
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

  /// Skips `word` (`true`, `false`, `null`) when it is at ``index``. Compared a word at a time:
  /// a byte at a time, it was a twentieth of reading an event of many null attributes.
  @inline(__always)
  mutating func literal(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count,
      UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)])
        .hasSameBytes(as: UnsafeRawBufferPointer(start: word.utf8Start, count: count))
    else { return false }
    index += count
    return true
  }

  /// Skips any JSON value under the grammar; true when it was a number or a literal, nil when
  /// it breaks the grammar (``value(depth:)`` says how). `depth` is how many objects and arrays
  /// enclose it.
  mutating func skipValue(depth: Int) -> Bool? {
    try? value(depth: depth)
  }

  /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, within `Double`'s range; false for
  /// anything else.
  mutating func skipNumber() -> Bool {
    (try? number()) != nil
  }

  /// Skips a string under the grammar, and without `escapes` only one that has none; false when
  /// it is not such a string.
  mutating func skipString(escapes: Bool) -> Bool {
    guard let escaped = try? string() else { return false }
    return escapes || !escaped
  }

  /// Fails at ``index``.
  func failure(_ kind: JSONSyntaxError.Kind) -> JSONSyntaxError {
    JSONSyntaxError(kind, at: index, in: bytes)
  }

  /// A number under the grammar, from ``index``.
  ///
  /// A number beyond `Double`'s range (`1e400`, which RFC 8259's grammar allows) is refused:
  /// most readers cannot hold it, and those that can (Python) hold something no other reader
  /// gets back.
  mutating func number() throws(JSONSyntaxError) {
    let start = index
    if current == UInt8(ascii: "-") { index += 1 }
    guard let first = current, Self.isDigit(first) else { throw failure(.invalidNumber) }
    index += 1
    if first != UInt8(ascii: "0") {
      while let byte = current, Self.isDigit(byte) { index += 1 }
    } else if let byte = current, Self.isDigit(byte) {
      throw failure(.invalidNumber)  // a leading zero
    }
    // The number is below 10^(integer digits + exponent): it is parsed to learn whether it is
    // within range only when that bound passes 10^308, so ordinary numbers are never parsed.
    var magnitude = index - start
    if current == UInt8(ascii: ".") {
      index += 1
      guard let byte = current, Self.isDigit(byte) else { throw failure(.invalidNumber) }
      while let byte = current, Self.isDigit(byte) { index += 1 }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      index += 1
      let negative = current == UInt8(ascii: "-")
      if negative || current == UInt8(ascii: "+") { index += 1 }
      guard let byte = current, Self.isDigit(byte) else { throw failure(.invalidNumber) }
      var exponent = 0
      while let byte = current, Self.isDigit(byte) {
        exponent = min(exponent * 10 + Int(byte - UInt8(ascii: "0")), 100_000)
        index += 1
      }
      magnitude += negative ? -exponent : exponent
    }
    guard magnitude > 308 else { return }
    let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    guard Double(text)?.isFinite ?? false else {
      index = start
      throw failure(.numberOutOfRange)
    }
  }

  /// A string under the grammar, from its opening quote at ``index`` to after its closing one;
  /// whether it holds an escape.
  mutating func string() throws(JSONSyntaxError) -> Bool {
    guard current == Self.quote else {
      guard let byte = current else { throw failure(.unexpectedEnd) }
      throw failure(.unexpectedByte(byte, expected: "a string"))
    }
    let start = index + 1
    var end = start
    var escaped = false
    while true {
      // Eight bytes at a time up to the first that needs a look: most strings have none.
      end = Self.firstSpecialByte(in: bytes, from: end)
      guard end < bytes.count else {
        index = bytes.count
        throw failure(.unexpectedEnd)
      }
      let byte = bytes[end]
      if byte == Self.quote { break }
      if byte == Self.backslash {
        escaped = true
        end = try escape(at: end)
      } else if byte < 0x20 {
        index = end
        throw failure(.controlCharacter(byte))
      } else {
        end = try utf8Sequence(at: end)
      }
    }
    guard end - start <= limits.maximumStringBytes else {
      index = start
      throw failure(.stringTooLong(limit: limits.maximumStringBytes))
    }
    index = end + 1
    return escaped
  }

  /// The index after the escape at `at` (a backslash), which must be one RFC 8259 defines; a
  /// `\u` escape of a high surrogate must be followed by one of a low surrogate, and one of a
  /// low surrogate must not come alone.
  private mutating func escape(at: Int) throws(JSONSyntaxError) -> Int {
    guard let length = escapeLength(at: at) else {
      index = at
      throw failure(at + 1 < bytes.count ? .invalidEscape : .unexpectedEnd)
    }
    guard length == 6 else { return at + 2 }
    let scalar = Self.escapedUnit(bytes, at: at)
    switch scalar {
    case 0xD800...0xDBFF:
      guard at + 12 <= bytes.count, bytes[at + 6] == Self.backslash, bytes[at + 7] == UInt8(ascii: "u"),
        escapeLength(at: at + 6) == 6, (0xDC00...0xDFFF).contains(Self.escapedUnit(bytes, at: at + 6))
      else {
        index = at
        throw failure(.unpairedSurrogate)
      }
      return at + 12
    case 0xDC00...0xDFFF:
      index = at
      throw failure(.unpairedSurrogate)
    default:
      return at + 6
    }
  }

  /// The index after the UTF-8 sequence that begins at `at`, which must be well formed: no
  /// overlong form, no surrogate, nothing beyond U+10FFFF (The Unicode Standard, table 3-7).
  private mutating func utf8Sequence(at: Int) throws(JSONSyntaxError) -> Int {
    let lead = bytes[at]
    if lead < 0x80 { return at + 1 }
    let count: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: count = 2
    case 0xE0:
      count = 3
      low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: count = 3
    case 0xED:
      count = 3
      high = 0x9F
    case 0xF0:
      count = 4
      low = 0x90
    case 0xF1...0xF3: count = 4
    case 0xF4:
      count = 4
      high = 0x8F
    default:
      index = at
      throw failure(.notUTF8)
    }
    guard at + count <= bytes.count, (low...high).contains(bytes[at + 1]) else {
      index = at
      throw failure(.notUTF8)
    }
    for offset in 2..<count where bytes[at + offset] & 0xC0 != 0x80 {
      index = at
      throw failure(.notUTF8)
    }
    return at + count
  }

  /// The code unit of the `\uXXXX` escape at `at`, whose four digits ``escapeLength(at:)`` has
  /// checked.
  static func escapedUnit(_ bytes: UnsafeRawBufferPointer, at: Int) -> UInt32 {
    var unit: UInt32 = 0
    for offset in 2..<6 { unit = unit << 4 | (hexValue(bytes[at + offset]) ?? 0) }
    return unit
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

  /// The length of the escape at `at` (a backslash): 2, or 6 for `\u` and four hex digits; nil
  /// for one RFC 8259 does not define.
  func escapeLength(at: Int) -> Int? {
    guard at + 1 < bytes.count else { return nil }
    switch bytes[at + 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
      UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return 2
    case UInt8(ascii: "u"):
      guard at + 6 <= bytes.count else { return nil }
      for offset in 2..<6 where Self.hexValue(bytes[at + offset]) == nil { return nil }
      return 6
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
  /// short name about three times as costly, and below 17 bytes (names and keys, most of the
  /// calls) two loads from each end, overlapping, which cost a third of a call to `memcmp`.
  @inline(__always)
  func hasSameBytes(as other: UnsafeRawBufferPointer) -> Bool {
    guard count == other.count else { return false }
    guard let base = baseAddress, let otherBase = other.baseAddress else { return true }
    switch count {
    case 8...16:
      return base.loadUnaligned(as: UInt64.self) == otherBase.loadUnaligned(as: UInt64.self)
        && base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
          == otherBase.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    case 4..<8:
      return base.loadUnaligned(as: UInt32.self) == otherBase.loadUnaligned(as: UInt32.self)
        && base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
          == otherBase.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
    case 1..<4:
      for offset in 0..<count where self[offset] != other[offset] { return false }
      return true
    default:
      return memcmp(base, otherBase, count) == 0
    }
  }
}
