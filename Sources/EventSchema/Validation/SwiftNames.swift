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
  static let unusableMemberNames: Set<String> = ["self", "Self", "super", "init", "deinit", "subscript", "Type", "Protocol", "_"]

  /// Members every generated type or event has; a field of that name would clash.
  static let generatedMembers: Set<String> = [
    "userInfo", "eventName", "eventVersion", "eventSubject", "hashValue", "hash", "encode", "CodingKeys",
    "rawValue", "propertyListValue", "catalog",
  ]

  /// Static members of a generated enum that a case of that name would redeclare.
  static let enumMembers: Set<String> = ["rawValue", "knownCases", "allCases", "propertyListValue", "hashValue"]

  /// Members of a generated group enum that a case of that name would redeclare.
  static let groupMembers: Set<String> = ["members", "event", "eventSubject", "hashValue"]

  /// Names that generated code uses unqualified: Swift, Foundation and TypedEvents types and
  /// the generic parameters of the field coding. A schema type of such a name would shadow
  /// it. `GeneratedNamesTests` keeps this list complete.
  static let reservedTypeNames: Set<String> = Set(BuiltinType.allCases.map(\.swiftName)).union([
    // Swift and Foundation
    "Optional", "Array", "Dictionary", "Set", "Error", "Decoder", "Encoder", "Codable", "Decodable",
    "Encodable", "CodingKey", "Hashable", "Hasher", "Equatable", "Sendable", "AnyHashable", "Never", "Void",
    "Character", "Substring", "Notification", "NotificationCenter", "Foundation", "Swift",
    "KeyedDecodingContainer", "KeyedEncodingContainer", "RawRepresentable", "CaseIterable",
    "CustomStringConvertible", "MainActor",
    // TypedEvents
    "TypedEvents", "Event", "EventGroup", "EventGroupMember", "EventBus", "EventCatalog", "EventObserving",
    "EventStream", "EventBufferingPolicy", "EventDelivery", "EventSubscription", "SubjectIdentifiable",
    "UserInfoCodable", "UserInfoDecodingError", "UserInfoReader", "UserInfoWriter", "StrongIdentifier",
    "StringEnumeration", "PropertyListConvertible", "FieldReader", "FieldWriter", "DecodingFields",
    "EncodingFields", "FieldCodable", "GeneratedEvents",
    // Generic parameters of the generated field coding
    "Reader", "Writer",
  ])

  /// Whether `name` is an ASCII Swift identifier: a letter or `_`, then letters, digits or `_`.
  static func isIdentifier(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_" else { return false }
    return name.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" }
  }

  /// `ListingCreated` → `listingCreated`; `URLOpened` → `urlOpened`.
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
