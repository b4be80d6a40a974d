import EventSchema
import Foundation

/// Where a run's files go.
public enum OutputDestination: Sendable, Equatable {
  /// A folder of generated files only (`eventgen generate`): files that an earlier run
  /// generated and this one does not are removed, and files eventgen did not write stop the run
  /// unless it is forced.
  case folder(String)
  /// One file among others (`eventgen asyncapi`): the run's only file is placed at this path,
  /// and no other file of its folder is changed (but for what killed runs left of this one's
  /// temporary files).
  case file(String)
}

/// What writing a run's files did.
public struct WriteSummary: Sendable, Equatable {
  /// Files created or changed, by name.
  public var written: [String] = []
  /// Files whose bytes were already right, left untouched (their modification time too).
  public var unchanged: [String] = []
  /// Files this tool generated earlier for inputs that are gone, now removed.
  public var removed: [String] = []
}

/// Writes a run's files, or compares them with what is on disk: the one place that decides
/// whether eventgen wrote a file (it carries ``GeneratedFileMarker`` near its start).
///
/// Each file is written atomically (``AtomicFile``) and only when its bytes change, so unchanged
/// files keep their modification time and a killed run leaves every file either as it was or
/// complete. A file eventgen did not write is never changed or removed.
public enum OutputWriter {
  /// Writes `files` to `destination`.
  ///
  /// A file at an output path that eventgen did not write stops the run before anything is
  /// written. In a ``OutputDestination/folder(_:)``, so does any other file eventgen did not
  /// write unless `force` is set (a mistyped `--output` must not mix generated and hand-written
  /// code), and generated files that this run does not write are removed.
  public static func write(
    _ files: [GeneratedFile], to destination: OutputDestination, force: Bool = false
  ) throws(InputError) -> WriteSummary {
    let placement = try Placement(files, destination)
    do {
      try FileManager.default.createDirectory(atPath: placement.directory, withIntermediateDirectories: true)
    } catch {
      throw InputError("\(placement.directory): cannot create the folder (\(error.localizedDescription))")
    }
    let entries = try listing(placement.directory)
    // In a folder of others' files, only this run's own temporary files are its business.
    let own = Set(placement.files.map { ".\($0.name)." })
    removeAbandonedTemporaryFiles(
      entries.filter { name in placement.ownsFolder || own.contains { name.hasPrefix($0) } }, in: placement)
    var current: [String: [UInt8]] = [:]
    var taken: [String] = []
    for file in placement.files {
      switch try existing(at: placement.path(file.name)) {
      case .none: break
      case .generated(let bytes): current[file.name] = bytes
      case .other(let why):
        taken.append(
          "\(placement.path(file.name)): \(why); move it away, eventgen never overwrites a file it did not write")
      }
    }
    guard taken.isEmpty else {
      throw InputError(taken.joined(separator: "\n"))
    }
    let stale = placement.ownsFolder ? try leftovers(of: placement, among: entries) : (generated: [], foreign: [])
    if !stale.foreign.isEmpty && !force {
      throw InputError(
        "\(placement.directory): holds files eventgen did not generate (\(stale.foreign.joined(separator: ", "))); choose a folder for generated code only, or pass --force"
      )
    }
    var summary = WriteSummary()
    for file in placement.files {
      let bytes = Array(file.contents.utf8)
      if current[file.name] == bytes {
        summary.unchanged.append(file.name)
        continue
      }
      try AtomicFile.store(bytes, as: file.name, in: placement.directory)
      summary.written.append(file.name)
    }
    for name in stale.generated {
      do {
        try FileManager.default.removeItem(atPath: placement.path(name))
      } catch {
        throw InputError(
          "\(placement.path(name)): cannot remove the stale generated file (\(error.localizedDescription))")
      }
      summary.removed.append(name)
    }
    if !summary.written.isEmpty || !summary.removed.isEmpty { AtomicFile.syncDirectory(placement.directory) }
    return summary
  }

  /// Compares `files` with `destination` without writing anything: one problem per stale file
  /// (a unified diff, or why eventgen cannot replace it), empty when `write` would change nothing.
  public static func check(
    _ files: [GeneratedFile], against destination: OutputDestination
  ) throws(InputError)
    -> [String]
  {
    let placement = try Placement(files, destination)
    var problems: [String] = []
    for file in placement.files {
      let target = placement.path(file.name)
      switch try existing(at: target) {
      case .none:
        problems.append(UnifiedDiff.diff(old: "", new: file.contents, oldName: "/dev/null", newName: target))
      case .other(let why):
        problems.append("\(target): \(why); move it away, eventgen never overwrites it\n")
      case .generated(let bytes):
        let current = String(decoding: bytes, as: UTF8.self)
        guard current != file.contents else { continue }
        let diff = UnifiedDiff.diff(old: current, new: file.contents, oldName: target, newName: target)
        // Lines alike, bytes not: the file lacks its final newline, or has one too many.
        problems.append(diff.isEmpty ? "\(target): differs only in its final newline; generate again\n" : diff)
      }
    }
    if placement.ownsFolder, FileManager.default.fileExists(atPath: placement.directory) {
      for name in try leftovers(of: placement, among: listing(placement.directory)).generated {
        problems.append(
          "\(placement.path(name)): generated earlier, but nothing generates it now (its schema is gone, or an older eventgen wrote it); generate again to remove it\n"
        )
      }
    }
    return problems
  }

  /// Whether the file at `path` is one that eventgen wrote: a regular file that carries the
  /// marker near its start. A folder or a FIFO is not (and neither traps nor hangs the check).
  private static func isGenerated(at path: String) -> Bool {
    guard let head = try? RegularFile.head(path, count: GeneratedFileMarker.headBytes) else { return false }
    return GeneratedFileMarker.isPresent(inHeadOf: head)
  }

  /// The run's files and where each goes.
  private struct Placement {
    var directory: String
    var files: [GeneratedFile]
    /// Whether the folder holds generated files only (``OutputDestination/folder(_:)``).
    var ownsFolder: Bool

    init(_ files: [GeneratedFile], _ destination: OutputDestination) throws(InputError) {
      switch destination {
      case .folder(let folder):
        directory = folder
        self.files = files
        ownsFolder = true
      case .file(let path):
        guard files.count == 1, var file = files.first else {
          throw InputError("\(path): the run renders \(files.count) files; give a folder for them")
        }
        let slash = path.lastIndex(of: "/")
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { throw InputError("\(path): give the path of a file, not of a folder") }
        let folder = slash.map { String(path[..<$0]) } ?? "."
        directory = folder.isEmpty ? "/" : folder
        file.name = name
        self.files = [file]
        ownsFolder = false
      }
    }

    func path(_ name: String) -> String {
      directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
  }

  /// What is at an output path.
  private enum Existing {
    case none
    /// A file eventgen wrote, with its bytes.
    case generated([UInt8])
    /// Something eventgen did not write, and why it is not eventgen's.
    case other(String)
  }

  private static func existing(at path: String) throws(InputError) -> Existing {
    do {
      // Known by its head first: a file that is not eventgen's is never read whole.
      let head = try RegularFile.head(path, count: GeneratedFileMarker.headBytes)
      guard GeneratedFileMarker.isPresent(inHeadOf: head) else { return .other("exists but eventgen did not write it") }
      return .generated(try RegularFile.read(path, limit: .max - 1))
    } catch {
      switch error {
      case .cannotOpen(let code) where code == ENOENT: return .none
      case .folder: return .other("is a folder")
      case .special: return .other("is not a regular file (a pipe, socket or device)")
      case .tooLarge, .grew: return .other("changed while it was read")
      case .cannotOpen(let code), .cannotRead(let code):
        throw InputError("\(path): cannot read the file (\(String(cString: strerror(code))))")
      }
    }
  }

  /// In a folder of generated files, the files that the run does not write, sorted: those
  /// eventgen generated (to remove) and the others (which stop the run unless forced). Only
  /// files with the extension of the run's own are looked at.
  private static func leftovers(
    of placement: Placement, among entries: [String]
  ) throws(InputError) -> (
    generated: [String], foreign: [String]
  ) {
    let planned = Set(placement.files.map(\.name))
    let extensions = Set(placement.files.compactMap { fileExtension($0.name) })
    var generated: [String] = []
    var foreign: [String] = []
    for name in entries.sorted() where !planned.contains(name) {
      guard let suffix = fileExtension(name), extensions.contains(suffix) else { continue }
      if isGenerated(at: placement.path(name)) { generated.append(name) } else { foreign.append(name) }
    }
    return (generated, foreign)
  }

  /// `.swift` of `A.events.swift`; nil without a dot.
  private static func fileExtension(_ name: String) -> Substring? {
    name.lastIndex(of: ".").map { name[$0...] }
  }

  private static func listing(_ directory: String) throws(InputError) -> [String] {
    do {
      return try FileManager.default.contentsOfDirectory(atPath: directory)
    } catch {
      throw InputError("\(directory): cannot list the folder (\(error.localizedDescription))")
    }
  }

  /// Removes the temporary files of runs that were killed before renaming them; those of a run
  /// still going (two runs into one folder) are left alone.
  private static func removeAbandonedTemporaryFiles(_ entries: [String], in placement: Placement) {
    for name in entries where AtomicFile.isTemporary(name) {
      if let owner = AtomicFile.owner(ofTemporary: name), AtomicFile.isRunning(owner) { continue }
      try? FileManager.default.removeItem(atPath: placement.path(name))
    }
  }
}
