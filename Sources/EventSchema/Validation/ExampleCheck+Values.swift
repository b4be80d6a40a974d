import Foundation

/// How an example's values read, as JSON sees them, and the scalar grammars the check applies.
extension ExampleCheck {
  // MARK: Values

  /// An example's value as JSON sees it.
  enum Value {
    case null
    case bool
    case number(String)
    case string(String)
    case array([Located<Literal>])
    case object([(key: String?, value: Located<Literal>)])

    var described: String {
      switch self {
      case .null: "null"
      case .bool: "a Boolean"
      case .number(let text): "the number \(text)"
      case .string(let text): "the string \"\(text.count > 40 ? text.prefix(40) + "…" : Substring(text))\""
      case .array: "an array"
      case .object: "an object"
      }
    }
  }

  static func value(_ literal: Literal) -> Value {
    switch literal {
    case .null: return .null
    case .sequence(let items): return .array(items)
    case .mapping(let entries): return .object(entries.map { (key: $0.key.value, value: $0.value) })
    case .scalar(let text, plain: false): return .string(text)
    case .scalar(let text, plain: true):
      // YAML 1.2's core schema; JSON's literals and numbers are plain scalars too.
      if ["null", "Null", "NULL", "~", ""].contains(text) { return .null }
      if ["true", "True", "TRUE", "false", "False", "FALSE"].contains(text) { return .bool }
      if isNumber(text) { return .number(text) }
      return .string(text)
    }
  }

  /// A number as YAML's core schema and JSON write one: `-12`, `1.5e3`, `.5`; hexadecimal and
  /// octal YAML integers too.
  static func isNumber(_ text: String) -> Bool {
    if let _ = Int64(text) { return true }
    let unsigned = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
    if unsigned.hasPrefix("0x"), UInt64(unsigned.dropFirst(2), radix: 16) != nil { return true }
    if unsigned.hasPrefix("0o"), UInt64(unsigned.dropFirst(2), radix: 8) != nil { return true }
    guard unsigned.first.map({ $0.isASCII && ($0.isNumber || $0 == ".") }) == true else { return false }
    return Double(text) != nil
  }

  /// Whether `text` is a whole number within `bounds`: written as one, or as a fraction or
  /// exponent whose value is one (Foundation's reader takes `2.0` for an integer).
  static func integer(_ text: String, within bounds: (min: Int64, max: UInt64)) -> Bool {
    if let value = Int64(text) { return value >= bounds.min && (value < 0 || UInt64(value) <= bounds.max) }
    if let value = UInt64(text) { return value <= bounds.max }
    guard let value = Double(text), value.rounded() == value else { return false }
    return value >= Double(bounds.min) && value <= Double(bounds.max)
  }

  /// Whether `text` is an RFC 3339 date-time: `2026-11-29T10:00:00Z`, with a fraction of a
  /// second or not, and `Z` or an offset (`t` and `z` in either case).
  static func isTimestamp(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    func digits(_ range: Range<Int>) -> Int? {
      guard range.upperBound <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[range] {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    func byte(_ index: Int, _ expected: Character...) -> Bool {
      index < bytes.count && expected.contains(Character(Unicode.Scalar(bytes[index])))
    }
    guard digits(0..<4) != nil, byte(4, "-"), let month = digits(5..<7), (1...12).contains(month), byte(7, "-"),
      let day = digits(8..<10), (1...31).contains(day), byte(10, "T", "t"), let hour = digits(11..<13), hour < 24,
      byte(13, ":"), let minute = digits(14..<16), minute < 60, byte(16, ":"), let second = digits(17..<19),
      second <= 60
    else { return false }
    var index = 19
    if byte(index, ".") {
      index += 1
      let start = index
      while index < bytes.count, digits(index..<(index + 1)) != nil { index += 1 }
      guard index > start else { return false }
    }
    if byte(index, "Z", "z") { return index + 1 == bytes.count }
    guard byte(index, "+", "-"), let hours = digits((index + 1)..<(index + 3)), hours < 24, byte(index + 3, ":"),
      let minutes = digits((index + 4)..<(index + 6)), minutes < 60
    else { return false }
    return index + 6 == bytes.count
  }
}
