import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where a consumer stopped reading a store, kept across restarts.
public protocol EventCheckpoint<Position>: Sendable {
  /// The type of position saved: the store's.
  associatedtype Position: Hashable & Sendable & Codable

  /// The saved position, or nil before the first save.
  func load() async throws -> Position?

  /// Saves `position`; once this returns, ``load()`` gives it back, also after a crash.
  func save(_ position: Position) async throws

  /// Records, between two ``save(_:)``s, that the event at `position` has been handled, as
  /// cheaply as the checkpoint can: a reader calls it after every event, so it should not wait
  /// for a disk (``FileCheckpoint`` does once, when the note is its first save). A later ``load()`` gives `position` back when the record survived, so that a
  /// reader restarted after a crash does not deliver that event again.
  ///
  /// The default keeps nothing: a reader then delivers again, after a crash, what was handled
  /// since the last save. ``FileCheckpoint`` keeps it across a crash of the process, not of
  /// the machine.
  func noteHandled(_ position: Position) async throws
}

extension EventCheckpoint {
  /// Keeps nothing: see ``EventCheckpoint/noteHandled(_:)``.
  public func noteHandled(_ position: Position) async throws {}
}

/// A checkpoint in a small JSON file, replaced atomically and synced on every save.
///
/// Between saves, ``noteHandled(_:)`` writes the position of each handled event to a second
/// file beside it (`.NAME.handled`) in one `pwrite`, without syncing it: it survives a crash of
/// the process, which is the usual crash, and ``load()`` gives it back when it names the saved
/// position as the one it goes on from. After a crash of the machine it may be lost, and the
/// events since the last save come again. A note on a checkpoint never saved is its first save
/// (synced, once in the checkpoint's life), so a reader stopped before its first save does not
/// start over. Every save empties the `.handled` file first, so a record never outlives the
/// save it goes on from, even when a later save names the same position. The two files are
/// one checkpoint, changed by one reader at a time: to start over, delete the checkpoint file
/// (or both) while no reader runs; to restore a backup, restore the checkpoint file and delete
/// the `.handled` one (the events since the save come again).
public final class FileCheckpoint<Position: Hashable & Sendable & Codable>: EventCheckpoint {
  /// The checkpoint file.
  public let url: URL
  /// The file of the last event handled since the last save.
  let handledURL: URL
  /// The position in the checkpoint file as this object last read or wrote it: `.some(nil)`
  /// for no file, nil before it has looked.
  private let saved = Locked<Position??>(nil)
  /// The open file of notes, kept open between calls: a reader notes every event, and opening
  /// it each time cost more than writing to it.
  private let notes = Locked(NoteFile())
  /// Shared by every note: making an encoder costs more than encoding a position.
  private let encoder = JSONEncoder()

  /// The file of notes while it is open, and what this object knows of it.
  private struct NoteFile {
    var descriptor: Int32 = -1
    /// The longest record the file holds: a shorter one is padded to it.
    var length = 0
    /// The `"after"` member of the records, for the saved position they go on from.
    var after: (position: Position, json: [UInt8])?
  }

  /// `position` as JSON that `JSONDecoder` reads back: written directly for the positions this
  /// package's readers note, a `String` token and an `EventLog.Position` (encoding them took
  /// most of a note's time), else by `JSONEncoder`.
  private func json(_ position: Position) throws -> [UInt8] {
    if let text = position as? String {
      var json: [UInt8] = []
      EventEnvelope.appendJSONString(text, to: &json)
      return json
    }
    if let offset = (position as? EventLog.Position)?.offset {
      return Array(#"{"offset":\#(offset)}"#.utf8)
    }
    return Array(try encoder.encode(position))
  }

  /// What ``noteHandled(_:)`` writes: valid only while the checkpoint file holds `after`.
  private struct Handled: Codable {
    var after: Position
    var position: Position
  }

  /// A checkpoint in the file at `url`, created on the first save.
  public init(url: URL) {
    self.url = url
    handledURL = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).handled")
  }

  deinit {
    let descriptor = notes.withLock { $0.descriptor }
    if descriptor >= 0 { close(descriptor) }
  }

  /// The position of the last event handled: the one ``noteHandled(_:)`` recorded after the
  /// saved position when that record survived, else the saved position; nil before the first
  /// save, whatever the other file holds.
  public func load() async throws -> Position? {
    let loaded = try loadSaved()
    saved.withLock { $0 = .some(loaded) }
    guard let position = loaded else { return nil }
    // A record of a later handled event is used only if it goes on from the saved position; a
    // torn or stale record (a crash of the machine, a later save) is not.
    if let data = try? Data(contentsOf: handledURL), (try? StrictJSON.check(data)) != nil,
      let handled = try? JSONDecoder().decode(Handled.self, from: data), handled.after == position
    {
      return handled.position
    }
    return position
  }

  /// The position in the checkpoint file.
  private func loadSaved() throws -> Position? {
    guard let data = try? Data(contentsOf: url) else { return nil }
    do {
      try StrictJSON.check(data)
      return try JSONDecoder().decode(Position.self, from: data)
    } catch {
      throw EventLogError.malformed("\(url.path): not a checkpoint: \(error)")
    }
  }

  /// Writes `position` to the file beside the checkpoint, replacing what it held, without
  /// syncing: one `pwrite` the kernel keeps if the process dies after it. On a checkpoint never
  /// saved, the note is its first save instead, synced.
  public func noteHandled(_ position: Position) async throws {
    let after: Position?
    if let known = saved.withLock({ $0 }) {
      after = known
    } else {
      after = try loadSaved()
      saved.withLock { $0 = .some(after) }
    }
    // Before the first save there is no position for a record to go on from: the note is the
    // first save, so a reader stopped before its own first save does not start over.
    guard let after else { return try await save(position) }
    // The record `{"after":…,"position":…}` that `Handled` decodes, with the saved position's
    // JSON encoded once a save.
    let cached = notes.withLock { $0.after }
    let afterJSON: [UInt8]
    if let cached, cached.position == after {
      afterJSON = cached.json
    } else {
      afterJSON = try json(after)
    }
    var record = Array(#"{"after":"#.utf8)
    record.reserveCapacity(afterJSON.count * 2 + 24)
    record += afterJSON
    record += #","position":"#.utf8
    record += try json(position)
    record.append(UInt8(ascii: "}"))
    try notes.withLock { file in
      file.after = (after, afterJSON)
      if file.descriptor < 0 {
        file.descriptor = open(handledURL.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard file.descriptor >= 0 else { throw failure("cannot write \(handledURL.path)") }
        var info = stat()
        file.length = fstat(file.descriptor, &info) == 0 ? Int(info.st_size) : 0
      }
      // One `pwrite` over the whole file, never a truncation: a process dies before a system
      // call or after it, so the file holds the old record or the new one. A shorter record is
      // padded with spaces, which JSON allows after a value.
      if file.length > record.count {
        record.append(contentsOf: repeatElement(UInt8(ascii: " "), count: file.length - record.count))
      }
      let written = record.withUnsafeBytes { pwrite(file.descriptor, $0.baseAddress, $0.count, 0) }
      guard written == record.count else { throw failure("cannot write \(handledURL.path)") }
      file.length = record.count
    }
  }

  public func save(_ position: Position) async throws {
    let data = Data(try json(position))
    // Written beside the file, synced, then renamed over it: a crash leaves the old or the new
    // checkpoint, never half of one.
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID())")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw failure("cannot create \(temporary.path)") }
    let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    let synced = fsync(descriptor) == 0
    close(descriptor)
    // The notes go on from the save being replaced: emptied before the rename, so that a crash
    // between the two leaves the old checkpoint without them (repeats, never a skip), and so
    // that no record left by a checkpoint deleted to start over names this save if it is the
    // same position. After the sync, not before: a process killed while the sync waits for the
    // disk (milliseconds) kept its notes, and only the two system calls between lose them.
    do {
      guard written == data.count, synced else { throw failure("cannot save the checkpoint") }
      try forgetNotes()
      guard rename(temporary.path, url.path) == 0 else { throw failure("cannot save the checkpoint") }
    } catch {
      unlink(temporary.path)
      throw error
    }
    let directory = open(url.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
    if directory >= 0 {
      _ = fsync(directory)
      close(directory)
    }
    // The record of handled events now names an older save, so `load()` passes over it.
    saved.withLock { $0 = .some(position) }
  }

  /// Empties the file of notes: truncated while this object holds it open, else removed.
  private func forgetNotes() throws {
    try notes.withLock { file in
      if file.descriptor >= 0 {
        guard ftruncate(file.descriptor, 0) == 0 else { throw failure("cannot empty \(handledURL.path)") }
        file.length = 0
      } else if unlink(handledURL.path) != 0 && errno != ENOENT {
        throw failure("cannot remove \(handledURL.path)")
      }
    }
  }

  private func failure(_ what: String) -> EventLogError {
    .io(path: url.path, reason: "\(what) (\(String(cString: strerror(errno))))")
  }
}
