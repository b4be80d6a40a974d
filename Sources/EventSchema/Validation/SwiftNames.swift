/// The rules a schema name must follow to become Swift; the generator spells names by them too.
public enum SwiftNames {
  /// Swift's keywords, declaration and expression keywords and the contextual ones that would
  /// confuse a reader as a type name. In generated code they are written in backticks.
  public static let keywords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
    "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
    "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
    "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
    "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
    "super", "throws", "true", "try", "async", "actor", "any", "some", "package", "Type", "Protocol",
    "consume", "borrowing", "consuming", "copy", "discard", "each", "macro", "nonisolated", "isolated",
    "indirect", "mutating", "nonmutating", "override", "required", "convenience", "dynamic", "final",
    "lazy", "optional", "unowned", "weak", "get", "set", "willSet", "didSet", "prefix", "postfix", "infix",
  ]

  /// Keywords that cannot name a property or case even in backticks, or would break the members
  /// generated code refers to through `self`.
  static let unusableMemberNames: Set<String> = [
    "self", "Self", "super", "init", "deinit", "subscript", "Type", "Protocol", "_",
  ]

  /// Members every generated type or event has; a field of that name would clash.
  static let generatedMembers: Set<String> = [
    "userInfo", "eventName", "eventVersion", "eventSubject", "hashValue", "hash", "encode", "CodingKeys",
    "rawValue", "propertyListValue", "catalog",
  ]

  /// Static members of a generated enum that a case of that name would redeclare.
  static let enumMembers: Set<String> = ["rawValue", "knownCases", "allCases", "propertyListValue", "hashValue"]

  /// Members of a generated group enum that a case of that name would redeclare.
  static let groupMembers: Set<String> = ["members", "event", "eventSubject", "hashValue"]

  /// Type names a schema may not declare, with the reason. Generated code names everything it
  /// takes from Swift, Foundation and TypedEvents module-qualified (`Swift.String`,
  /// `TypedEvents.Event`), so a schema may declare `Event`, `Result` or `Status`; what is left
  /// still truly clashes. `GeneratedNamesTests` checks that generated code uses no other name
  /// unqualified.
  static let reservedTypeNames: [String: String] = {
    var reasons: [String: String] = [
      // A type of a module's name would capture the qualified names themselves.
      "Swift": "the module generated code qualifies standard library names with",
      "Foundation": "the module generated code qualifies Foundation names with",
      "TypedEvents": "the module generated code qualifies runtime names with",
      // Inside the generated field coding these are its generic parameters.
      "Reader": "a generic parameter of the generated field coding",
      "Writer": "a generic parameter of the generated field coding",
      // The filter helpers extend `EventSelector where Value == …`, whose parameter types would
      // then mean the event type.
      "Value": "the generic parameter of TypedEvents.EventSelector, which the filter helpers extend",
      "GeneratedEvents": "the catalog that generated code declares",
      // Inside `GeneratedEvents`, where the lists of event types name each event, its member
      // `catalog` would capture an event of that name.
      "catalog": "a member of the catalog that generated code declares",
    ]
    // A schema type of a built-in's name would make `Date` in a field type mean two things.
    for builtin in BuiltinType.allCases { reasons[builtin.swiftName] = "a built-in type of the schema language" }
    return reasons
  }()

  /// Whether `name` is an ASCII Swift identifier: a letter or `_`, then letters, digits or `_`.
  static func isIdentifier(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_" else { return false }
    return name.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" }
  }

  /// `ListingCreated` → `listingCreated`; `URLOpened` → `urlOpened`.
  /// The case an open enum keeps raw values it does not know in. Upper-case, as SwiftProtobuf's
  /// is: every case name derived from a value is lower camel case, so no value can take it.
  public static let unrecognizedCase = "UNRECOGNIZED"

  public static func lowerCamelCase(_ name: String) -> String {
    let characters = Array(name)
    var upperPrefix = characters.prefix { $0.isUppercase }.count
    // In `URLOpened` the `O` starts the next word and stays upper-case.
    if upperPrefix > 1 && upperPrefix < characters.count { upperPrefix -= 1 }
    return characters.prefix(upperPrefix).map { $0.lowercased() }.joined() + String(characters.dropFirst(upperPrefix))
  }
}

extension Unicode.Scalar {
  fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
