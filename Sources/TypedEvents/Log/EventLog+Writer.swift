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
/// disk's whole latency holds it and no task. It starts with the first `await`ed append (or the
/// first job of a task that prefers it, see ``EventLog/writerExecutor``) and ends when the log
/// is released.
///
/// It is also a task executor: between groups it runs the jobs of tasks that prefer it. A task
/// that appends from there hands its append over and is resumed on the same thread, so no other
/// thread has to wake for it.
@_spi(Testing) public final class LogWriter: @unchecked Sendable {
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var queue: [PendingAppend] = []
  /// Jobs of tasks that prefer this thread, run in the order they came.
  private var jobs: [UnownedJob] = []
  private var started = false
  private var stopped = false
  /// Set when the thread has ended: jobs that come later go to the global executor.
  private var ended = false
  /// The log whose appends the thread writes. Weak: the thread must not keep the log alive; a
  /// caller waiting for an append does.
  private weak var log: EventLog?

  /// Names the log the thread writes for; once, as the log is made.
  func attach(_ log: EventLog) {
    condition.lock()
    self.log = log
    condition.unlock()
  }

  /// Queues `append` for the writer thread, starting the thread on the first call.
  func submit(_ append: PendingAppend) {
    condition.lock()
    queue.append(append)
    let start = startsThread()
    condition.signal()
    condition.unlock()
    if start { startThread() }
  }

  /// Whether the caller, holding the lock, is the one to start the thread.
  private func startsThread() -> Bool {
    defer { started = true }
    return !started
  }

  private func startThread() {
    let thread = Thread { [self] in
      while let (jobs, queued) = self.nextWork() {
        var group = queued
        // Jobs first: a task resumed by the last group may append again, and join this one.
        if !jobs.isEmpty, #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
          for job in jobs { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
          group += self.takeQueue()
        }
        guard !group.isEmpty else { continue }
        guard let log = self.attachedLog else {
          for append in group { append.continuation.resume(throwing: EventLogError.io(path: "", reason: "released")) }
          continue
        }
        log.writeGroup(group)
      }
    }
    thread.name = "EventLog writer"
    thread.start()
  }

  private var attachedLog: EventLog? {
    condition.lock()
    defer { condition.unlock() }
    return log
  }

  /// How many appends wait for the writer thread to take them: lets a test order its appends
  /// into one group without guessing at timing.
  @_spi(Testing) public var queuedCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return queue.count
  }

  /// How many jobs of tasks that prefer the thread wait for it to run them.
  @_spi(Testing) public var queuedJobCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return jobs.count
  }

  /// Whether the thread has ended, after its log was released.
  @_spi(Testing) public var threadEnded: Bool {
    condition.lock()
    defer { condition.unlock() }
    return ended
  }

  /// Ends the thread once the queue is empty.
  func stop() {
    condition.lock()
    stopped = true
    condition.signal()
    condition.unlock()
  }

  /// Every queued job and append, waiting for one; nil once stopped with none left, when the
  /// thread ends.
  private func nextWork() -> (jobs: [UnownedJob], group: [PendingAppend])? {
    condition.lock()
    defer { condition.unlock() }
    while queue.isEmpty && jobs.isEmpty && !stopped { condition.wait() }
    if queue.isEmpty && jobs.isEmpty {
      ended = true
      return nil
    }
    defer {
      queue.removeAll(keepingCapacity: true)
      jobs.removeAll(keepingCapacity: true)
    }
    return (jobs, queue)
  }

  /// The appends queued since the last look.
  private func takeQueue() -> [PendingAppend] {
    condition.lock()
    defer { condition.unlock() }
    defer { queue.removeAll(keepingCapacity: true) }
    return queue
  }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension LogWriter: TaskExecutor {
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    guard !ended else {
      // The log is gone and its thread with it; the task goes on in the pool.
      condition.unlock()
      globalConcurrentExecutor.enqueue(ExecutorJob(job))
      return
    }
    jobs.append(job)
    let start = startsThread()
    condition.signal()
    condition.unlock()
    if start { startThread() }
  }
}

extension EventLog {
  /// Hands `lines` to the writer thread and waits, without holding a thread, for the `fsync`
  /// that covers them.
  func submit(
    _ lines: [(line: Data, envelope: EventEnvelope)], kind: PendingAppend.Kind
  ) async throws -> [AppendedEnvelope<Position>] {
    try await withCheckedThrowingContinuation { continuation in
      writer.submit(PendingAppend(kind: kind, lines: lines, continuation: continuation))
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
      let hasOnce = group.contains(where: { $0.kind == .once })
      if hasOnce {
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
      // No `once` append in the group and no index to keep current: nothing to look up or keep.
      let plain = !hasOnce && !index.isBuilt
      for append in group {
        if append.kind == .once && indexFailure != nil {
          storedNow.append(nil)
          continue
        }
        if plain {
          // The bookkeeping below was a tenth of a lone append's CPU besides its syscalls.
          for (line, _) in append.lines { lines.append(line) }
          storedNow.append([])
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
