import Foundation

/// An append handed to the log's writer thread: lines made and checked by the caller, and the
/// continuation that gets its answer.
struct PendingAppend: Sendable {
  enum Kind: Sendable {
    /// Every envelope is written.
    case every
    /// Only envelopes whose `source` and `id` the log does not hold yet (`appendOnce`).
    case once
  }

  var kind: Kind
  /// Each envelope with its line, newline included.
  var lines: [(line: Data, envelope: EventEnvelope)]
  /// Answered with each envelope's place after the `fsync` that covers it (`once`), or with
  /// nothing (`every`).
  var continuation: CheckedContinuation<[AppendedEnvelope<EventLog.Position>], any Error>
}

/// The queue of a log's writer thread: appends that arrive while it writes and syncs a group
/// wait here and form the next group, which one `write` and one `fsync` cover (group commit).
///
/// The thread is the log's own, not one of Swift's cooperative pool: an `fsync` that takes a
/// disk's whole latency holds it and no task. It starts with the first `await`ed append and ends
/// when the log is released.
@_spi(Testing) public final class LogWriter: @unchecked Sendable {
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var queue: [PendingAppend] = []
  private var started = false
  private var stopped = false

  /// Queues `append` for `log`'s writer thread, starting the thread on the first call.
  func submit(_ append: PendingAppend, for log: EventLog) {
    condition.lock()
    queue.append(append)
    let start = !started
    started = true
    condition.signal()
    condition.unlock()
    if start {
      // Weak: the thread must not keep the log alive; a caller waiting for an append does.
      let thread = Thread { [weak log, self] in
        while let group = self.nextGroup() {
          guard let log else {
            for append in group { append.continuation.resume(throwing: EventLogError.io(path: "", reason: "released")) }
            continue
          }
          log.writeGroup(group)
        }
      }
      thread.name = "EventLog writer"
      thread.start()
    }
  }

  /// How many appends wait for the writer thread to take them: lets a test order its appends
  /// into one group without guessing at timing.
  @_spi(Testing) public var queuedCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return queue.count
  }

  /// Ends the thread once the queue is empty.
  func stop() {
    condition.lock()
    stopped = true
    condition.signal()
    condition.unlock()
  }

  /// Every queued append, waiting for one; nil once stopped with none left.
  private func nextGroup() -> [PendingAppend]? {
    condition.lock()
    defer { condition.unlock() }
    while queue.isEmpty && !stopped { condition.wait() }
    if queue.isEmpty { return nil }
    defer { queue.removeAll(keepingCapacity: true) }
    return queue
  }
}

extension EventLog {
  /// Hands `lines` to the writer thread and waits, without holding a thread, for the `fsync`
  /// that covers them.
  func submit(
    _ lines: [(line: Data, envelope: EventEnvelope)], kind: PendingAppend.Kind
  ) async throws -> [AppendedEnvelope<Position>] {
    try await withCheckedThrowingContinuation { continuation in
      writer.submit(PendingAppend(kind: kind, lines: lines, continuation: continuation), for: self)
    }
  }

  /// Writes one group of appends, on the writer thread: which envelopes of `once` appends are
  /// new (against the file and against the group's earlier appends of either kind), one `write`
  /// of every new line in the order the appends came, one `fsync`, then each append's answer.
  ///
  /// Answers are per append: a failure to read the index fails only the `once` appends, and
  /// lines written and synced are answered as stored whatever happens after.
  func writeGroup(_ group: [PendingAppend]) {
    let answers = identities.withLock { index -> [Result<[AppendedEnvelope<Position>], any Error>] in
      // The index is read from the file on the first `once` append, and kept current after.
      var indexFailure: (any Error)?
      if group.contains(where: { $0.kind == .once }) {
        do {
          try catchUp(&index)
          index.isBuilt = true
        } catch {
          indexFailure = error
          index = IdentityIndex()  // read again, whole, by the next `once` append
        }
      }
      var lines = Data()
      var written: [(line: Data, envelope: EventEnvelope)] = []
      var storedNow: [[Bool]?] = []
      var appending = Set<EnvelopeIdentity>()
      for append in group {
        if append.kind == .once && indexFailure != nil {
          storedNow.append(nil)
          continue
        }
        var stored: [Bool] = []
        for (line, envelope) in append.lines {
          let identity = EnvelopeIdentity(envelope)
          let isNew: Bool
          switch append.kind {
          case .every:
            isNew = true
            appending.insert(identity)
          case .once: isNew = index.positions[identity] == nil && appending.insert(identity).inserted
          }
          stored.append(isNew)
          if isNew {
            lines.append(line)
            written.append((line.dropLast(), envelope))
          }
        }
        storedNow.append(stored)
      }
      do {
        // A `once` append that found its envelopes in the file still returns after an fsync:
        // another writer may have written them without one yet.
        if !lines.isEmpty {
          try writeLines(lines)
        } else if storedNow.contains(where: { $0 != nil }) {
          try syncWritten()
        }
      } catch {
        return group.map { _ in .failure(error) }
      }
      if index.isBuilt {
        do {
          try catchUp(&index, recognizing: written)
        } catch {
          indexFailure = indexFailure ?? error
          index = IdentityIndex()
        }
      }
      return zip(group, storedNow).map { append, stored in
        guard append.kind == .once else { return .success([]) }
        guard let stored, index.isBuilt else {
          return .failure(indexFailure ?? EventLogError.malformed("the log's index of identities could not be read"))
        }
        return Result {
          try zip(append.lines, stored).map { (entry, isNew) in
            guard let position = index.positions[EnvelopeIdentity(entry.envelope)] else {
              throw EventLogError.malformed(
                "the envelope \(entry.envelope.id) was written but not read back from \(url.path)")
            }
            // The first copy of a pair appended now counts as new; a repeat of it, here or in
            // a later append of the group, as stored.
            return AppendedEnvelope(position: position, wasStored: !isNew)
          }
        }
      }
    }
    wakeReaders()
    for (append, answer) in zip(group, answers) { append.continuation.resume(with: answer) }
  }
}
