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
  /// What a folder is searched for, as the "no schema files" errors say it.
  public static let searchedFor = SchemaFileNames.inputSuffixes.map { "*" + $0 }.joined(separator: ", ")
  /// Files larger than this are refused rather than read. It is 64 MiB: more than twice the
  /// AsyncAPI document `eventgen asyncapi` writes for 10,000 events (27 MB), so that eventgen
  /// reads back what it writes, and far below what a run can hold in memory.
  public static let maximumFileSize = 64 << 20

  /// The schema files named by `paths`: files as given, folders searched recursively for
  /// `*.events.yaml` and AsyncAPI documents (`*.asyncapi.yaml`, `*.asyncapi.yml`,
  /// `*.asyncapi.json`). They are sorted by file name, then path, so that a run depends neither on
  /// directory order nor on the order of the arguments.
  public static func discover(_ paths: [String], fileManager: FileManager = .default) throws(InputError) -> [String] {
    var result: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
        // A link whose target does not resolve (missing, or a loop): `read` says which.
        var status = stat()
        if lstat(path, &status) == 0 {
          result.append(path)
          continue
        }
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
      for case let url as URL in enumerator where SchemaFileNames.isInput(url.lastPathComponent) {
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

  /// Reads the files at `paths`, refusing with a clear error anything that is not a readable
  /// regular file of at most ``maximumFileSize`` bytes: a folder, a FIFO (whose `open` would
  /// block), a device such as `/dev/zero` (which never ends), a symbolic-link loop.
  ///
  /// The size is checked on the opened file, after following links, and reading stops one byte
  /// past the limit, so memory stays bounded even for a file that grows while it is read.
  public static func read(_ paths: [String]) throws(InputError) -> [SchemaSource] {
    var sources: [SchemaSource] = []
    sources.reserveCapacity(paths.count)
    for path in paths {
      sources.append(SchemaSource(path: path, bytes: try readFile(at: path)))
    }
    return sources
  }

  /// Reads a file an AsyncAPI document refers to, with the same checks and limit as an input.
  public static let readReferencedFile: SchemaLoader.ReadFile = { path in try readFile(at: path) }

  private static func readFile(at path: String) throws(InputError) -> [UInt8] {
    do {
      return try RegularFile.read(path, limit: maximumFileSize)
    } catch {
      switch error {
      case .cannotOpen(let code): throw InputError("\(path): \(openFailure(code))")
      case .folder: throw InputError("\(path): is a folder, not a schema file")
      case .special: throw InputError("\(path): is not a regular file (a pipe, socket or device); give a schema file")
      case .tooLarge(let size):
        throw InputError(
          "\(path): the file is \(size) bytes; schema files are limited to \(maximumFileSize >> 20) MiB (\(maximumFileSize) bytes)"
        )
      case .grew:
        throw InputError(
          "\(path): the file grew past \(maximumFileSize >> 20) MiB while being read; schema files are limited to \(maximumFileSize >> 20) MiB"
        )
      case .cannotRead(let code): throw InputError("\(path): cannot read the file (\(describe(code)))")
      }
    }
  }

  private static func openFailure(_ code: Int32) -> String {
    switch code {
    case ENOENT: "no such file or directory"
    case ELOOP: "a loop of symbolic links"
    case EACCES: "permission denied; the file must be readable"
    default: "cannot open the file (\(describe(code)))"
    }
  }

  private static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
