import EventSchema

/// `eventgen lint`: validates schema files and reports what is wrong with them.
public enum Linter {
  /// The result of a lint run.
  public struct Report: Sendable {
    /// The schema files checked, as found.
    public var schemaFiles: [String]
    /// How many schema files were checked.
    public var fileCount: Int { schemaFiles.count }
    /// How many events they declare, when valid.
    public var eventCount: Int
    /// Every diagnostic, sorted by file and position.
    public var diagnostics: [Diagnostic]
    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
  }

  /// Discovers, reads and validates the schema files that `paths` name.
  public static func lint(_ paths: [String]) throws(InputError) -> Report {
    let files = try InputFiles.discover(paths)
    guard !files.isEmpty else {
      throw InputError("no schema files (\(InputFiles.searchedFor)) found in \(paths.joined(separator: ", "))")
    }
    let result = SchemaLoader.load(try InputFiles.read(files), readFile: InputFiles.readReferencedFile)
    return Report(schemaFiles: files, eventCount: result.schema?.allEvents.count ?? 0, diagnostics: result.diagnostics)
  }
}
