import Foundation

/// A schema file's path and contents, as read from disk or made by a test.
public struct SchemaSource: Sendable {
  /// The path as the user gave it; diagnostics and generated headers use it.
  public var path: String
  /// The file's bytes.
  public var bytes: [UInt8]

  /// Creates a source from bytes.
  public init(path: String, bytes: [UInt8]) {
    self.path = path
    self.bytes = bytes
  }

  /// Creates a source from text.
  public init(path: String, text: String) {
    self.init(path: path, bytes: Array(text.utf8))
  }
}

/// The outcome of loading a run's schema files.
public struct SchemaLoadResult: Sendable {
  /// The validated schemas, or nil when there were errors.
  public var schema: SchemaSet?
  /// Every error and warning of the run, sorted by file and position.
  public var diagnostics: [Diagnostic]

  /// Whether the run has errors.
  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// The front end's entry point: YAML text → nodes → documents → a validated ``SchemaSet``.
public enum SchemaLoader {
  /// Loads and validates the files of one run together, so that they may use each other's types.
  ///
  /// A file that is not valid YAML is reported and left out, and the others are still checked,
  /// so that one run shows every error.
  public static func load(_ sources: [SchemaSource]) -> SchemaLoadResult {
    var log = DiagnosticLog()
    var documents: [SchemaDocument] = []
    for source in sources {
      switch YAMLComposer(path: source.path).compose(source.bytes) {
      case .failure(let diagnostics):
        log.append(contentsOf: diagnostics)
      case .document(let root):
        let (document, diagnostics) = SchemaDecoder.decode(root, path: source.path)
        log.append(contentsOf: diagnostics)
        documents.append(document)
      }
    }
    let (schema, diagnostics) = SchemaValidator.validate(documents)
    log.append(contentsOf: diagnostics)
    return SchemaLoadResult(schema: log.hasErrors ? nil : schema, diagnostics: log.sorted)
  }
}
