import Foundation

/// A durable, ordered store of event envelopes: ``EventLog`` in one machine's file, a database
/// across processes.
///
/// A store has one order: every reader, and every replay, sees the envelopes in it. An
/// ``EventConsumer`` reads a store from a checkpoint, catches up, then waits for new envelopes.
public protocol EventStore: Sendable {
  /// Where an envelope sits in the store's order; a reader keeps one to go on from there.
  associatedtype Position: Hashable & Sendable & Codable

  /// Appends envelopes in order, as one unit where the store can (one write for a log).
  func append(_ envelopes: [EventEnvelope]) async throws

  /// Up to `limit` envelopes after `position` (from the beginning when nil), in the store's
  /// order, what was skipped among them, and the position to read from next.
  func read(after position: Position?, limit: Int) async throws -> StoredBatch<Position>

  /// ``read(after:limit:)``, ending before the envelope that would take the envelopes' bytes
  /// (their data and their attributes' text, ``EventEnvelope/byteCount``, or a store's own
  /// measure of as much) past `maximumBytes` in all, so that what a read holds in memory is
  /// bounded in bytes as well as in envelopes; the first envelope comes whatever its size, so a
  /// reader always moves on.
  func read(after position: Position?, limit: Int, maximumBytes: Int) async throws -> StoredBatch<Position>

  /// ``read(after:limit:maximumBytes:)`` of the envelopes `filter` wants: `limit` and
  /// `maximumBytes` count those only, and ``StoredBatch/next`` is after the last envelope the
  /// read looked at, wanted or not, so that the reader goes on past the others. A read looks at
  /// a bounded number of envelopes (the default, `limit`; ``EventLog`` and the PostgreSQL
  /// store, `limit` and 10,000 more), so it may return fewer than `limit` before the store's
  /// end: read again from `next`.
  func read(
    after position: Position?, limit: Int, maximumBytes: Int, matching filter: EventReadFilter
  ) async throws -> StoredBatch<Position>

  /// Returns when there may be envelopes after `position`, or at the latest after `timeout`. A
  /// wake-up, not a promise: readers read again either way, so a missed wake-up costs latency,
  /// never an envelope.
  func waitForEnvelopes(after position: Position?, timeout: Duration) async throws

  /// The position after the last envelope a reader can read now: reading after it gives only
  /// envelopes appended later (nil for an empty store). A reader that wants only new envelopes
  /// starts there.
  func endPosition() async throws -> Position?

  /// What tells this store from every other, the same for every reader of it: a position
  /// token carries it, so that a position from another store, or from a store that was
  /// replaced, is refused instead of read as one of this store's. Nil while the store has none
  /// (an ``EventLog`` before its first line).
  func storeIdentity() async throws -> String?

  /// Whether a reader may read after `position`: false for one past the store's end, and, in
  /// a store whose positions are byte offsets (``EventLog``), for one inside an envelope, which
  /// a reader would otherwise read from as if it were a line's start, tearing what is there.
  func isPosition(_ position: Position) async throws -> Bool
}

extension EventStore {
  /// ``read(after:limit:)`` whole, then cut at `maximumBytes`: the cut bounds what the caller
  /// keeps, not what the store read. Stores of this package read no more than they return.
  public func read(after position: Position?, limit: Int, maximumBytes: Int) async throws -> StoredBatch<Position> {
    var batch = try await read(after: position, limit: limit)
    var total = 0
    for (index, stored) in batch.envelopes.enumerated() {
      total += stored.envelope.byteCount
      if index > 0 && total > maximumBytes {
        batch.envelopes.removeSubrange(index...)
        // An entry skipped after the cut is reported again by the next read: twice, not never.
        batch.next = batch.envelopes.last?.position
        break
      }
    }
    return batch
  }

  /// ``read(after:limit:maximumBytes:)``, then the envelopes `filter` does not want left out:
  /// `limit` counts them all. Stores of this package pass over them where they read.
  public func read(
    after position: Position?, limit: Int, maximumBytes: Int, matching filter: EventReadFilter
  ) async throws -> StoredBatch<Position> {
    var batch = try await read(after: position, limit: limit, maximumBytes: maximumBytes)
    if !filter.isEmpty { batch.envelopes.removeAll { !filter.admits($0.envelope) } }
    return batch
  }

  /// None: a store that cannot tell itself from others.
  public func storeIdentity() async throws -> String? { nil }

  /// True: a store that cannot check its positions takes any.
  public func isPosition(_ position: Position) async throws -> Bool { true }
}

extension EventStore {
  /// Reads the whole store, 1,000 envelopes at a time, to its end; a store with an index
  /// answers in one query instead.
  public func endPosition() async throws -> Position? {
    var position: Position?
    while true {
      let batch = try await read(after: position, limit: 1_000)
      if batch.envelopes.isEmpty && batch.next == position { return position }
      position = batch.next
    }
  }
}

/// An envelope and where it sits in its store.
public struct StoredEnvelope<Position: Hashable & Sendable>: Sendable, Hashable {
  /// The envelope's place in the store's order: reading after it gives the envelopes that follow
  /// this one, so a reader that has handled this envelope keeps it to resume from.
  public var position: Position
  /// The envelope.
  public var envelope: EventEnvelope

  /// Pairs an envelope with its position.
  public init(position: Position, envelope: EventEnvelope) {
    self.position = position
    self.envelope = envelope
  }
}

/// What one read of a store returned.
public struct StoredBatch<Position: Hashable & Sendable>: Sendable {
  /// The envelopes, in the store's order.
  public var envelopes: [StoredEnvelope<Position>]
  /// Entries that could not be read as envelopes, with why; a reader goes past them.
  public var skipped: [String]
  /// Where to read from next: after the last envelope or skipped entry; the position read from
  /// when there was nothing.
  public var next: Position?

  /// Creates a batch.
  public init(envelopes: [StoredEnvelope<Position>], skipped: [String], next: Position?) {
    self.envelopes = envelopes
    self.skipped = skipped
    self.next = next
  }
}

extension EventStore {
  /// Appends one event in a new envelope and returns the envelope.
  @discardableResult
  public func append<E: Event>(_ event: E, metadata: [String: EventAttributeValue] = [:]) async throws -> EventEnvelope
  {
    let envelope = try EventEnvelope(event, metadata: metadata)
    try await append([envelope])
    return envelope
  }
}

extension EventLog: EventStore {
  /// Appends envelopes with one `write` and, by default, one `fsync`.
  public func append(_ envelopes: [EventEnvelope]) async throws {
    try await append(contentsOf: envelopes)
  }

  /// Up to `limit` envelopes after `position`; lines that are not envelopes are skipped with
  /// their line's position and reason. Each envelope's position is where the line after it
  /// begins, the position to read after once it is handled (an ``EventLog/Entry`` has where its
  /// own line begins).
  public func read(after position: Position?, limit: Int) async throws -> StoredBatch<Position> {
    try storedBatch(after: position, limit: limit)
  }

  /// Up to `limit` envelopes, or fewer whose lines hold `maximumBytes`: the lines are counted as
  /// they are read, and the read ends before the line that would pass it.
  public func read(after position: Position?, limit: Int, maximumBytes: Int) async throws -> StoredBatch<Position> {
    try storedBatch(after: position, limit: limit, maximumBytes: maximumBytes)
  }

  /// Lines of other types and subjects are passed over, and count against neither `limit` nor
  /// `maximumBytes`; a read looks at `limit` and 10,000 more, and passes over at most 64 MiB of
  /// lines (and one more line). A line's header, which comes
  /// before its payload, says its type and subject: a line the filter does not want is not
  /// decoded, its payload not read, and a fault in it not reported to this read.
  public func read(
    after position: Position?, limit: Int, maximumBytes: Int, matching filter: EventReadFilter
  ) async throws -> StoredBatch<Position> {
    try storedBatch(after: position, limit: limit, maximumBytes: maximumBytes, matching: filter)
  }

  /// A digest of the log's first whole line (FNV-1a, 64 bits, in hex): the first envelope's
  /// line holds its id, so two logs share one only when they begin with the same envelope, and a
  /// file replaced by another has another. Nil while the file has no whole line.
  public func storeIdentity() async throws -> String? {
    firstLineDigest()
  }

  /// The position after the last whole line (``Position/start`` for an empty or missing file):
  /// the file's size when a newline ends it, found without reading the lines.
  public func endPosition() async throws -> Position? {
    if let size = sizeEndingInNewline() { return Position(offset: size) }
    // A torn or unfinished last line: the end is where it begins.
    var position = Position.start
    while true {
      let batch = try storedBatch(after: position, limit: 1_000)
      guard let next = batch.next, next != position else { return position }
      position = next
    }
  }

  /// Whether `position` is the start of the file or just after a line break in it: where an
  /// envelope's line ends.
  public func isPosition(_ position: Position) async throws -> Bool {
    try isLineBoundary(position)
  }

  /// Returns as soon as the file holds a whole line after `position`, or after `timeout`: at
  /// once when this instance appended it, within 50 ms when another instance or process did. A
  /// line still being written, or torn by a crash, does not count, so a caught-up reader never
  /// spins on it.
  public func waitForEnvelopes(after position: Position?, timeout: Duration) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
      // Read before looking, so that an append in between cuts the wait short.
      let appends = appendWaiters.withLock { $0.appends }
      if hasWholeLine(after: position ?? .start) { return }
      try await waitForAppend(after: appends, atMost: min(.milliseconds(50), deadline - clock.now))
    }
  }
}
