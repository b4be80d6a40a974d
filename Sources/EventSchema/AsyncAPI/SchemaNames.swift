/// Swift names for what AsyncAPI documents name freely: message and schema keys, property
/// keys, enum values. A name that is already a Swift identifier is kept as it is (so a document
/// this project exported reads back to the same names); others are split at every character
/// that cannot be in an identifier and joined in camel case. The wire key or raw value stays
/// what the document says.
enum SchemaNames {
  /// `userSignedUp` → `UserSignedUp`; `user/signed-up` → `UserSignedUp`.
  static func typeName(_ raw: String) -> String {
    // Most names are ASCII letters and digits already, starting with a letter: one word.
    let utf8 = raw.utf8
    if let first = utf8.first, isASCIILetter(first), utf8.allSatisfy({ isASCIILetter($0) || isASCIIDigit($0) }) {
      guard (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else { return raw }
      return String(decoding: [first - 0x20] + utf8.dropFirst(), as: UTF8.self)
    }
    let words = self.words(raw)
    guard !words.isEmpty else { return "Unnamed" }
    let joined = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    return joined.first?.isNumber == true ? "_" + joined : joined
  }

  /// `display_name` stays; `first-name` → `firstName`; `2fa` → `_2fa`.
  static func memberName(_ raw: String) -> String {
    if SwiftNames.isIdentifier(raw) { return raw }
    let words = self.words(raw)
    guard let first = words.first else { return "_" }
    let joined = first + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    return joined.first?.isNumber == true ? "_" + joined : joined
  }

  /// An enum case for a raw value: `in-progress` → `inProgress`, `EUR` → `eur`.
  static func caseName(_ raw: String) -> String {
    if SwiftNames.isIdentifier(raw) { return SwiftNames.lowerCamelCase(raw) }
    let name = memberName(raw)
    return name == "_" ? "empty" : SwiftNames.lowerCamelCase(name)
  }

  private static func isASCIILetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
  }

  private static func isASCIIDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  /// The runs of ASCII letters and digits.
  private static func words(_ raw: String) -> [String] {
    var words: [String] = []
    var current = ""
    for scalar in raw.unicodeScalars {
      if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) {
        current.unicodeScalars.append(scalar)
      } else if !current.isEmpty {
        words.append(current)
        current = ""
      }
    }
    if !current.isEmpty { words.append(current) }
    return words
  }
}
