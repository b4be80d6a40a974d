#if PostgreSQL
  import Foundation
  import Logging
  import PostgresNIO
  import TypedEvents

  /// A named reader of a ``PostgresEventStore`` whose checkpoint lives in the database, shared by
  /// every process that runs a member of the group.
  ///
  /// ### One active member, with failover
  ///
  /// Members of a group take turns rather than splitting the events: the member that holds the
  /// group's lease delivers, the others wait. A member renews the lease with every checkpoint
  /// and at least every third of ``lease`` while idle; when it stops renewing (it crashed, hung,
  /// or lost the database), another member takes the lease once it has expired and goes on from
  /// the last checkpoint. One member at a time keeps the store's order for every subject, which
  /// splitting the events between members would break. A member that finds its lease taken when
  /// it checkpoints stands by instead.
  ///
  /// ### What it guarantees
  ///
  /// - **Order**: the store's (transaction id, position) order, one event at a time.
  /// - **At least once**: the checkpoint is saved after the handler has returned for every
  ///   event of a batch; after a crash or a failover the events of an unsaved batch come again,
  ///   and ``TypedEvents/EventEnvelope/id`` tells a handler that it has seen one. A batch that
  ///   takes longer than ``lease`` may also be delivered by the next member.
  /// - **Poison events**: an event whose handler throws is tried ``attempts`` times, then
  ///   parked in the store's `dead_letters` table with the last error, and delivery goes on.
  ///   Later events about the same subject are delivered, not held back: a handler that needs
  ///   every earlier event of its subject checks ``PostgresEventStore/deadLetters(group:)``.
  /// - **Skip and report**: envelopes that do not decode with ``catalog`` (an unknown wire name,
  ///   a newer version unless accepted) go to `onSkipped` and count as handled.
  public struct PostgresConsumerGroup: Sendable {
    /// The store read.
    public let store: PostgresEventStore
    /// The group's name, its row in the `consumer_groups` table.
    public let name: String
    /// The types the group decodes, by wire name.
    public let catalog: EventCatalog
    /// How many events one read takes, and so how many a crash may deliver again.
    public let batchSize: Int
    /// How long an idle member waits for a wake-up before reading again.
    public let pollInterval: Duration
    /// How long the lease lasts without renewal: how soon another member takes over.
    public let lease: Duration
    /// How many times a handler is called for one event before the event is parked.
    public let attempts: Int
    /// The pause before the second attempt; it doubles with every further attempt.
    public let retryDelay: Duration
    /// Whether envelopes of a newer schema version than the catalog's type are decoded.
    public let acceptingNewerVersions: Bool
    private let onSkipped: @Sendable (EventConsumer<PostgresEventStore>.Skipped) -> Void

    /// A member of the group `name`.
    ///
    /// - Parameters:
    ///   - store: the store to read.
    ///   - name: the group's name, 1 to 200 characters.
    ///   - catalog: the event types to decode, by wire name; usually `GeneratedEvents.catalog`.
    ///   - batchSize: how many events one read takes (at least 1).
    ///   - pollInterval: how long an idle member waits for a wake-up before reading again.
    ///   - lease: how long a member's lease lasts without renewal; longer than the slowest batch.
    ///   - attempts: how many times the handler is called for one event before it is parked.
    ///   - retryDelay: the pause before the second attempt, doubled before each further one.
    ///   - acceptingNewerVersions: whether to decode envelopes of a newer schema version.
    ///   - onSkipped: called with each envelope that does not decode; by default it is logged.
    /// - Throws: ``PostgresEventStoreError/invalidGroupName(_:)``.
    public init(
      store: PostgresEventStore, name: String, catalog: EventCatalog, batchSize: Int = 100,
      pollInterval: Duration = .seconds(1), lease: Duration = .seconds(15), attempts: Int = 3,
      retryDelay: Duration = .milliseconds(100), acceptingNewerVersions: Bool = false,
      onSkipped: (@Sendable (EventConsumer<PostgresEventStore>.Skipped) -> Void)? = nil
    ) throws {
      guard !name.isEmpty, name.count <= 200 else { throw PostgresEventStoreError.invalidGroupName(name) }
      self.store = store
      self.name = name
      self.catalog = catalog
      self.batchSize = max(1, batchSize)
      self.pollInterval = pollInterval
      self.lease = lease
      self.attempts = max(1, attempts)
      self.retryDelay = retryDelay
      self.acceptingNewerVersions = acceptingNewerVersions
      let logger = store.logger
      self.onSkipped = onSkipped ?? { logger.warning("skipped \($0)") }
    }

    /// Delivers the group's events to `handler` whenever this member holds the lease, until the
    /// task is cancelled; then it finishes the batch in hand, saves its checkpoint and gives the
    /// lease up, so that another member goes on at once without repeating it. Saving and giving
    /// up get 5 s after the cancellation; a database that does not answer by then is left to
    /// the lease's expiry.
    ///
    /// Database errors (a restart, a lost connection) are logged and retried with backoff, up to
    /// 5 s apart; the batch in flight is delivered again. A handler's errors park its event.
    ///
    /// - Throws: when the group cannot be registered at the start, the database's error.
    public func run(_ handler: (any Event, EventEnvelope) async throws -> Void) async throws {
      let member = UUID()
      try await store.registerGroup(name)
      do {
        try await deliver(as: member, handler)
      } catch {
        await releaseLease(of: member)
        throw error
      }
      await releaseLease(of: member)
    }

    /// Publishes the group's events into `bus` whenever this member holds the lease.
    ///
    /// An event counts as handled when `publish` returns: that covers immediate subscribers
    /// only. Queued, main-actor and stream subscribers receive it later, and a crash before they
    /// run loses it for them.
    public func run(into bus: some EventPublishing) async throws {
      try await run { event, _ in bus.publish(event) }
    }

    private func deliver(as member: UUID, _ handler: (any Event, EventEnvelope) async throws -> Void) async throws {
      var backoff = Duration.milliseconds(100)
      var held: HeldLease?
      while !Task.isCancelled {
        do {
          try await deliverBatch(as: member, holding: &held, handler)
          backoff = .milliseconds(100)
        } catch {
          held = nil
          if Task.isCancelled { return }
          // The database is restarting or unreachable: the batch was not checkpointed and
          // comes again, from this member or from whichever holds the lease by then.
          store.logger.error("consumer group \(name): \(error); retrying in \(backoff)")
          try? await Task.sleep(for: backoff)
          backoff = min(backoff * 2, .seconds(5))
        }
      }
    }

    /// The lease as this member last renewed it: the checkpoint, and when (by this process's
    /// clock, taken before the renewal, so the lease lasts at least ``lease`` from then).
    private struct HeldLease {
      var position: PostgresEventPosition?
      var renewed: ContinuousClock.Instant
    }

    /// One turn: take or renew the lease when a third of it has passed, then deliver and
    /// checkpoint one batch, or wait.
    private func deliverBatch(
      as member: UUID, holding held: inout HeldLease?, _ handler: (any Event, EventEnvelope) async throws -> Void
    ) async throws {
      let now = ContinuousClock.now
      if held.map({ now - $0.renewed >= lease / 3 }) ?? true {
        guard let acquired = try await store.acquireLease(group: name, member: member, for: lease) else {
          // Another member holds the lease: stand by, and try again before it could expire.
          held = nil
          try? await Task.sleep(for: lease / 3)
          return
        }
        held = HeldLease(position: acquired.position, renewed: now)
      }
      let checkpoint = held?.position
      let wakeUps = await store.wakeUps.generation
      let batch = try await store.read(after: checkpoint, limit: batchSize)
      if batch.envelopes.isEmpty && batch.skipped.isEmpty {
        await store.wakeUps.wait(since: wakeUps, timeout: min(pollInterval, lease / 3))
        return
      }
      for reason in batch.skipped { onSkipped(.init(envelope: nil, reason: reason)) }
      for stored in batch.envelopes {
        let event: any Event
        do {
          event = try stored.envelope.decode(using: catalog, acceptingNewerVersions: acceptingNewerVersions)
        } catch {
          onSkipped(.init(envelope: stored.envelope, reason: "\(error)"))
          continue
        }
        try await handle(event, stored, handler)
      }
      let saving = ContinuousClock.now
      // Saved even as the task is cancelled: the batch was handled, and a member that stops
      // saves it, so that the next member does not deliver it again.
      let (store, group, length) = (store, name, lease)
      guard let next = batch.next,
        try await finishing({ try await store.saveCheckpoint(group: group, member: member, next, lease: length) })
      else {
        held = nil
        store.logger.warning("consumer group \(name): lease lost; standing by")
        return
      }
      held = HeldLease(position: next, renewed: saving)
    }

    /// Calls the handler up to ``attempts`` times, then parks the event.
    private func handle(
      _ event: any Event, _ stored: StoredEnvelope<PostgresEventPosition>,
      _ handler: (any Event, EventEnvelope) async throws -> Void
    ) async throws {
      var delay = retryDelay
      for attempt in 1...attempts {
        do {
          try await handler(event, stored.envelope)
          return
        } catch {
          try Task.checkCancellation()
          if attempt == attempts {
            try await store.park(stored, group: name, attempts: attempts, error: error)
            store.logger.error(
              "consumer group \(name): parked \(stored.envelope.name) \(stored.envelope.id) after \(attempts) attempts",
              metadata: ["error": "\(error)"])
            return
          }
          try await Task.sleep(for: delay)
          delay *= 2
        }
      }
    }

    /// Gives the lease up, even as the task is cancelled, so that another member goes on at once.
    private func releaseLease(of member: UUID) async {
      let (store, name) = (store, name)
      try? await finishing { try await store.releaseLease(group: name, member: member) }
    }
  }
#endif
