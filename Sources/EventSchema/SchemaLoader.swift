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
///
/// Two formats come in: `.events.yaml` schema files, and AsyncAPI documents (3.0, 3.1 or 2.6,
/// YAML or JSON), told apart by the document's top-level `asyncapi` key. Both decode to the
/// same documents, which one validator checks.
public enum SchemaLoader {
  /// Reads a file that an AsyncAPI document refers to with `$ref`, by its path (relative to
  /// the working directory, as the referencing file's path is); throws an error that says why
  /// it cannot.
  public typealias ReadFile = @Sendable (_ path: String) throws -> [UInt8]

  /// Reads referenced files from disk, whole.
  public static let readFromDisk: ReadFile = { path in
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ReadFailure(description: "\(path): no such file, or it cannot be read")
    }
    return Array(data)
  }

  /// Why a referenced file could not be read.
  public struct ReadFailure: Error, CustomStringConvertible {
    /// What went wrong, naming the path.
    public var description: String

    /// Creates a failure.
    public init(description: String) {
      self.description = description
    }
  }

  /// Loads and validates the files of one run together, so that they may use each other's types.
  ///
  /// A file that is not valid YAML is reported and left out, and the others are still checked,
  /// so that one run shows every error. Files that AsyncAPI documents refer to are read with
  /// `readFile`.
  ///
  /// It runs on a thread of its own with a large stack (``DeepStack``): schemas that refer to
  /// each other thousands deep are read recursively, and a debug build, such as the one the
  /// build-tool plugin runs, takes tens of kilobytes of stack a level.
  ///
  /// A `$ref` to an absolute path is refused; with a `referenceRoot`, so is one to a file outside
  /// that folder tree. Neither file is opened.
  ///
  /// In AsyncAPI documents, a string whose `format` is one of `typedFormats` is read as its
  /// Swift type (``TypedFormat``); any other is a `String`. Their messages and schemas that
  /// `names` names take those Swift names; one that names nothing in any document is a warning
  /// where it is given.
  public static func load(
    _ sources: [SchemaSource], readFile: @escaping ReadFile = readFromDisk, referenceRoot: ReferenceRoot? = nil,
    typedFormats: Set<TypedFormat> = [], names: [ConfiguredName] = []
  ) -> SchemaLoadResult {
    DeepStack.run {
      loadHere(sources, readFile: readFile, scope: referenceRoot, typedFormats: typedFormats, names: names)
    }
  }

  private static func loadHere(
    _ sources: [SchemaSource], readFile: @escaping ReadFile, scope: ReferenceRoot?, typedFormats: Set<TypedFormat>,
    names: [ConfiguredName]
  ) -> SchemaLoadResult {
    var log = DiagnosticLog()
    // In the order the run lists them; `.events.yaml` files decoded first, so that an AsyncAPI
    // document's derived names give way to the names they declare (``NameTable``).
    var documents: [SchemaDocument?] = Array(repeating: nil, count: sources.count)
    var asyncAPI: [(index: Int, root: YAMLNode)] = []
    var table = NameTable()
    for (index, source) in sources.enumerated() {
      switch YAMLComposer(path: source.path).compose(source.bytes) {
      case .failure(let diagnostics):
        log.append(contentsOf: diagnostics)
      case .document(let root):
        if AsyncAPIDecoder.isAsyncAPI(root) {
          asyncAPI.append((index, root))
          continue
        }
        if SchemaFileNames.isAsyncAPI(source.path) {
          log.error(
            "this file is named as an AsyncAPI document but has no top-level `asyncapi:` key (such as `asyncapi: 3.0.0`)",
            at: root.location)
          continue
        }
        let (document, diagnostics) = SchemaDecoder.decode(root, path: source.path)
        log.append(contentsOf: diagnostics)
        let declared =
          document.events.map { ("event", $0.name) } + document.types.map { ("type", $0.name) }
          + document.groups.map { ("group", $0.name) } + document.externals.map { ("external type", $0) }
        for (kind, name) in declared { table.reserve(name.value, for: "\(kind) `\(name.value)`", at: name.location) }
        documents[index] = document
      }
    }
    var applied: Set<String> = []
    for (index, root) in asyncAPI {
      let decoded = AsyncAPIDecoder.decode(
        root, path: sources[index].path, readFile: readFile, scope: scope, typedFormats: typedFormats,
        configuredNames: names, names: &table)
      log.append(contentsOf: decoded.diagnostics)
      applied.formUnion(decoded.appliedNames)
      documents[index] = decoded.document
    }
    for name in names where !applied.contains(name.reference) {
      log.warning(
        "`names` gives `\(name.name)` to \(name.reference), which names no message or schema that becomes Swift in any document of the run; write it as a `$ref` from the document would be, such as `#/components/schemas/Name`",
        at: name.location)
    }
    let (schema, diagnostics) = SchemaValidator.validate(documents.compactMap { $0 })
    log.append(contentsOf: diagnostics)
    return SchemaLoadResult(schema: log.hasErrors ? nil : schema, diagnostics: log.sorted)
  }
}

/// Runs work that recurses as deep as its input on a thread whose stack is large enough for it.
enum DeepStack {
  /// The stack's size: address space reserved, of which only what the work touches is used.
  static let stackSize = 1 << 30

  /// What `body` returns, run on a new thread with a ``stackSize`` stack; the caller waits.
  static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
    let handoff = Handoff<T>()
    let thread = Thread {
      handoff.result = body()
      handoff.done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    handoff.done.wait()
    // The semaphore orders the worker's write before this read.
    guard let result = handoff.result else { return body() }
    return result
  }

  /// The result, passed from the worker thread to the waiting one.
  private final class Handoff<T>: @unchecked Sendable {
    var result: T?
    let done = DispatchSemaphore(value: 0)
  }
}

/// The folder tree whose files AsyncAPI documents may refer to with `$ref`: a build reads no
/// file outside the package it builds, and a document cannot make eventgen read `/etc/passwd`.
public struct ReferenceRoot: Sendable, Equatable {
  /// The folder, absolute and normalised.
  public let path: String
  /// The folder relative paths are read from.
  let workingDirectory: String
  /// Remote URL prefixes read from local folders instead, longest first: a build never touches
  /// the network, and a document that refers to `https://…/schemas/run_start.json` works unchanged
  /// with a vendored copy (`references:` in eventgen-config.yaml).
  public private(set) var mappedURLs: [MappedURL] = []

  /// A URL prefix and the folder, inside the root, that holds copies of what it names.
  public struct MappedURL: Sendable, Equatable {
    /// The prefix, such as `https://example.com/schemas/`.
    public var prefix: String
    /// The folder, absolute and normalised.
    public var folder: String
  }

  /// This root, reading URLs under each key of `urls` from the folder it maps to (relative to
  /// the current directory unless absolute).
  public func mapping(_ urls: [String: String]) -> ReferenceRoot {
    var copy = self
    copy.mappedURLs = urls.map { prefix, folder in
      MappedURL(
        prefix: prefix,
        folder: ReferenceResolver.normalised(folder.hasPrefix("/") ? folder : workingDirectory + "/" + folder))
    }
    .sorted { $0.prefix.count > $1.prefix.count || ($0.prefix.count == $1.prefix.count && $0.prefix < $1.prefix) }
    return copy
  }

  /// The local path of a remote `url`, when a mapped prefix covers it.
  func localPath(of url: String) -> String? {
    guard let mapped = mappedURLs.first(where: { url.hasPrefix($0.prefix) }) else { return nil }
    let rest = url.dropFirst(mapped.prefix.count).drop { $0 == "/" }
    return ReferenceResolver.normalised(mapped.folder + "/" + rest)
  }

  /// The folder at `path`, relative to the current directory unless absolute.
  public init(_ path: String) {
    workingDirectory = FileManager.default.currentDirectoryPath
    let absolute = path.hasPrefix("/") ? path : workingDirectory + "/" + path
    self.path = ReferenceResolver.normalised(absolute)
  }

  /// Whether the file at `file` (relative to the current directory unless absolute) is inside.
  func contains(_ file: String) -> Bool {
    let absolute = ReferenceResolver.normalised(file.hasPrefix("/") ? file : workingDirectory + "/" + file)
    return path == "/" || absolute.hasPrefix(path + "/")
  }
}
