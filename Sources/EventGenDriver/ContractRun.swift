import ContractExport
import EventSchema
import Foundation

/// `eventgen asyncapi` and `eventgen json-schema`: from schema paths to one contract document
/// on disk, written or compared as `generate` and `check` do with Swift.
public enum ContractRun {
  /// What a run would write, or the diagnostics that stop it.
  public struct Plan: Sendable {
    /// The document's text; nil when a schema has errors.
    public var document: String?
    /// The run's diagnostics, sorted.
    public var diagnostics: [Diagnostic]
    /// The schema files read, as found.
    public var schemaFiles: [String]
    /// How many events the document describes.
    public var eventCount: Int
  }

  /// Reads and validates the schemas that `paths` name (files, or folders searched for
  /// `*.events.yaml`, as `generate` takes them) and renders the document in `format`.
  public static func plan(
    _ paths: [String], format: ContractFormat, title: String? = nil, version: String? = nil
  ) throws(InputError) -> Plan {
    let files = try InputFiles.discover(paths)
    guard !files.isEmpty else {
      throw InputError("no schema files (\(InputFiles.searchedFor)) found in \(paths.joined(separator: ", "))")
    }
    let result = SchemaLoader.load(try InputFiles.read(files), readFile: InputFiles.readReferencedFile)
    guard let schema = result.schema else {
      return Plan(document: nil, diagnostics: result.diagnostics, schemaFiles: files, eventCount: 0)
    }
    let document = ContractExporter(schema).document(format, title: title, version: version)
    return Plan(
      document: document, diagnostics: result.diagnostics, schemaFiles: files, eventCount: schema.allEvents.count)
  }

  /// Writes `document` to `path` atomically (``AtomicFile``) and only when its bytes change, so
  /// that an unchanged file keeps its modification time; whether it was written. Missing
  /// folders are created. An existing file that eventgen did not write (it lacks
  /// ``ContractExporter/marker``) is never overwritten.
  public static func write(_ document: String, to path: String) throws(InputError) -> Bool {
    let (directory, name) = split(path)
    guard !name.isEmpty else { throw InputError("\(path): give the path of a file, not of a folder") }
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw InputError("\(directory): cannot create the folder (\(error.localizedDescription))")
    }
    removeAbandonedTemporaryFiles(of: name, in: directory)
    let bytes = Array(document.utf8)
    if let existing = try existingDocument(at: path) {
      if existing == bytes { return false }
      guard isGenerated(existing) else {
        throw InputError(
          "\(path): exists but eventgen did not write it; move it away, eventgen never overwrites a file it did not write"
        )
      }
    }
    try AtomicFile.store(bytes, as: name, in: directory)
    AtomicFile.syncDirectory(directory)
    return true
  }

  /// Compares `document` with the file at `path` without writing anything: a unified diff when
  /// it is missing or differs (the same staleness check `eventgen check` makes for Swift), nil
  /// when it is current.
  public static func check(_ document: String, against path: String) throws(InputError) -> String? {
    guard let existing = try existingDocument(at: path) else {
      return UnifiedDiff.diff(old: "", new: document, oldName: "/dev/null", newName: path)
    }
    guard isGenerated(existing) else {
      return "\(path): exists but eventgen did not write it; move it away, eventgen never overwrites it\n"
    }
    let current = String(decoding: existing, as: UTF8.self)
    guard current != document else { return nil }
    return UnifiedDiff.diff(old: current, new: document, oldName: path, newName: path)
  }

  /// Documents are far below this; a larger file at the output path is not one.
  static let maximumDocumentSize = 64 << 20

  /// The bytes of the file at `path`, or nil when there is none.
  private static func existingDocument(at path: String) throws(InputError) -> [UInt8]? {
    do {
      return try RegularFile.read(path, limit: maximumDocumentSize)
    } catch {
      switch error {
      case .cannotOpen(let code) where code == ENOENT: return nil
      case .folder: throw InputError("\(path): is a folder; give the path of the document to write")
      case .special: throw InputError("\(path): is not a regular file (a pipe, socket or device)")
      case .tooLarge, .grew: throw InputError("\(path): is larger than any document eventgen writes; move it away")
      case .cannotOpen(let code), .cannotRead(let code):
        throw InputError("\(path): cannot read the file (\(String(cString: strerror(code))))")
      }
    }
  }

  private static func isGenerated(_ bytes: [UInt8]) -> Bool {
    String(decoding: bytes, as: UTF8.self).contains(ContractExporter.marker)
  }

  /// The folder and the file name of `path`.
  private static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }

  /// Removes what killed runs left of `name`'s temporary files; a live run's are left alone.
  private static func removeAbandonedTemporaryFiles(of name: String, in directory: String) {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    for entry in entries where entry.hasPrefix(".\(name).") && AtomicFile.isTemporary(entry) {
      if let owner = AtomicFile.owner(ofTemporary: entry), AtomicFile.isRunning(owner) { continue }
      try? FileManager.default.removeItem(atPath: directory + "/" + entry)
    }
  }
}
