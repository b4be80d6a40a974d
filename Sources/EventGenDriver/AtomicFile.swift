#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes files so that a reader — the compiler, an editor, a second run — sees the old bytes or
/// the new ones, never a mix, even when the process is killed mid-write or the machine loses power.
///
/// The bytes go to a temporary file in the same folder (a rename is atomic only within one file
/// system), are flushed to disk, and the file is renamed over the target; the caller then
/// flushes the folder once (``syncDirectory(_:)``) so that the renames survive a crash. Temporary names start with a dot and end
/// in ``temporarySuffix``, not `.swift`, so a file left by a killed run is never compiled, and
/// the next run removes it.
enum AtomicFile {
  /// The suffix of temporary files; ``isTemporary(_:)`` recognises them.
  static let temporarySuffix = ".eventgen-tmp"

  /// Whether `name` is a temporary file that a run of eventgen made (and may have left behind).
  static func isTemporary(_ name: String) -> Bool {
    name.hasPrefix(".") && name.hasSuffix(temporarySuffix)
  }

  /// The process that made the temporary file `name`, from its name.
  static func owner(ofTemporary name: String) -> pid_t? {
    // .<target>.<pid>-<random>.eventgen-tmp
    let stem = name.dropLast(temporarySuffix.count)
    guard let dot = stem.lastIndex(of: "."), let dash = stem[dot...].firstIndex(of: "-") else { return nil }
    return pid_t(stem[stem.index(after: dot)..<dash])
  }

  /// Whether process `pid` is alive.
  static func isRunning(_ pid: pid_t) -> Bool {
    // kill(0, …) would ask about the whole process group.
    pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
  }

  /// Stores `bytes` as `directory`/`name`, atomically.
  static func store(_ bytes: [UInt8], as name: String, in directory: String) throws(InputError) {
    let folder = directory.hasSuffix("/") ? directory : directory + "/"
    let target = folder + name
    let temporary = folder + ".\(name).\(getpid())-\(UInt32.random(in: 0...UInt32.max))\(temporarySuffix)"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw failure("cannot create a temporary file", path: temporary) }
    // A replaced file keeps its permissions (someone may have made generated files read-only).
    var existing = stat()
    if stat(target, &existing) == 0 { _ = fchmod(descriptor, existing.st_mode & 0o7777) }
    var written = 0
    while written < bytes.count {
      let result = bytes.withUnsafeBytes { buffer in
        write(descriptor, buffer.baseAddress.map { $0 + written }, bytes.count - written)
      }
      if result < 0 && errno == EINTR { continue }
      guard result > 0 else {
        let error =
          result == 0
          ? InputError("\(target): cannot write (the disk took no bytes)") : failure("cannot write", path: target)
        close(descriptor)
        unlink(temporary)
        throw error
      }
      written += result
    }
    // Closed whether or not the flush worked; the flush's error is the one to report.
    let flushError = fsync(descriptor) == 0 ? nil : failure("cannot flush to disk", path: target)
    let closeError = close(descriptor) == 0 ? nil : failure("cannot close", path: target)
    if let error = flushError ?? closeError {
      unlink(temporary)
      throw error
    }
    guard rename(temporary, target) == 0 else {
      let error = failure("cannot replace", path: target)
      unlink(temporary)
      throw error
    }
  }

  /// Flushes a folder's entries (a rename, a removal) to disk; best effort, as some file
  /// systems refuse to open folders for this.
  static func syncDirectory(_ directory: String) {
    let descriptor = open(directory, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    close(descriptor)
  }

  private static func failure(_ what: String, path: String) -> InputError {
    InputError("\(path): \(what) (\(String(cString: strerror(errno))))")
  }
}
