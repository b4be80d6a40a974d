import EventSchema
import Foundation

/// A problem with the files of a run that is not a schema error: the CLI exits 2 for these.
public struct InputError: Error, CustomStringConvertible, Equatable {
  /// What went wrong, naming the path.
  public var description: String

  /// Creates an error.
  public init(_ description: String) {
    self.description = description
  }
}

/// Finds and reads the schema files of a run.
public enum InputFiles {
  /// The suffix that marks a schema file inside a folder.
  public static let schemaSuffix = ".events.yaml"
  /// Files larger than this are refused rather than read: no schema is anywhere near it.
  public static let maximumFileSize = 8 << 20

  /// The schema files named by `paths`: files as given, folders searched recursively for
  /// `*.events.yaml`. They are sorted by file name, then path, so that a run depends neither on
  /// directory order nor on the order of the arguments.
  public static func discover(_ paths: [String], fileManager: FileManager = .default) throws(InputError) -> [String] {
    var result: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw InputError("\(path): no such file or directory")
      }
      guard isDirectory.boolValue else {
        result.append(path)
        continue
      }
      var found: [String] = []
      let root = URL(fileURLWithPath: path)
      guard let enumerator = fileManager.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
        throw InputError("\(path): cannot list the folder")
      }
      for case let url as URL in enumerator where url.lastPathComponent.hasSuffix(schemaSuffix) {
        let relative = url.path.dropFirst(root.path.count).drop { $0 == "/" }
        found.append(path.hasSuffix("/") ? path + relative : path + "/" + relative)
      }
      result.append(contentsOf: found)
    }
    var seen = Set<String>()
    return result.filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.path).inserted }
      .map { (name: $0.split(separator: "/").last ?? "", path: $0) }
      .sorted { ($0.name, $0.path) < ($1.name, $1.path) }
      .map(\.path)
  }

  /// Reads the files at `paths`.
  public static func read(_ paths: [String]) throws(InputError) -> [SchemaSource] {
    var sources: [SchemaSource] = []
    for path in paths {
      let attributes: [FileAttributeKey: Any]
      do {
        attributes = try FileManager.default.attributesOfItem(atPath: path)
      } catch {
        throw InputError("\(path): cannot read the file (\(error.localizedDescription))")
      }
      if attributes[.type] as? FileAttributeType == .typeDirectory {
        throw InputError("\(path): is a folder, not a schema file")
      }
      if let size = attributes[.size] as? Int, size > maximumFileSize {
        throw InputError("\(path): the file is \(size >> 20) MiB; schema files are limited to \(maximumFileSize >> 20) MiB")
      }
      guard let data = FileManager.default.contents(atPath: path) else {
        throw InputError("\(path): cannot read the file")
      }
      sources.append(SchemaSource(path: path, bytes: Array(data)))
    }
    return sources
  }
}
