import Foundation

/// Reads the top-level members of a CloudEvent in JSON: its attributes, and the bytes of its
/// `data` as written.
///
/// ``read(_:)`` reads the shape CloudEvents writers produce without `JSONDecoder`, which took
/// most of a batch POST's own time: a flat object whose attribute values are strings without
/// escapes, whole numbers, Booleans or null, and whose `data` is any JSON value, checked to be
/// JSON. It answers only when it is sure, and gives nil for anything else: an escape in an
/// attribute, a fraction, an object or array as an attribute, a repeated key, a surrogate escape
/// or nesting deeper than 256 in `data`, bytes that are not JSON. The caller then reads the
/// event with ``readWithJSONDecoder(_:)``, which decides, and words any error. Tests check that
/// both give the same wherever ``read(_:)`` answers.
enum CloudEventJSONReader {
  /// What a CloudEvent in JSON holds at its top level.
  struct Members: Equatable {
    /// Every attribute that is not null.
    var context = CloudEventContext()
    /// The value of `data_base64`; nil without it, or when it is null.
    var dataBase64: EventAttributeValue?
    /// The bytes of `data`'s value as written (with the whitespace after a number or literal,
    /// as ``JSONObjectScanner`` gives it); nil without `data`.
    var data: Data?
  }

  /// The members of `json` when it has the common shape; nil when ``readWithJSONDecoder(_:)``
  /// must decide.
  static func read(_ json: Data) -> Members? {
    json.withUnsafeBytes { raw -> Members? in
      var scanner = FastScanner(bytes: raw)
      return scanner.whole { $0.event() }
    }
  }

  /// The members of each element of the JSON array `json`, in order, when every element has
  /// the common shape; nil when any has not, or `json` is not an array. One pass over the
  /// batch: locating the elements first took a tenth of reading it.
  static func readBatch(_ json: Data) -> [Members]? {
    json.withUnsafeBytes { raw -> [Members]? in
      var scanner = FastScanner(bytes: raw)
      return scanner.whole { $0.batch() }
    }
  }

  /// The members of `json` read with `JSONDecoder`, which parses all of it, `data` too.
  ///
  /// - Throws: ``EventLogError/malformed(_:)`` when `json` is not a JSON object, or a member
  ///   but `data` is an object, an array or a fraction, which no CloudEvents type is.
  static func readWithJSONDecoder(_ json: Data) throws -> Members {
    let attributes: [String: CloudEventJSONValue]
    do {
      attributes = try JSONDecoder().decode(CloudEventJSONAttributes.self, from: json).values
    } catch {
      throw EventLogError.malformed("a CloudEvent is a JSON object")
    }
    var members = Members(data: JSONObjectScanner.value(ofKey: "data", in: json))
    for (key, value) in attributes where key != "data_base64" {
      switch value {
      case .null: continue  // null means absent (CloudEvents JSON format, 2.4)
      case .value(let attribute): members.context[key] = attribute
      case .other: throw EventLogError.malformed("the CloudEvent attribute \(key) has no CloudEvents type")
      }
    }
    // After the attributes, so that which error an event gets does not depend on hash order.
    switch attributes["data_base64"] {
    case .value(let encoded)?: members.dataBase64 = encoded
    case .other?: throw EventLogError.malformed("the CloudEvent's data_base64 is not base64")
    case .null?, nil: break
    }
    return members
  }
}

/// The scanner behind ``CloudEventJSONReader/read(_:)`` and
/// ``CloudEventJSONReader/readBatch(_:)``: every method gives nil when it is not sure, and the
/// whole read then gives nil.
private struct FastScanner {
  let bytes: UnsafeRawBufferPointer
  var index = 0

  init(bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  private static let quote = UInt8(ascii: "\"")
  private static let backslash = UInt8(ascii: "\\")

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private mutating func skipSpace() {
    while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
  }

  /// What `read` reads after any whitespace, when only whitespace follows it.
  mutating func whole<Value>(_ read: (inout FastScanner) -> Value?) -> Value? {
    skipSpace()
    guard let value = read(&self) else { return nil }
    skipSpace()
    return index == bytes.count ? value : nil
  }

  /// An array of events.
  mutating func batch() -> [CloudEventJSONReader.Members]? {
    guard current == UInt8(ascii: "[") else { return nil }
    index += 1
    var events: [CloudEventJSONReader.Members] = []
    // About one event in 250 bytes, as this package writes them: few regrowths of the array.
    // Capped: the body is not checked yet.
    events.reserveCapacity(min(bytes.count / 250, 1_024))
    skipSpace()
    if current == UInt8(ascii: "]") {
      index += 1
      return events
    }
    while true {
      skipSpace()
      guard let event = event() else { return nil }
      events.append(event)
      skipSpace()
      guard let separator = current else { return nil }
      index += 1
      if separator == UInt8(ascii: "]") { return events }
      guard separator == UInt8(ascii: ",") else { return nil }
    }
  }

  /// One event: an object.
  mutating func event() -> CloudEventJSONReader.Members? {
    guard current == UInt8(ascii: "{") else { return nil }
    index += 1
    var members = CloudEventJSONReader.Members()
    var data: Range<Int>?
    // Names seen with null, which `members` leaves out: a repeat of one is a repeated key too.
    var nulls: [String] = []
    skipSpace()
    if current == UInt8(ascii: "}") {
      index += 1
    } else {
      while true {
        skipSpace()
        guard let key = plainString() else { return nil }
        skipSpace()
        guard current == UInt8(ascii: ":") else { return nil }
        index += 1
        skipSpace()
        if key == "data" {
          // A repeated key: which one counts is JSONDecoder's to say.
          guard data == nil else { return nil }
          let start = index
          guard let scalar = skipValue(depth: 1) else { return nil }
          if scalar { skipSpace() }  // JSONObjectScanner keeps it, up to the `,` or `}`
          data = start..<index
        } else {
          guard !nulls.contains(key), let value = attributeValue() else { return nil }
          switch value {
          case .null:
            guard key == "data_base64" ? members.dataBase64 == nil : members.context[key] == nil else { return nil }
            nulls.append(key)
          case .value(let attribute) where key == "data_base64":
            guard members.dataBase64 == nil else { return nil }
            members.dataBase64 = attribute
          case .value(let attribute):
            guard members.context.insert(attribute, named: key) else { return nil }
          case .other:
            return nil
          }
        }
        skipSpace()
        guard let separator = current else { return nil }
        index += 1
        if separator == UInt8(ascii: "}") { break }
        guard separator == UInt8(ascii: ",") else { return nil }
      }
    }
    members.data = data.map { Data(UnsafeRawBufferPointer(rebasing: bytes[$0])) }
    return members
  }

  /// A string without escapes or control characters, in valid UTF-8.
  private mutating func plainString() -> String? {
    let start = index + 1
    guard skipString(escapes: false) else { return nil }
    return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<(index - 1)]), as: UTF8.self)
  }

  /// An attribute's value: a plain string, a whole number that fits `Int`, a Boolean or null.
  private mutating func attributeValue() -> CloudEventJSONValue? {
    guard let byte = current else { return nil }
    switch byte {
    case Self.quote:
      return plainString().map { .value(.string($0)) }
    case UInt8(ascii: "t"):
      return literal("true") ? .value(.boolean(true)) : nil
    case UInt8(ascii: "f"):
      return literal("false") ? .value(.boolean(false)) : nil
    case UInt8(ascii: "n"):
      return literal("null") ? .null : nil
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return wholeNumber().map { .value(.integer($0)) }
    default:
      return nil
    }
  }

  /// `-?(0|[1-9][0-9]*)` that fits `Int`, not followed by a fraction or an exponent; not `-0`.
  private mutating func wholeNumber() -> Int? {
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

  private mutating func literal(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
    index += count
    return true
  }

  /// Skips any JSON value, checking that it is JSON: true when it was a number or a literal.
  private mutating func skipValue(depth: Int) -> Bool? {
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

  /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
  private mutating func skipNumber() -> Bool {
    if current == UInt8(ascii: "-") { index += 1 }
    guard let first = current, Self.isDigit(first) else { return false }
    index += 1
    if first != UInt8(ascii: "0") {
      while let byte = current, Self.isDigit(byte) { index += 1 }
    }
    if current == UInt8(ascii: ".") {
      index += 1
      guard let byte = current, Self.isDigit(byte) else { return false }
      while let byte = current, Self.isDigit(byte) { index += 1 }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      guard let byte = current, Self.isDigit(byte) else { return false }
      while let byte = current, Self.isDigit(byte) { index += 1 }
    }
    return true
  }

  /// Skips a string with no control characters, in valid UTF-8, and with `escapes` those RFC
  /// 8259 allows but a surrogate's (whether it is paired is JSONDecoder's to say), else none;
  /// false when it is not such a string.
  private mutating func skipString(escapes: Bool) -> Bool {
    guard current == Self.quote else { return false }
    let start = index + 1
    var end = start
    var ascii = true
    while end < bytes.count {
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

  /// The length of the escape at `at` (a backslash), nil for one RFC 8259 does not allow or
  /// one of a surrogate.
  private func escapeLength(at: Int) -> Int? {
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

  private static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
  }
}
