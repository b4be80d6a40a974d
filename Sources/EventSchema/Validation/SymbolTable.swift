/// Every name a run declares, across all of its files: types, events, groups and externals
/// share one Swift namespace, so a name may be declared once.
struct SymbolTable {
  enum Kind {
    case wrapper(TypeExpression)
    case enumeration(cases: [String], frozen: Bool)
    case record
    case choice
    case external
    case event
    case group

    var noun: String {
      switch self {
      case .wrapper, .enumeration, .record, .choice: return "type"
      case .external: return "external type"
      case .event: return "event"
      case .group: return "group"
      }
    }
  }

  struct Symbol {
    var kind: Kind
    var location: SourceLocation
  }

  private(set) var symbols: [String: Symbol] = [:]

  /// Declares `name`, reporting a duplicate (with where the first one is) or a bad name.
  mutating func declare(_ name: Located<String>, as kind: Kind, log: inout DiagnosticLog) {
    let value = name.value
    guard SwiftNames.isIdentifier(value) else {
      log.error(
        "`\(value)` is not a valid Swift identifier; use letters, digits and `_`, not starting with a digit",
        at: name.location)
      return
    }
    if SwiftNames.keywords.contains(value) {
      log.error(
        "`\(value)` is a Swift keyword and cannot name \(kind.noun == "event" || kind.noun == "external type" ? "an" : "a") \(kind.noun)",
        at: name.location)
      return
    }
    if let reason = SwiftNames.reservedTypeNames[value] {
      log.error("`\(value)` is \(reason); choose another name", at: name.location)
      return
    }
    if let first = symbols[value] {
      log.error(
        "duplicate name `\(value)`: already declared as a \(first.kind.noun) at \(first.location)", at: name.location)
      return
    }
    symbols[value] = Symbol(kind: kind, location: name.location)
  }

  subscript(name: String) -> Symbol? { symbols[name] }

  /// Names that can be used as field types, for "did you mean" hints.
  var typeNames: [String] {
    symbols.compactMap { name, symbol in
      switch symbol.kind {
      case .event, .group: return nil
      default: return name
      }
    } + BuiltinType.allCases.map(\.swiftName)
  }

  /// Names of events, for hints.
  var eventNames: [String] {
    symbols.compactMap { name, symbol in
      if case .event = symbol.kind { return name }
      return nil
    }
  }
}
