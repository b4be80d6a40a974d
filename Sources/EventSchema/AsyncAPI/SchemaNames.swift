/// Swift names for what AsyncAPI documents name freely: message and schema keys, property
/// keys, enum values. A name that is already a Swift identifier is kept as it is (so a document
/// this project exported reads back to the same names); others are split at every character
/// that cannot be in an identifier and joined in camel case. The wire key or raw value stays
/// what the document says.
enum SchemaNames {
  /// `userSignedUp` → `UserSignedUp`; `user/signed-up` → `UserSignedUp`.
  static func typeName(_ raw: String) -> String {
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
