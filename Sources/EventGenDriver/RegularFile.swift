#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads regular files, refusing the paths that make a plain read hang, trap or exhaust memory:
/// a FIFO (whose `open` blocks), a folder (Foundation's `FileHandle.readData` traps on it), a
/// device such as `/dev/zero` (which never ends), and anything larger than the caller allows.
enum RegularFile {
  /// Why a path could not be read.
  enum Failure: Error {
    /// `open` failed with this `errno`: ENOENT, ELOOP, EACCES…
    case cannotOpen(Int32)
    /// The path is a folder.
    case folder
    /// The path is a pipe, socket or device.
    case special
    /// The file holds this many bytes, more than the limit.
    case tooLarge(Int)
    /// The file grew past the limit while being read.
    case grew
    /// `read` failed with this `errno`.
    case cannotRead(Int32)
  }

  /// The whole file at `path`, which must be a regular file of at most `limit` bytes; reading
  /// stops one byte past the limit, so memory stays bounded even if the file grows meanwhile.
  static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
    let descriptor = try open(path)
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .cannotRead(errno) }
    let size = Int(status.st_size)
    guard size <= limit else { throw .tooLarge(size) }
    var bytes = [UInt8](repeating: 0, count: size + 1)
    var count = 0
    while true {
      count = try fill(&bytes, from: count, reading: descriptor)
      // Full: the file grew since fstat. Read on, one byte past the limit at most.
      guard count == bytes.count, count <= limit else { break }
      bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - count)))
    }
    guard count <= limit else { throw .grew }
    bytes.removeSubrange(count...)
    return bytes
  }

  /// Up to the first `count` bytes of the regular file at `path`: fewer when the file is shorter.
  static func head(_ path: String, count: Int) throws(Failure) -> [UInt8] {
    let descriptor = try open(path)
    defer { close(descriptor) }
    var head = [UInt8](repeating: 0, count: count)
    head.removeSubrange(try fill(&head, from: 0, reading: descriptor)...)
    return head
  }

  /// Reads from `descriptor` into `bytes` from `offset` until they are full or the file ends;
  /// how many bytes are filled then.
  private static func fill(_ bytes: inout [UInt8], from offset: Int, reading descriptor: Int32) throws(Failure) -> Int {
    var filled = offset
    while filled < bytes.count {
      let result = bytes.withUnsafeMutableBytes { buffer in
        Glibc_read(descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
      }
      if result < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      guard result >= 0 else { throw .cannotRead(errno) }
      if result == 0 { break }
      filled += result
    }
    return filled
  }

  /// Opens `path` for reading if it is a regular file. Non-blocking, so that a FIFO with no
  /// writer fails the type check instead of hanging the open.
  private static func open(_ path: String) throws(Failure) -> Int32 {
    let descriptor = Glibc_open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw .cannotOpen(errno) }
    var status = stat()
    let kind = fstat(descriptor, &status) == 0 ? status.st_mode & S_IFMT : 0
    guard kind == S_IFREG else {
      close(descriptor)
      throw kind == S_IFDIR ? .folder : .special
    }
    return descriptor
  }
}

// The C functions, named apart from `RegularFile.read` and `RegularFile.open`, which hide them
// inside the type.
private func Glibc_read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}

private func Glibc_open(_ path: String, _ flags: Int32) -> Int32 {
  open(path, flags)
}
