import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An append-only log of events in a JSON Lines file: one envelope per line,
/// `{"id":…,"metadata":{…},"name":…,"subject":…,"time":…,"version":…,"payload":{…}}`.
///
/// ### Durability
///
/// With ``Durability-swift.enum/fsyncEachAppend`` (the default) every `append` returns only after
/// an `fsync` that covers what it wrote: that survives a crash of the machine. With
/// ``Durability-swift.enum/operatingSystem`` `append` returns after `write`: the events survive
/// the process crashing, not the machine.
///
/// ### Appending from async code
///
/// An `await`ed append (``append(contentsOf:)-6y0ri``, ``appendOnce(_:)``, the ``EventStore``
/// methods) does its file I/O on the log's own writer thread, never on Swift's cooperative
/// pool: a slow disk holds that thread, not the process's tasks. Appends that arrive while the
/// writer syncs wait together and share the next `write` and `fsync` (group commit), in the
/// order they arrived; each returns after the `fsync` that covers its lines. So concurrent
/// writers share the disk's sync rate instead of each paying for one. A batch is one call and
/// is written whole, with one `fsync`. The thread starts with the object's first `await`ed
/// append and ends once the object is released. A task that appends one event after another
/// can run on it (``writerExecutor``), so that no other thread wakes for each append.
///
/// The synchronous `append` methods, for code that is not async, write and sync on the calling
/// thread; they are unavailable from async code, which gets the `await`ed ones.
///
/// ### Writers
///
/// Appends are whole lines, each batch one `write` to a file opened with `O_APPEND`, so that two
/// logs or two processes appending to one file never overwrite each other's lines. A crash
/// mid-write leaves at most a torn last line, which reading reports and skips; earlier lines are
/// never lost, and the next append starts a new line. The log keeps the file open from its first
/// append until it is released: move or replace the file only while no log appends to it.
///
/// ### Reading
///
/// Reading and replaying stream the file in 64 KiB reads: memory stays bounded by the longest
/// line, whatever the size of the log. A ``Position`` is the byte offset of a line, so a reader
/// that kept one goes on from there without reading what comes before.
public final class EventLog: Sendable {
  /// When an append counts as done.
  public enum Durability: Sendable, Hashable {
    /// `fsync` after every append (every call; a batch is one call): the default.
    case fsyncEachAppend
    /// No `fsync`: the operating system writes the file when it chooses.
    case operatingSystem
  }

  /// Where a line of the log begins: its byte offset in the file.
  public struct Position: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The byte offset.
    public var offset: Int64

    /// The position at byte `offset`.
    public init(offset: Int64) {
      self.offset = offset
    }

    /// The beginning of the log.
    public static let start = Position(offset: 0)

    public static func < (lhs: Position, rhs: Position) -> Bool { lhs.offset < rhs.offset }

    public var description: String { "byte \(offset)" }
  }

  /// An envelope read from the log, with where its line begins.
  public struct Entry: Sendable, Hashable {
    /// Where the envelope's line begins.
    public var position: Position
    /// The envelope.
    public var envelope: EventEnvelope
  }

  /// A line of the log that could not be read, and why.
  public struct Problem: Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line number, counted from where reading began.
    public var line: Int
    /// Where the line begins.
    public var position: Position
    /// Why it was skipped.
    public var reason: String

    public var description: String { "line \(line): \(reason)" }
  }

  /// The log file.
  public let url: URL
  /// When an append counts as done.
  public let durability: Durability
  private let descriptor = Locked<Int32>(-1)
  /// The file's size just after this object's last whole write, whose last byte is a line
  /// break; -1 when unknown. While the file still has that size, no one else has written since,
  /// and the torn-line check reads nothing (`writeLines`).
  private let endWritten = Locked<off_t>(-1)
  /// The source and id of every envelope up to a position, for ``appendOnce(_:)``; read from the
  /// file on the first call.
  let identities = Locked(IdentityIndex())
  /// Readers waiting in `waitForEnvelopes`, woken by this instance's appends.
  let appendWaiters = Locked(AppendWaiters())
  /// The thread that writes and syncs `await`ed appends. Not API: tests watch its lifetime.
  @_spi(Testing) public let writer = LogWriter()

  /// The log's writer thread as a task executor, for a task that appends one event after
  /// another.
  ///
  /// Each `await`ed append is handed to the writer thread, which writes and syncs it, and the
  /// task is then resumed on a thread of Swift's pool: where that thread sleeps, it must be
  /// woken, on every append of a one-writer loop. Run such a loop on the writer thread and the
  /// task is resumed where its append was written (BENCHMARKS-WRITES.md measures both ways):
  /// ```swift
  /// try await withTaskExecutorPreference(log.writerExecutor) {
  ///   for event in events { try await log.append(event) }
  /// }
  /// ```
  /// Appends of other tasks still share its `fsync`s. The thread writes and syncs between the
  /// jobs it runs, so code run there delays every append of the log: run there what appends,
  /// and the rest elsewhere (child tasks, `async let` included, inherit the preference). Once
  /// the log is released and its thread has ended, a task that still prefers it goes on in
  /// Swift's global executor.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  public var writerExecutor: some TaskExecutor { writer }

  /// Syncs the file's descriptor: `fsync`, or a test's stand-in for a slow disk.
  let syncFile: @Sendable (Int32) -> Int32

  /// A log at `url`; the file is created on the first append.
  public convenience init(url: URL, durability: Durability = .fsyncEachAppend) {
    self.init(url: url, durability: durability, syncFile: { fsync($0) })
  }

  /// A log whose appends sync with `syncFile` instead of `fsync`: tests make a disk slow with it.
  /// Not API: for the project's tests, which also run from a package of their own.
  @_spi(Testing) public init(url: URL, durability: Durability, syncFile: @escaping @Sendable (Int32) -> Int32) {
    self.url = url
    self.durability = durability
    self.syncFile = syncFile
    writer.attach(self)
  }

  deinit {
    writer.stop()
    descriptor.withLock { if $0 >= 0 { close($0) } }
  }

  // MARK: Appending

  /// Appends `event` with a new id, writing and syncing on the calling thread.
  @available(*, noasync, message: "await the async append, which does its I/O off the cooperative pool")
  @discardableResult
  public func append<E: Event>(
    _ event: E, time: Date = Date(), metadata: [String: EventAttributeValue] = [:]
  ) throws
    -> EventEnvelope
  {
    let envelope = try EventEnvelope(event, time: time, metadata: metadata)
    try writeLines(Self.line(for: envelope))
    wakeReaders()
    return envelope
  }

  /// Appends `event` with a new id, on the log's writer thread; returns after the `fsync` that
  /// covers it.
  @discardableResult
  public func append<E: Event>(
    _ event: E, time: Date = Date(), metadata: [String: EventAttributeValue] = [:]
  ) async throws
    -> EventEnvelope
  {
    let envelope = try EventEnvelope(event, time: time, metadata: metadata)
    _ = try await submit([(Self.line(for: envelope), envelope)], kind: .every)
    return envelope
  }

  /// Appends an envelope as one line, writing and syncing on the calling thread.
  ///
  /// - Throws: ``EventLogError/malformed(_:)`` for an envelope that ``EventEnvelope/validate()``
  ///   refuses (nothing is written), ``EventLogError/io(path:reason:)`` when writing fails.
  @available(*, noasync, message: "await the async append, which does its I/O off the cooperative pool")
  public func append(_ envelope: EventEnvelope) throws {
    try append(contentsOf: [envelope])
  }

  /// Appends an envelope as one line, on the log's writer thread; returns after the `fsync` that
  /// covers it.
  ///
  /// - Throws: ``EventLogError/malformed(_:)`` for an envelope that ``EventEnvelope/validate()``
  ///   refuses (nothing is written), ``EventLogError/io(path:reason:)`` when writing fails.
  public func append(_ envelope: EventEnvelope) async throws {
    try await append(contentsOf: [envelope])
  }

  /// Appends envelopes in order, with one `write` and, by default, one `fsync`, on the calling
  /// thread.
  ///
  /// Every envelope is validated first: when one is refused, none is written.
  @available(*, noasync, message: "await the async append, which does its I/O off the cooperative pool")
  public func append(contentsOf envelopes: some Sequence<EventEnvelope>) throws {
    let lines = try checkedLines(envelopes, validating: true)
    guard !lines.isEmpty else { return }
    try writeLines(lines.reduce(into: Data()) { $0.append($1.line) })
    wakeReaders()
  }

  /// Appends envelopes in order, on the log's writer thread, with one `write` and one `fsync`
  /// that appends made at the same moment share; returns after that `fsync`.
  ///
  /// Every envelope is validated first, on the calling task: when one is refused, none is
  /// written. Once handed to the writer, an append is made even if the task is cancelled.
  public func append(contentsOf envelopes: some Sequence<EventEnvelope>) async throws {
    let lines = try checkedLines(envelopes, validating: true)
    if !lines.isEmpty { _ = try await submit(lines, kind: .every) }
  }

  /// Each envelope, validated unless the caller has (``ValidatedEnvelopesAppending``), with its
  /// line.
  func checkedLines(
    _ envelopes: some Sequence<EventEnvelope>, validating: Bool
  ) throws -> [(line: Data, envelope: EventEnvelope)] {
    try envelopes.map { envelope in
      if validating {
        try envelope.validate()
      } else {
        envelope.assertValid()
      }
      return (try Self.line(for: envelope), envelope)
    }
  }

  /// Writes `lines` at the end of the file, after a newline when a torn line ends it, and syncs
  /// them unless the durability says not to; on the writer thread or a synchronous caller's.
  func writeLines(_ lines: Data) throws {
    try descriptor.withLock { descriptor in
      if descriptor < 0 { descriptor = try openForAppending() }
      var lines = lines
      // After a torn line, start a fresh one so the new event is not glued to it. The last
      // byte is read only when someone else may have written it: the read marks the file's
      // access time, which cost a quarter of an append without fsync.
      var info = stat()
      guard fstat(descriptor, &info) == 0 else { throw failure("cannot read the log's size") }
      let known = endWritten.withLock { end in
        defer { end = -1 }  // until this write is whole
        return end
      }
      if info.st_size > 0 && info.st_size != known {
        var last: UInt8 = 0
        if pread(descriptor, &last, 1, off_t(info.st_size - 1)) == 1, last != 0x0A { lines.insert(0x0A, at: 0) }
      }
      // O_APPEND: each write goes to the end of the file as it is then.
      try lines.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        var written = 0
        while written < buffer.count {
          let result = write(descriptor, base + written, buffer.count - written)
          if result < 0 {
            if errno == EINTR { continue }
            throw failure("cannot write the log")
          }
          written += result
        }
      }
      // Where the file ends if no one else wrote meanwhile; if someone did, its size differs.
      if lines.last == 0x0A { endWritten.withLock { $0 = info.st_size + off_t(lines.count) } }
      if durability == .fsyncEachAppend, syncFile(descriptor) != 0 { throw failure("cannot fsync the log") }
    }
  }

  /// Syncs what the file holds, as an append's `fsync` does, without writing: for an append
  /// whose envelopes another writer wrote. Nothing to do for a file never written or without
  /// `fsync`.
  func syncWritten() throws {
    guard durability == .fsyncEachAppend else { return }
    try descriptor.withLock { descriptor in
      if descriptor < 0 {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        descriptor = try openForAppending()
      }
      if syncFile(descriptor) != 0 { throw failure("cannot fsync the log") }
    }
  }

  /// Opens the file for appending, creating it; a new file's directory entry is synced too, so
  /// that the file itself survives a crash.
  private func openForAppending() throws -> Int32 {
    let existed = FileManager.default.fileExists(atPath: url.path)
    let descriptor = open(url.path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw failure("cannot open the log") }
    if !existed && durability == .fsyncEachAppend {
      let directory = open(url.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
      if directory >= 0 {
        _ = fsync(directory)
        close(directory)
      }
    }
    return descriptor
  }

  func failure(_ what: String) -> EventLogError {
    .io(path: url.path, reason: "\(what) (\(String(cString: strerror(errno))))")
  }

  // MARK: Reading

  /// The envelopes of the log, in order, and the lines that could not be read. This holds the
  /// whole log in memory: ``forEach(after:_:)`` and `read(after:limit:)` do not.
  public func read() throws -> (envelopes: [EventEnvelope], problems: [Problem]) {
    var envelopes: [EventEnvelope] = []
    let problems = try forEach { envelopes.append($0.envelope) }
    return (envelopes, problems)
  }

  /// Calls `body` with each envelope after `position` (from the start when nil), in order,
  /// reading the file as a stream, and returns the lines that could not be read. A last line
  /// without its newline is reported as torn. An error thrown by `body` stops the reading.
  @discardableResult
  public func forEach(after position: Position? = nil, _ body: (Entry) throws -> Void) throws -> [Problem] {
    try scanEnvelopes(after: position, includingUnfinishedLine: true) { _, entry, _ in
      if let entry { try body(entry) }
      return true
    }
  }

  /// Up to `limit` envelopes after `position`, the lines skipped among them, and the position to
  /// read from next. Only whole lines are read: a line still being written is left for the next
  /// call, so a reader that polls never takes half an append.
  public func read(
    after position: Position? = nil, limit: Int = .max
  ) throws -> (
    entries: [Entry], problems: [Problem], next: Position
  ) {
    var entries: [Entry] = []
    var next = position ?? .start
    guard limit > 0 else { return (entries, [], next) }
    let problems = try scanEnvelopes(after: position, includingUnfinishedLine: false) { _, entry, end in
      entry.map { entries.append($0) }
      next = end
      return entries.count < limit
    }
    return (entries, problems, next)
  }

  /// ``read(after:limit:)`` as a store's batch: each envelope with the position after its line;
  /// none whose line would take the kept lines past `maximumBytes`, but the first. With a
  /// filter, lines it does not want are passed over and count against neither bound; at most
  /// `limit` and ``filteredReadMargin`` more lines are looked at, and lines of at most
  /// ``filteredReadByteMargin`` bytes (and one more) passed over. A line whose header says the
  /// filter does not want it is passed over without decoding: its payload is not read, and a
  /// fault in it is not reported to a reader that would not have got the event.
  func storedBatch(
    after position: Position?, limit: Int, maximumBytes: Int = .max, matching filter: EventReadFilter = .all,
    passingOverAtMost byteMargin: Int = filteredReadByteMargin
  ) throws -> StoredBatch<Position> {
    var envelopes: [StoredEnvelope<Position>] = []
    var next = position ?? .start
    guard limit > 0 else { return StoredBatch(envelopes: [], skipped: [], next: next) }
    var kept = 0
    var looked = 0
    var passedOver = 0
    let passOver: ((Data) -> LineShortcut?)? =
      filter.isEmpty
      ? nil
      : { line in
        guard let header = Self.typeAndSubject(of: line) else { return nil }
        return filter.admits(name: header.name, subject: header.subject) ? nil : .passOver
      }
    let problems = try scanLines(after: position, includingUnfinishedLine: false, shortcut: passOver) {
      _, scanned, end in
      // An unreadable line counts as kept: it is reported, and the budget bounds the report too.
      var entry: Entry?
      let wanted: Bool
      switch scanned {
      case .passedOver: wanted = false
      case .unreadable: wanted = true
      case .envelope(let read):
        entry = read
        wanted = filter.admits(read.envelope)
      }
      let size = Int(end.offset - next.offset)
      if wanted && !envelopes.isEmpty && kept + size > maximumBytes { return false }
      if wanted, let entry { envelopes.append(StoredEnvelope(position: end, envelope: entry.envelope)) }
      if wanted { kept += size } else { passedOver += size }
      next = end
      looked += 1
      // Subtracted, not added: `limit` may be `Int.max`.
      return envelopes.count < limit && looked - Self.filteredReadMargin < limit
        && passedOver <= byteMargin
    }
    // A bad line where the budget ended the read is the next read's to report: it starts there.
    return StoredBatch(
      envelopes: envelopes, skipped: problems.filter { $0.position < next }.map { "\($0.position): \($0.reason)" },
      next: next)
  }

  /// How many lines more than its limit a filtered read looks at before it returns what it has.
  static let filteredReadMargin = 10_000

  /// How many bytes of lines it passes over a filtered read reads before it returns what it
  /// has: 10,000 lines of 1 MiB would be 10 GB read from the disk for one page.
  static let filteredReadByteMargin = 64 << 20

  /// The file's size when it is empty or its last line is whole; nil when a line is unfinished
  /// or the file ends with a blank line.
  func sizeEndingInNewline() -> Int64? {
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return errno == ENOENT ? 0 : nil }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    guard info.st_size > 0 else { return 0 }
    // The last two bytes: a newline after a line's last byte. A blank last line is not where a
    // reader's next position comes to (lines are counted without blank ones): scan for it.
    var last: [UInt8] = [0, 0]
    let count = min(Int(info.st_size), 2)
    guard pread(descriptor, &last, count, off_t(info.st_size) - off_t(count)) == count,
      last[count - 1] == 0x0A, count == 2, last[0] != 0x0A
    else { return nil }
    return Int64(info.st_size)
  }

  /// Whether the file holds bytes after `position` and ends with a newline: a whole line that
  /// a reader at `position` has not read.
  func hasWholeLine(after position: Position) -> Bool {
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, Int64(info.st_size) > position.offset else { return false }
    var last: UInt8 = 0
    return pread(descriptor, &last, 1, off_t(info.st_size - 1)) == 1 && last == 0x0A
  }
}
