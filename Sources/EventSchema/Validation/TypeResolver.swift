/// Resolves written types against the run's symbols.
struct TypeResolver {
  let symbols: SymbolTable

  /// The resolved type, or nil after reporting why it does not resolve.
  func resolve(_ expression: TypeExpression, log: inout DiagnosticLog) -> FieldType? {
    switch expression {
    case .named(let name):
      return resolve(name: name, log: &log)
    case .optional(let wrapped, let location):
      guard let inner = resolve(wrapped, log: &log) else { return nil }
      if inner.isOptional {
        log.error("`\(inner)?` is an optional of an optional; a missing key cannot tell the two apart", at: location)
        return nil
      }
      return .optional(inner)
    case .array(let element, _):
      return resolve(element, log: &log).map { .array($0) }
    case .dictionary(let key, let value, _):
      let resolvedKey = resolve(key, log: &log)
      let resolvedValue = resolve(value, log: &log)
      guard let resolvedKey, let resolvedValue else { return nil }
      guard resolvedKey == .builtin(.string) else {
        log.error(
          "dictionary keys must be `String` (userInfo and JSON objects have string keys); found `\(resolvedKey)`",
          at: key.location)
        return nil
      }
      return .dictionary(resolvedValue)
    }
  }

  private func resolve(name: Located<String>, log: inout DiagnosticLog) -> FieldType? {
    if let builtin = BuiltinType(rawValue: name.value) {
      return .builtin(builtin)
    }
    guard let symbol = symbols[name.value] else {
      let hint = Suggestions.hint(for: name.value, among: symbols.typeNames)
      log.error("unknown type `\(name.value)`\(hint)", at: name.location)
      return nil
    }
    switch symbol.kind {
    case .wrapper(let wrapped):
      guard case .named(let builtinName) = wrapped, let builtin = BuiltinType(rawValue: builtinName.value) else {
        return nil  // The wrapper's own declaration reports this.
      }
      return .named(name.value, .wrapper(builtin))
    case .enumeration:
      return .named(name.value, .enumeration)
    case .record:
      return .named(name.value, .record)
    case .choice:
      return .named(name.value, .choice)
    case .external:
      return .named(name.value, .external)
    case .event:
      // An event is a value type too: a field may hold one (a backend's message that is also a
      // part of another).
      return .named(name.value, .record)
    case .group:
      log.error(
        "`\(name.value)` is a group, not a type; a field holds one event type, or a type declared under `types:`",
        at: name.location)
      return nil
    }
  }
}
