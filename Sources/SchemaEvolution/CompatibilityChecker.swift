import EventSchema

/// Checks that a new version of a schema set keeps the readers that a mode protects working,
/// and that every file with a breaking change raises its `version`.
public enum CompatibilityChecker {
  /// The diagnostics of comparing `old` with `new`, sorted.
  ///
  /// A change that breaks a direction `mode` checks is an error, at the new schema's location
  /// (the old one's for something removed); every other change is a note. Whatever the mode, a
  /// file whose changes break either direction must raise its `version`, and no file may lower
  /// it: version numbers then always tell whether two apps can talk.
  public static func check(old: SchemaSet, new: SchemaSet, mode: CompatibilityMode) -> [Diagnostic] {
    let changes = SchemaComparison(old: old, new: new).changes
    var diagnostics = changes.map { change in
      Diagnostic(
        change.breaks.isDisjoint(with: mode.checked) ? .note : .error, at: change.location, change.message)
    }
    diagnostics += versionRule(old: old, new: new, changes: changes)
    diagnostics += eventVersionRule(old: old, new: new, changes: changes)
    return Array(Set(diagnostics)).sorted()
  }

  private static func identity(_ file: SchemaFile) -> String {
    file.namespace ?? String(file.path.split(separator: "/").last ?? Substring(file.path))
  }

  /// The version rule per event, for the events of new files that pair with no old file (as
  /// when one side is an AsyncAPI document, one file for what were several): an event whose
  /// fields, or a type it uses, changed in a breaking way must raise its version, and no event
  /// may lower it.
  private static func eventVersionRule(old: SchemaSet, new: SchemaSet, changes: [SchemaChange]) -> [Diagnostic] {
    let oldIdentities = Set(old.files.map(identity))
    let oldEvents = Dictionary(old.allEvents.map { ($0.wireName, $0) }, uniquingKeysWith: { first, _ in first })
    let records = Dictionary(
      new.files.flatMap(\.types).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    var diagnostics: [Diagnostic] = []
    for file in new.files where !oldIdentities.contains(identity(file)) {
      for event in file.events {
        guard let previous = oldEvents[event.wireName] else { continue }
        if event.version < previous.version {
          diagnostics.append(
            Diagnostic(
              .error, at: event.location,
              "the version of event `\(event.name)` went down from \(previous.version) to \(event.version); versions only go up"
            ))
          continue
        }
        let used = typesUsed(by: event.fields, in: records)
        let breaking = changes.filter { change in
          guard !change.breaks.isEmpty else { return false }
          switch change.owner {
          case .event(let wireName)?: return wireName == event.wireName
          case .type(let name)?: return used.contains(name)
          case nil: return false
          }
        }
        if !breaking.isEmpty && event.version == previous.version {
          diagnostics.append(
            Diagnostic(
              .error, at: event.location,
              "\(breaking.count) breaking change\(breaking.count == 1 ? "" : "s") to event `\(event.name)` but its version stays \(event.version): raise it to \(event.version + 1)"
            ))
        }
      }
    }
    return diagnostics
  }

  /// The names of the declared types that `fields` use, directly or through other types.
  private static func typesUsed(by fields: [Field], in types: [String: TypeDeclaration]) -> Set<String> {
    var used: Set<String> = []
    var pending = fields.map(\.type)
    while let type = pending.popLast() {
      switch type {
      case .builtin: break
      case .optional(let wrapped), .array(let wrapped), .dictionary(let wrapped): pending.append(wrapped)
      case .named(let name, _):
        guard used.insert(name).inserted else { continue }
        if case .record(let recordFields)? = types[name]?.kind { pending += recordFields.map(\.type) }
      }
    }
    return used
  }

  /// Files are paired by namespace, or by file name when they have none.
  private static func versionRule(old: SchemaSet, new: SchemaSet, changes: [SchemaChange]) -> [Diagnostic] {
    let oldByIdentity = Dictionary(old.files.map { (identity($0), $0) }, uniquingKeysWith: { first, _ in first })
    var diagnostics: [Diagnostic] = []
    for file in new.files {
      guard let previous = oldByIdentity[identity(file)] else { continue }
      let location = file.versionLocation ?? SourceLocation(file: file.path, line: 1, column: 1)
      if file.version < previous.version {
        diagnostics.append(
          Diagnostic(
            .error, at: location, "`version` went down from \(previous.version) to \(file.version); versions only go up"
          ))
        continue
      }
      let paths = [file.path, previous.path]
      let breaking = changes.filter { !$0.breaks.isEmpty && paths.contains($0.location.file) }
      if !breaking.isEmpty && file.version == previous.version {
        diagnostics.append(
          Diagnostic(
            .error, at: location,
            "\(breaking.count) breaking change\(breaking.count == 1 ? "" : "s") but `version` stays \(file.version): raise it to \(file.version + 1)"
          ))
      }
    }
    return diagnostics
  }
}
