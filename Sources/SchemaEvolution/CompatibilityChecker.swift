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
    return Array(Set(diagnostics)).sorted()
  }

  /// Files are paired by namespace, or by file name when they have none.
  private static func versionRule(old: SchemaSet, new: SchemaSet, changes: [SchemaChange]) -> [Diagnostic] {
    func identity(_ file: SchemaFile) -> String {
      file.namespace ?? String(file.path.split(separator: "/").last ?? Substring(file.path))
    }
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
