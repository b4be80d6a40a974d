/// Reads a JSON document into the ``YAMLNode`` tree that libyaml composes from the same text:
/// the same nodes, scalar styles and positions, several times faster.
///
/// JSON is YAML's flow style, so libyaml reads it too, but at a cost that dominated reading a
/// large AsyncAPI document (Benchmarks: generator). This reader takes strict JSON only (an
/// object or array at the top, UTF-8 without a byte-order mark, no comments) and answers nil
/// for anything else, valid or not: ``YAMLComposer`` then reads the text with libyaml, which
/// accepts what YAML accepts and reports errors as it always has. So the fast path changes no
/// tree and no message, with two exceptions, both where libyaml reads JSON as YAML 1.1 rather
/// than as JSON: it reads a character escaped as a surrogate pair (`"\ud83d\ude00"`), which
/// libyaml refuses, and keeps U+0085, U+2028 and U+2029 in a string as they are, which libyaml
/// takes for line breaks and folds into a space. JSONComposerTests compares both readers on
/// every JSON document at hand.
struct JSONComposer {
  private let path: String
  private let bytes: UnsafeBufferPointer<UInt8>
  private var offset = 0
  private var line = 1
  private var column = 1

  /// A mapping or sequence being built, as in ``YAMLComposer``.
  private struct Frame {
    var start: SourceLocation
    var isMapping: Bool
    var items: [YAMLNode] = []
    var pairs: [YAMLPair] = []
    var key: YAMLNode?
  }

  private init(path: String, bytes: UnsafeBufferPointer<UInt8>) {
    self.path = path
    self.bytes = bytes
  }

  /// The document's root, or nil when `bytes` is not strict JSON with an object or array at the
  /// top, or nests deeper than `maximumDepth`.
  static func compose(_ bytes: UnsafeBufferPointer<UInt8>, path: String, maximumDepth: Int) -> YAMLNode? {
    var reader = JSONComposer(path: path, bytes: bytes)
    reader.skipWhitespace()
    // A YAML file costs one look at its first character.
    guard let first = reader.peek(), first == UInt8(ascii: "{") || first == UInt8(ascii: "["), isValidUTF8(bytes)
    else { return nil }
    return reader.document(maximumDepth: maximumDepth)
  }

  private mutating func document(maximumDepth: Int) -> YAMLNode? {
    var stack: [Frame] = []
    while true {
      // A value: the next item of the innermost sequence, a mapping's value, or the root.
      skipWhitespace()
      guard let byte = peek() else { return nil }
      var completed: YAMLNode?
      let start = location
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        guard stack.count < maximumDepth else { return nil }
        let isMapping = byte == UInt8(ascii: "{")
        advance()
        stack.append(Frame(start: start, isMapping: isMapping))
        skipWhitespace()
        if peek() == (isMapping ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
          advance()
          completed = node(closing: stack.removeLast())
        } else if isMapping {
          guard let key = key() else { return nil }
          stack[stack.count - 1].key = key
          continue
        } else {
          continue
        }
      case UInt8(ascii: "\""):
        guard let text = string() else { return nil }
        completed = YAMLNode(.scalar(YAMLScalar(text, style: .doubleQuoted)), at: start)
      default:
        guard let text = number() ?? literal() else { return nil }
        completed = YAMLNode(.scalar(YAMLScalar(text, style: .plain)), at: start)
      }
      // Attach the value, then close every container that ends after it.
      while let node = completed {
        completed = nil
        guard !stack.isEmpty else {
          skipWhitespace()
          return offset == bytes.count ? node : nil
        }
        let top = stack.count - 1
        if stack[top].isMapping, let key = stack[top].key {
          stack[top].pairs.append(YAMLPair(key: key, value: node))
          stack[top].key = nil
        } else {
          stack[top].items.append(node)
        }
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: ","):
          advance()
          if stack[top].isMapping {
            skipWhitespace()
            guard let key = key() else { return nil }
            stack[top].key = key
          }
        case UInt8(ascii: "}") where stack[top].isMapping, UInt8(ascii: "]") where !stack[top].isMapping:
          advance()
          completed = self.node(closing: stack.removeLast())
        default:
          return nil
        }
      }
    }
  }

  private func node(closing frame: Frame) -> YAMLNode {
    YAMLNode(frame.isMapping ? .mapping(frame.pairs) : .sequence(frame.items, flow: true), at: frame.start)
  }

  /// A mapping's key and its `:`.
  private mutating func key() -> YAMLNode? {
    let start = location
    guard peek() == UInt8(ascii: "\""), let text = string() else { return nil }
    skipWhitespace()
    guard peek() == UInt8(ascii: ":") else { return nil }
    advance()
    return YAMLNode(.scalar(YAMLScalar(text, style: .doubleQuoted)), at: start)
  }

  // MARK: Scalars

  /// A string's text, from its opening quote.
  private mutating func string() -> String? {
    advance()  // the opening quote
    let start = offset
    var escaped: [UInt8]?
    var characters = 0  // after the opening quote
    while offset < bytes.count {
      let byte = bytes[offset]
      switch byte {
      case UInt8(ascii: "\""):
        offset += 1
        column += characters + 1  // the quotes and what they hold
        guard let escaped else {
          return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset - 1]), as: UTF8.self)
        }
        return String(decoding: escaped, as: UTF8.self)
      case UInt8(ascii: "\\"):
        if escaped == nil { escaped = Array(bytes[start..<offset]) }
        guard let (scalar, length) = escape(at: offset) else { return nil }
        escaped?.append(contentsOf: String(Character(scalar)).utf8)
        offset += length
        characters += length
      case 0..<0x20:
        return nil  // JSON strings hold no raw control characters
      default:
        escaped?.append(byte)
        offset += 1
        if byte & 0xC0 != 0x80 { characters += 1 }
      }
    }
    return nil
  }

  /// The character an escape at `index` stands for, and how many bytes it takes.
  private func escape(at index: Int) -> (Unicode.Scalar, Int)? {
    guard index + 1 < bytes.count else { return nil }
    switch bytes[index + 1] {
    case UInt8(ascii: "\""): return ("\"", 2)
    case UInt8(ascii: "\\"): return ("\\", 2)
    case UInt8(ascii: "/"): return ("/", 2)
    case UInt8(ascii: "b"): return ("\u{08}", 2)
    case UInt8(ascii: "f"): return ("\u{0C}", 2)
    case UInt8(ascii: "n"): return ("\n", 2)
    case UInt8(ascii: "r"): return ("\r", 2)
    case UInt8(ascii: "t"): return ("\t", 2)
    case UInt8(ascii: "u"):
      guard let high = hex4(at: index + 2) else { return nil }
      if (0xD800..<0xDC00).contains(high) {
        // A surrogate pair: `\uD83D\uDE00`.
        guard index + 11 < bytes.count, bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u"),
          let low = hex4(at: index + 8), (0xDC00..<0xE000).contains(low),
          let scalar = Unicode.Scalar(0x10000 + (high - 0xD800) << 10 + (low - 0xDC00))
        else { return nil }
        return (scalar, 12)
      }
      guard let scalar = Unicode.Scalar(high) else { return nil }  // a lone low surrogate
      return (scalar, 6)
    default:
      return nil
    }
  }

  private func hex4(at index: Int) -> UInt32? {
    guard index + 4 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for byte in bytes[index..<index + 4] {
      guard let digit = hexDigit(byte) else { return nil }
      value = value << 4 | digit
    }
    return value
  }

  private func hexDigit(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
  }

  /// A number's exact text (``JSONNumberSyntax``).
  private mutating func number() -> String? {
    let start = offset
    guard let end = JSONNumberSyntax.end(in: bytes, from: start) else { return nil }
    offset = end
    column += end - start
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
  }

  /// `true`, `false` or `null`.
  private mutating func literal() -> String? {
    for word in ["true", "false", "null"] {
      let utf8 = word.utf8
      guard offset + utf8.count <= bytes.count, bytes[offset..<offset + utf8.count].elementsEqual(utf8) else {
        continue
      }
      offset += utf8.count
      column += utf8.count
      return word
    }
    return nil
  }

  // MARK: Position

  private var location: SourceLocation { SourceLocation(file: path, line: line, column: column) }

  private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

  /// Steps over one ASCII byte.
  private mutating func advance() {
    offset += 1
    column += 1
  }

  /// JSON's whitespace: space, tab, line feed and carriage return.
  private mutating func skipWhitespace() {
    while offset < bytes.count {
      switch bytes[offset] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"):
        offset += 1
        column += 1
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        // `\r\n` is one line break, and so is a `\r` alone, as libyaml counts them.
        if bytes[offset] == UInt8(ascii: "\r"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "\n") {
          offset += 1
        }
        offset += 1
        line += 1
        column = 1
      default:
        return
      }
    }
  }

  /// Whether `bytes` is UTF-8 as the standard defines it: no overlong forms, no surrogates,
  /// nothing beyond U+10FFFF. libyaml reports the error for text that is not.
  private static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    guard let base = bytes.baseAddress else { return true }
    while index < bytes.count {
      // Eight ASCII bytes at a time: most of a schema is ASCII.
      if index + 8 <= bytes.count,
        UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        index += 8
        continue
      }
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0: (length, low) = (3, 0xA0)
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: (length, high) = (3, 0x9F)
      case 0xF0: (length, low) = (4, 0x90)
      case 0xF1...0xF3: length = 4
      case 0xF4: (length, high) = (4, 0x8F)
      default: return false
      }
      guard index + length <= bytes.count, (low...high).contains(bytes[index + 1]) else { return false }
      for continuation in bytes[index + 2..<index + length] where continuation & 0xC0 != 0x80 { return false }
      index += length
    }
    return true
  }
}
