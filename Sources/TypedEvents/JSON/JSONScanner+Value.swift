import Foundation

/// Values under ``StrictJSON``'s grammar: objects and arrays without recursion (an explicit
/// stack, so a nesting limit set high cannot overflow a thread's stack), each object's keys
/// checked to be distinct.
extension JSONScanner {
  /// The whole text: one value, whitespace around it and nothing else.
  mutating func wholeValue() throws(JSONSyntaxError) {
    try checkEncoding()
    skipSpace()
    _ = try value(depth: 0)
    try checkEnd()
  }

  /// One member of an object: its key as the UTF-8 it denotes, and where it is.
  struct ObjectMember {
    var key: [UInt8]
    /// From the key's opening quote to the end of the value.
    var member: Range<Int>
    var value: Range<Int>
  }

  /// The whole text, which must be an object, checked as ``wholeValue()`` checks it, in the same
  /// one pass; and its members, so that a reader takes the bytes of one (a log line's payload)
  /// without scanning the text again.
  mutating func wholeObjectMembers() throws(JSONSyntaxError) -> [ObjectMember] {
    try checkEncoding()
    skipSpace()
    guard current == UInt8(ascii: "{") else {
      guard let byte = current else { throw failure(.unexpectedEnd) }
      throw failure(.unexpectedByte(byte, expected: "an object"))
    }
    index += 1
    skipSpace()
    var members: [ObjectMember] = []
    if current == UInt8(ascii: "}") {
      index += 1
      try checkEnd()
      return members
    }
    var open = OpenContainers()
    open.frames.append(.init(isObject: true, firstKey: 0))
    while true {
      skipSpace()
      let start = index
      try key(in: &open)
      let key = open.keys.last.map { key in open.withBytes(of: key, in: bytes) { Array($0) } } ?? []
      skipSpace()
      let valueStart = index
      _ = try value(depth: 1)
      members.append(ObjectMember(key: key, member: start..<index, value: valueStart..<index))
      skipSpace()
      guard let separator = current else { throw failure(.unexpectedEnd) }
      if separator == UInt8(ascii: "}") {
        index += 1
        break
      }
      guard separator == UInt8(ascii: ",") else { throw failure(.unexpectedByte(separator, expected: "',' or '}'")) }
      let comma = index
      index += 1
      skipSpace()
      if current == UInt8(ascii: "}") {
        index = comma
        throw failure(.trailingComma)
      }
      guard members.count < limits.maximumMembers else { throw failure(.tooManyMembers(limit: limits.maximumMembers)) }
    }
    try checkEnd()
    return members
  }

  /// Refuses a byte order mark, UTF-16 and UTF-32 at the start of the text.
  private func checkEncoding() throws(JSONSyntaxError) {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { throw failure(.byteOrderMark) }
    // UTF-16 and UTF-32 text has a zero byte beside its first ASCII character, or a byte order
    // mark of its own (FE FF, FF FE): neither begins UTF-8 JSON.
    if let first = bytes.first, first == 0 || first == 0xFE || first == 0xFF || (bytes.count > 1 && bytes[1] == 0) {
      throw failure(.notUTF8)
    }
  }

  /// Refuses anything but whitespace after the value.
  private mutating func checkEnd() throws(JSONSyntaxError) {
    skipSpace()
    if let byte = current { throw failure(.unexpectedByte(byte, expected: "nothing after the JSON value")) }
  }

  /// One value from ``index`` (after any whitespace), to the byte after it; true when it was a
  /// number or a literal. `depth` is how many objects and arrays enclose it.
  mutating func value(depth: Int) throws(JSONSyntaxError) -> Bool {
    // A string, a number or a literal needs no record of containers: most values a reader skips
    // (a field's, an attribute's) are one, and taking the record and emptying it took as long
    // as the scan.
    skipSpace()
    switch current {
    case Self.quote?:
      _ = try string()
      return false
    case UInt8(ascii: "-")?, (UInt8(ascii: "0")...UInt8(ascii: "9"))?:
      try number()
      return true
    case UInt8(ascii: "{")? where flatObject(depth: depth):
      return false
    default:
      break
    }
    var open = spareContainers.take() ?? OpenContainers()
    defer {
      open.empty()
      spareContainers = open
    }
    var isScalar = false
    nextValue: while true {
      skipSpace()
      guard let byte = current else { throw failure(.unexpectedEnd) }
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        let isObject = byte == UInt8(ascii: "{")
        guard depth + open.frames.count < limits.maximumDepth else {
          throw failure(.tooDeep(limit: limits.maximumDepth))
        }
        index += 1
        skipSpace()
        if current == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
          index += 1
        } else {
          open.frames.append(.init(isObject: isObject, firstKey: open.keys.count))
          if isObject { try key(in: &open) }
          continue nextValue
        }
      case Self.quote:
        _ = try string()
      case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
        guard literal("true") || literal("false") || literal("null") else {
          throw failure(.unexpectedByte(byte, expected: "a value"))
        }
        isScalar = true
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        try number()
        isScalar = true
      default:
        throw failure(.unexpectedByte(byte, expected: "a value"))
      }
      // After a value: the next member of the innermost container, or its end.
      // The flag alone, not a copy of the frame: a copy would share the frame's key index, and
      // the next key added would copy all of it.
      while let isObject = open.frames.last?.isObject {
        isScalar = false
        skipSpace()
        guard let separator = current else { throw failure(.unexpectedEnd) }
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if separator == close {
          index += 1
          open.close()
          continue
        }
        guard separator == UInt8(ascii: ",") else {
          throw failure(.unexpectedByte(separator, expected: isObject ? "',' or '}'" : "',' or ']'"))
        }
        let comma = index
        index += 1
        skipSpace()
        if current == close {
          index = comma
          throw failure(.trailingComma)
        }
        open.frames[open.frames.count - 1].members += 1
        guard open.frames[open.frames.count - 1].members <= limits.maximumMembers else {
          throw failure(.tooManyMembers(limit: limits.maximumMembers))
        }
        if isObject { try key(in: &open) }
        continue nextValue
      }
      return isScalar
    }
  }

  /// Skips the object at ``index`` when it is flat: at most ``keysComparedOneByOne`` members,
  /// each key plain ASCII (no escape) and distinct, each value a string, a number or a literal,
  /// within the limits. That is the shape of most events' data, and it needs no record of
  /// containers: keeping one took most of skipping a small object. True when it skipped it;
  /// false, with ``index`` where it was, for any other shape and for anything the grammar
  /// refuses, so that ``value(depth:)`` reads it and says where it breaks the grammar.
  private mutating func flatObject(depth: Int) -> Bool {
    let start = index
    let most = min(Self.keysComparedOneByOne, limits.maximumMembers)
    guard depth < limits.maximumDepth else { return false }
    let skipped = withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: most) { keys -> Bool in
      index += 1
      skipSpace()
      if current == UInt8(ascii: "}") {
        index += 1
        return true
      }
      var count = 0
      while count < most {
        skipSpace()
        let keyStart = index + 1
        guard current == Self.quote, let escaped = try? string(), !escaped else { return false }
        let key = UnsafeRawBufferPointer(rebasing: bytes[keyStart..<(index - 1)])
        guard key.allSatisfy({ $0 < 0x80 }) else { return false }
        for earlier in 0..<count where UnsafeRawBufferPointer(rebasing: bytes[keys[earlier]]).hasSameBytes(as: key) {
          return false
        }
        keys[count] = keyStart..<(index - 1)
        count += 1
        skipSpace()
        guard current == UInt8(ascii: ":") else { return false }
        index += 1
        skipSpace()
        switch current {
        case Self.quote?:
          guard (try? string()) != nil else { return false }
        case UInt8(ascii: "-")?, (UInt8(ascii: "0")...UInt8(ascii: "9"))?:
          guard (try? number()) != nil else { return false }
        case UInt8(ascii: "t")?, UInt8(ascii: "f")?, UInt8(ascii: "n")?:
          guard literal("true") || literal("false") || literal("null") else { return false }
        default:
          return false
        }
        skipSpace()
        switch current {
        case UInt8(ascii: "}")?:
          index += 1
          return true
        case UInt8(ascii: ",")?:
          index += 1
          skipSpace()
          // A trailing comma: refused, saying where, by the general path.
          guard current != UInt8(ascii: "}") else { return false }
        default:
          return false
        }
      }
      return false
    }
    if !skipped { index = start }
    return skipped
  }

  /// A member's key and the `:` after it, refused when the innermost object has it already.
  private mutating func key(in open: inout OpenContainers) throws(JSONSyntaxError) {
    skipSpace()
    let start = index
    let escaped = try string()
    var key: Key
    if escaped {
      let decoded = Self.unescaped(UnsafeRawBufferPointer(rebasing: bytes[(start + 1)..<(index - 1)]))
      key = .decoded(open.decoded.count..<(open.decoded.count + decoded.count))
      open.decoded.append(contentsOf: decoded)
    } else {
      key = .written((start + 1)..<(index - 1))
    }
    // A key beyond ASCII is compared in its canonical composition (NFC). Swift's JSONDecoder
    // matches keys as `String`s, equal when canonically equivalent (`K` and the Kelvin sign, an
    // NFC and an NFD `é`): two such keys would be one key to it, read as the first, and two to
    // every other language.
    if open.withBytes(of: key, in: bytes, { !$0.allSatisfy { $0 < 0x80 } }) {
      let composed = open.withBytes(of: key, in: bytes) {
        Array(String(decoding: $0, as: UTF8.self).precomposedStringWithCanonicalMapping.utf8)
      }
      key = .decoded(open.decoded.count..<(open.decoded.count + composed.count))
      open.decoded.append(contentsOf: composed)
    }
    if open.insertIsRepeat(key, bytes: bytes) {
      let text = open.withBytes(of: key, in: bytes) { String(decoding: $0, as: UTF8.self) }
      index = start
      throw failure(.duplicateKey(text))
    }
    skipSpace()
    guard current == UInt8(ascii: ":") else {
      guard let byte = current else { throw failure(.unexpectedEnd) }
      throw failure(.unexpectedByte(byte, expected: "':' after a key"))
    }
    index += 1
  }

  /// The UTF-8 of the string whose bytes between the quotes are `written`, escapes and all,
  /// which the grammar has accepted.
  static func unescaped(_ written: UnsafeRawBufferPointer) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(written.count)
    var at = 0
    while at < written.count {
      let byte = written[at]
      guard byte == backslash else {
        result.append(byte)
        at += 1
        continue
      }
      let escape = written[at + 1]
      guard escape == UInt8(ascii: "u") else {
        switch escape {
        case UInt8(ascii: "b"): result.append(0x08)
        case UInt8(ascii: "f"): result.append(0x0C)
        case UInt8(ascii: "n"): result.append(0x0A)
        case UInt8(ascii: "r"): result.append(0x0D)
        case UInt8(ascii: "t"): result.append(0x09)
        default: result.append(escape)  // `"`, `\`, `/`
        }
        at += 2
        continue
      }
      var scalar = escapedUnit(written, at: at)
      at += 6
      if (0xD800...0xDBFF).contains(scalar) {
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (escapedUnit(written, at: at) - 0xDC00)
        at += 6
      }
      // The grammar refuses a lone surrogate, so every scalar here is one.
      if let encoded = Unicode.UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}") { result.append(contentsOf: encoded) }
    }
    return result
  }
}
