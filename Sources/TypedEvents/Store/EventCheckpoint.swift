import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where a consumer stopped reading a store, kept across restarts.
public protocol EventCheckpoint: Sendable {
  /// The type of position saved: the store's.
  associatedtype Position: Hashable & Sendable & Codable

  /// The saved position, or nil before the first save.
  func load() async throws -> Position?

  /// Saves `position`; once this returns, ``load()`` gives it back, also after a crash.
  func save(_ position: Position) async throws
}

/// A checkpoint in a small JSON file, replaced atomically and synced on every save.
public final class FileCheckpoint<Position: Hashable & Sendable & Codable>: EventCheckpoint {
  /// The checkpoint file.
  public let url: URL

  /// A checkpoint in the file at `url`, created on the first save.
  public init(url: URL) {
    self.url = url
  }

  public func load() async throws -> Position? {
    guard let data = try? Data(contentsOf: url) else { return nil }
    do {
      try StrictJSON.check(data)
      return try JSONDecoder().decode(Position.self, from: data)
    } catch {
      throw EventLogError.malformed("\(url.path): not a checkpoint: \(error)")
    }
  }

  public func save(_ position: Position) async throws {
    let data = try JSONEncoder().encode(position)
    // Written beside the file, synced, then renamed over it: a crash leaves the old or the new
    // checkpoint, never half of one.
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID())")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw failure("cannot create \(temporary.path)") }
    let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    let synced = fsync(descriptor) == 0
    close(descriptor)
    guard written == data.count, synced, rename(temporary.path, url.path) == 0 else {
      let error = failure("cannot save the checkpoint")
      unlink(temporary.path)
      throw error
    }
    let directory = open(url.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
    if directory >= 0 {
      _ = fsync(directory)
      close(directory)
    }
  }

  private func failure(_ what: String) -> EventLogError {
    .io(path: url.path, reason: "\(what) (\(String(cString: strerror(errno))))")
  }
}
