import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What tells one log file from another, and which offsets in it are positions, for
/// ``EventStore/storeIdentity()`` and ``EventStore/isPosition(_:)``.
extension EventLog {
  /// FNV-1a of the first line, or nil while the file has no whole line. Read anew each time,
  /// one block: a file replaced under the log gives its own.
  func firstLineDigest() -> String? {
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var block = [UInt8](repeating: 0, count: 4096)
    var offset: off_t = 0
    while true {
      let count = block.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }  // the end, or an error, before a line break
      for byte in block[..<count] {
        if byte == 0x0A { return String(hash, radix: 16) }
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
      offset += off_t(count)
    }
  }

  /// Whether `position` is 0, or within the file and just after a line break.
  func isLineBoundary(_ position: Position) throws -> Bool {
    guard position.offset > 0 else { return position.offset == 0 }
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return false }
      throw EventLogError.io(path: url.path, reason: "cannot open the log (\(String(cString: strerror(errno))))")
    }
    defer { close(descriptor) }
    var before: UInt8 = 0
    return pread(descriptor, &before, 1, off_t(position.offset - 1)) == 1 && before == 0x0A
  }
}
