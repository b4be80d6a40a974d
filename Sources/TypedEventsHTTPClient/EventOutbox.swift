#if HTTPClient
  import Foundation
  import TypedEvents

  /// Events an app publishes while it may be offline: each is written to a local `EventLog`
  /// first, then sent to the endpoint in order, until the endpoint has it.
  ///
  /// ### What it guarantees
  ///
  /// - **Nothing lost**: ``publish(_:metadata:)`` returns once the event is in the outbox's log
  ///   (synced to disk, with the log's default durability). An app killed after that sends it on
  ///   its next ``run()`` or ``sendPending()``. Publishes made at the same moment share one
  ///   `fsync`, and ``publish(contentsOf:metadata:)`` writes many events with one.
  /// - **Nothing twice**: an event keeps its CloudEvents `source` and `id` through every retry,
  ///   and the endpoint appends an event at most once by those two. An app killed while a
  ///   request is in flight, before it could note that the request succeeded, sends the same
  ///   events again and the endpoint appends none of them a second time.
  /// - **In order**: events are sent in the order they were published, in batches of at most
  ///   ``batchSize``; a batch is sent only once the one before it is stored.
  /// - **Refusals are kept**: an event the endpoint refuses for good (a type it does not know, a
  ///   payload it cannot decode, one the app may not send) cannot be sent by retrying. It is
  ///   moved to the `refused.log` beside the outbox, reported to `onRefused`, and the events
  ///   after it go on. A 401 refuses the request, not the events: the token may be renewed, so
  ///   they stay in the outbox and are sent again; so do events refused by an answer that is not
  ///   the endpoint's own problem document (a wrong URL, a proxy).
  ///
  /// The outbox's folder holds `outbox.log` (what was published), `outbox.sent` (how far the
  /// endpoint has it) and `refused.log`. One process, and in it one ``run()`` or
  /// ``sendPending()`` at a time, sends from a folder.
  public final class EventOutbox: Sendable {
    /// An event the endpoint refused for good, and its answer.
    public struct Refusal: Sendable {
      /// The refused event, now in `refused.log`.
      public var envelope: EventEnvelope
      /// Why: the endpoint's answer.
      public var reason: String
    }

    /// The client that sends.
    public let client: EventsClient
    /// The CloudEvents `source` of every event published here, such as `app/<installation>`:
    /// with each event's `id`, what makes a retry recognizable.
    public let source: String
    /// How many events one request carries at most.
    public let batchSize: Int
    /// The outbox's log of published events.
    public let log: EventLog
    private let sent: FileCheckpoint<EventLog.Position>
    private let refused: EventLog
    private let onRefused: @Sendable (Refusal) -> Void
    /// Wakes the running ``run()``, when there is one.
    private let wake = Locked<AsyncStream<Void>.Continuation?>(nil)
    /// Callers of ``waitUntilSent()``, woken each time the outbox notes what the endpoint has.
    private let progress = Locked(SendProgress())

    /// An outbox in `folder`, created when missing, that sends with `client`.
    ///
    /// - Parameters:
    ///   - folder: where the outbox keeps its files; the same folder after a restart.
    ///   - source: the CloudEvents `source` of the events published here; stable per
    ///     installation, such as `app/` and an identifier kept with the app's data.
    ///   - client: the endpoint's client.
    ///   - batchSize: the most events one request carries (at least 1).
    ///   - onRefused: called with each event the endpoint refuses for good; by default a line on
    ///     standard error.
    public init(
      folder: URL, source: String, client: EventsClient, batchSize: Int = 100,
      onRefused: @escaping @Sendable (Refusal) -> Void = {
        FileHandle.standardError.write(Data("refused \($0.envelope.name) \($0.envelope.id): \($0.reason)\n".utf8))
      }
    ) throws {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      self.client = client
      self.source = source
      self.batchSize = max(1, batchSize)
      self.onRefused = onRefused
      log = EventLog(url: folder.appendingPathComponent("outbox.log"))
      sent = FileCheckpoint(url: folder.appendingPathComponent("outbox.sent"))
      refused = EventLog(url: folder.appendingPathComponent("refused.log"))
    }

    /// Writes `event` to the outbox, with a new `id` and the outbox's ``source``, and returns its
    /// envelope. Once it returns, the event is on disk and will be sent.
    ///
    /// It throws, and writes nothing, when the event cannot be a CloudEvent (a `metadata` key
    /// CloudEvents does not allow), and when the log cannot be written. The writing and syncing
    /// happen on the log's writer thread, not on the caller's.
    @discardableResult
    public func publish<E: Event>(
      _ event: E, metadata: [String: EventAttributeValue] = [:]
    ) async throws
      -> EventEnvelope
    {
      let envelope = try envelope(for: event, metadata: metadata)
      try await log.append(envelope)
      wake.withLock { $0 }?.yield()
      return envelope
    }

    /// Writes `events` to the outbox in order, with one `write` and one `fsync`, and returns
    /// their envelopes: ``publish(_:metadata:)`` for many events at once.
    ///
    /// When one of them cannot be a CloudEvent, it throws and writes none of them.
    @discardableResult
    public func publish(
      contentsOf events: [any Event], metadata: [String: EventAttributeValue] = [:]
    ) async throws -> [EventEnvelope] {
      let envelopes = try events.map { try envelope(for: $0, metadata: metadata) }
      try await log.append(contentsOf: envelopes)
      wake.withLock { $0 }?.yield()
      return envelopes
    }

    private func envelope<E: Event>(for event: E, metadata: [String: EventAttributeValue]) throws -> EventEnvelope {
      let envelope = try EventEnvelope(event, source: source, metadata: metadata)
      // Checked now: once in the log, an event that cannot be sent would hold up every later one.
      _ = try envelope.cloudEventJSON()
      return envelope
    }

    /// Returns once every event published before the call is sent: stored by the endpoint, or
    /// refused by it for good and set aside in `refused.log`.
    ///
    /// It waits for the sending that ``run()`` or ``sendPending()`` does, and makes none itself:
    /// with neither running, it waits until one is. It sees what another outbox object or
    /// process sending from the same folder noted, within a second. It waits as long as the endpoint cannot be
    /// reached; cancel the task to stop waiting (it throws `CancellationError`).
    public func waitUntilSent() async throws {
      guard let published = try await log.endPosition() else { return }
      while true {
        // Read before looking, so that progress in between cuts the wait short.
        let saves = progress.withLock { $0.notes }
        if try await sent.load() ?? .start >= published { return }
        try Task.checkCancellation()
        await waitForProgress(after: saves)
      }
    }

    /// Returns when the outbox has noted progress more than `saves` times, after a second (the
    /// caller reads `outbox.sent` again: another process may send from the folder), or when the
    /// task is cancelled.
    private func waitForProgress(after saves: Int) async {
      let id = progress.withLock { waiters in
        defer { waiters.nextID += 1 }
        return waiters.nextID
      }
      let progress = progress
      let timer = Task {
        try? await Task.sleep(for: .seconds(1))
        progress.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
      }
      defer { timer.cancel() }
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let now = progress.withLock { waiters -> Bool in
            if Task.isCancelled || waiters.notes != saves { return true }
            waiters.waiting[id] = continuation
            return false
          }
          if now { continuation.resume() }
        }
      } onCancel: {
        progress.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
      }
    }

    /// Notes that the endpoint has the events up to `position`, and wakes ``waitUntilSent()``.
    private func noteSent(_ position: EventLog.Position) async throws {
      try await sent.save(position)
      let waiting = progress.withLock { waiters in
        waiters.notes += 1
        defer { waiters.waiting = [:] }
        return Array(waiters.waiting.values)
      }
      for waiter in waiting { waiter.resume() }
    }

    /// How many published events the endpoint has not confirmed yet.
    public func pendingCount() async throws -> Int {
      // Whole lines only, as sendPending reads them: a line a crash left unfinished is no event.
      try log.read(after: try await sent.load()).entries.count
    }

    /// Sends every event published before the call that the endpoint has not confirmed, and
    /// returns how many it sent.
    ///
    /// It throws the first failure that a later attempt may get past (no connection, a 5xx
    /// answer); what was confirmed before it stays confirmed.
    @discardableResult
    public func sendPending() async throws -> Int {
      var position = try await sent.load()
      var count = 0
      while true {
        let batch: StoredBatch<EventLog.Position> = try await log.read(after: position, limit: batchSize)
        for reason in batch.skipped {
          FileHandle.standardError.write(Data("outbox \(log.url.path): \(reason)\n".utf8))
        }
        guard let next = batch.next ?? batch.envelopes.last?.position, next != position else { return count }
        do {
          _ = try await client.send(batch.envelopes.map(\.envelope))
        } catch let error as EventsClientError where error.refusesTheEvents && batch.envelopes.count > 1 {
          // Refused for good: one at a time, so that only the refused events are set aside. Each
          // is noted as it goes, so a failure on the way does not refuse one twice.
          for stored in batch.envelopes {
            try await sendAlone(stored.envelope)
            try await noteSent(stored.position)
          }
        } catch let error as EventsClientError where error.refusesTheEvents {
          try await setAside(batch.envelopes.map(\.envelope), "\(error)")
        }
        count += batch.envelopes.count
        try await noteSent(next)
        position = next
      }
    }

    private func sendAlone(_ envelope: EventEnvelope) async throws {
      do {
        _ = try await client.send([envelope])
      } catch let error as EventsClientError where error.refusesTheEvents {
        try await setAside([envelope], "\(error)")
      }
    }

    /// Moves refused events to `refused.log` and reports them; an event set aside before (a
    /// crash before the outbox noted it) is neither written nor reported again.
    private func setAside(_ envelopes: [EventEnvelope], _ reason: String) async throws {
      let appended = try await refused.appendOnce(envelopes)
      for (envelope, result) in zip(envelopes, appended) where !result.wasStored {
        onRefused(Refusal(envelope: envelope, reason: reason))
      }
    }

    /// Sends what is published, as it is published, until the task is cancelled: after a
    /// failure it waits (longer with each failure in a row, up to the client's
    /// ``EventsClient/Configuration/maximumRetryDelay``) and tries again.
    ///
    /// It throws only what retrying cannot help: the outbox's files cannot be read or written.
    public func run() async throws {
      var backoff = Backoff(
        initial: client.configuration.initialRetryDelay, maximum: client.configuration.maximumRetryDelay)
      // A stream of wake-ups per run: a cancelled wait finishes its stream for good, and the
      // next run needs one of its own.
      let (wakeUps, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
      wake.withLock { $0 = continuation }
      defer {
        wake.withLock { $0 = nil }
        continuation.finish()
      }
      var iterator = wakeUps.makeAsyncIterator()
      while !Task.isCancelled {
        do {
          try await sendPending()
          backoff.succeeded()
          // Woken by a publish; the pending events were all sent.
          guard await iterator.next() != nil else { return }
        } catch let error as EventLogError {
          throw error
        } catch {
          do { try await Task.sleep(for: backoff.failed()) } catch { return }
        }
      }
    }
  }

  /// How many times an outbox noted progress, and who waits for the next time.
  private struct SendProgress: Sendable {
    var notes = 0
    var nextID = 0
    var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
  }

  extension EventsClientError {
    /// Whether the endpoint refused the events themselves, so that sending them again cannot
    /// succeed: a 4xx other than 401 (who sent them, which a renewed token changes), 408 and 429,
    /// with the endpoint's own problem. A 4xx without one comes from something else on the way
    /// (a wrong URL, a proxy), which is no verdict on the events.
    var refusesTheEvents: Bool {
      guard case .refused(let problem) = self else { return false }
      return !isTransient && problem.status != 401 && problem.type.hasPrefix("urn:typedevents:problem:")
    }
  }
#endif
