import EventSchema

/// The schemas of one run, read and validated: what every command starts from.
public struct LoadedSchemas: Sendable {
  /// The input files, as found (``InputFiles/discover(_:fileManager:)``'s order).
  public var schemaFiles: [String]
  /// The validated model; nil when any diagnostic is an error.
  public var schema: SchemaSet?
  /// Every diagnostic, sorted by file and position.
  public var diagnostics: [Diagnostic]

  /// Whether any diagnostic is an error.
  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
  /// How many errors the diagnostics hold.
  public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
  /// How many events the model declares; 0 when it has errors.
  public var eventCount: Int { schema?.allEvents.count ?? 0 }

  /// The same, with every warning an error (and so no model when there was one).
  func treatingWarningsAsErrors() -> LoadedSchemas {
    guard diagnostics.contains(where: { $0.severity == .warning }) else { return self }
    let strict = diagnostics.map { diagnostic in
      var diagnostic = diagnostic
      if diagnostic.severity == .warning { diagnostic.severity = .error }
      return diagnostic
    }
    return LoadedSchemas(schemaFiles: schemaFiles, schema: nil, diagnostics: strict)
  }
}

/// The front end of every command and of both plugins (which run the commands): finds the
/// inputs that paths name, reads them within the input limits, and loads and validates them.
public enum FrontEnd {
  /// Finds, reads and validates the schema files and AsyncAPI documents that `paths` name
  /// (files as given, folders searched as ``InputFiles/discover(_:fileManager:)`` says).
  ///
  /// Schema errors are diagnostics in the result; a path that names no input, or a file that
  /// cannot be read, throws. AsyncAPI documents' `$ref`s are read only inside `referenceRoot`
  /// (by default the current directory): a build never reads a file outside the folder it was
  /// given. With `warningsAreErrors` (`--strict`), every warning is an error, such as an
  /// AsyncAPI message skipped because it cannot be an event. AsyncAPI strings whose `format` is
  /// one of `typedFormats` are read as their Swift types (``TypedFormat``), and the messages and
  /// schemas that `names` names take those Swift names (``ConfiguredName``).
  public static func load(
    _ paths: [String], referenceRoot: ReferenceRoot = ReferenceRoot("."), warningsAreErrors: Bool = false,
    typedFormats: Set<TypedFormat> = [], names: [ConfiguredName] = []
  ) throws(InputError) -> LoadedSchemas {
    let files = try InputFiles.discover(paths)
    guard !files.isEmpty else {
      throw InputError("no schema files (\(InputFiles.searchedFor)) found in \(paths.joined(separator: ", "))")
    }
    let result = SchemaLoader.load(
      try InputFiles.read(files), readFile: InputFiles.readReferencedFile, referenceRoot: referenceRoot,
      typedFormats: typedFormats, names: names)
    let loaded = LoadedSchemas(schemaFiles: files, schema: result.schema, diagnostics: result.diagnostics)
    return warningsAreErrors ? loaded.treatingWarningsAsErrors() : loaded
  }
}
