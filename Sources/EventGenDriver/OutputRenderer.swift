import ContractExport
import EventCodegen
import EventSchema

/// One file that a run generates: its name and its contents.
public struct GeneratedFile: Sendable, Equatable {
  /// The file name, derived from the inputs' paths alone.
  public var name: String
  /// The text.
  public var contents: String

  /// Creates a file.
  public init(name: String, contents: String) {
    (self.name, self.contents) = (name, contents)
  }
}

/// An output format: turns a validated schema set into files. Every file it renders carries
/// ``GeneratedFileMarker`` near its start, which is how ``OutputWriter`` knows it may replace
/// the file later.
///
/// A new format is a renderer and a subcommand that hands it to ``Pipeline/plan(_:renderer:)``
/// and the plan's files to ``OutputWriter``.
public protocol OutputRenderer: Sendable {
  /// The files for `schema`; throws when the inputs cannot be named apart in this format.
  func render(_ schema: SchemaSet) throws(InputError) -> [GeneratedFile]
}

/// Swift source, one file per input (``SchemaFileNames/swiftFileName(forSchemaAt:)``), the
/// first also holding the run's catalog: `eventgen generate` and `check`, and both plugins.
public struct SwiftSources: OutputRenderer {
  /// The generator's options.
  public var options: GeneratorOptions

  /// A renderer with `options`.
  public init(options: GeneratorOptions = GeneratorOptions()) {
    self.options = options
  }

  public func render(_ schema: SchemaSet) throws(InputError) -> [GeneratedFile] {
    var owners: [String: String] = [:]
    for file in schema.files {
      let name = SchemaFileNames.swiftFileName(forSchemaAt: file.path)
      if let other = owners[name] {
        throw InputError("\(file.path): generates \(name), as \(other) does; rename one of them")
      }
      owners[name] = file.path
    }
    return zip(schema.files, SwiftSourceRenderer(options: options).render(schema)).map { file, contents in
      GeneratedFile(name: SchemaFileNames.swiftFileName(forSchemaAt: file.path), contents: contents)
    }
  }
}

/// One contract document, AsyncAPI, JSON Schema or OpenAPI: `eventgen asyncapi`, `json-schema`
/// and `openapi`.
public struct ContractDocument: OutputRenderer {
  /// The document's format.
  public var format: ContractFormat
  /// JSON or YAML.
  public var syntax: ContractSyntax
  /// The title; nil for ``ContractExporter/defaultTitle``.
  public var title: String?
  /// The version; nil for ``ContractExporter/defaultVersion``.
  public var version: String?
  /// Where an OpenAPI document's endpoint is mounted.
  public var path: String

  /// A renderer of one document in `format`.
  public init(
    format: ContractFormat, syntax: ContractSyntax = .json, title: String? = nil, version: String? = nil,
    path: String = "/events"
  ) {
    self.format = format
    self.syntax = syntax
    self.title = title
    self.version = version
    self.path = path
  }

  /// The name of the one file: ``OutputDestination/file(_:)`` places it at the path it names.
  public var fileName: String {
    switch format {
    case .asyncAPI: "events.asyncapi.\(syntax.rawValue)"
    case .jsonSchema: "events.schema.\(syntax.rawValue)"
    case .openAPI: "events.openapi.\(syntax.rawValue)"
    }
  }

  public func render(_ schema: SchemaSet) throws(InputError) -> [GeneratedFile] {
    [
      GeneratedFile(
        name: fileName,
        contents: ContractExporter(schema).document(
          format, syntax: syntax, title: title, version: version, path: path))
    ]
  }
}
