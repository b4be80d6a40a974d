#if PostgreSQL
  import Foundation
  import Logging
  import PostgresNIO
  import Tracing
  import TypedEvents

  /// A named reader of a ``PostgresEventStore`` whose checkpoints live in the database, shared
  /// by every process that runs a member of the group.
  ///
  /// ### Partitions: one group over many processes
  ///
  /// A group's events are split into ``partitions`` by their subject: an event with a subject
  /// belongs to partition `h % partitions`, where `h` is the MD5 of the subject's UTF-8 bytes,
  /// its first 4 bytes read as a big-endian integer with the top bit cleared (the store's
  /// `subject_hash` column), so every event about one subject is in one partition; an event without a subject belongs to partition 0. Each partition has its own
  /// checkpoint and its own lease, and each live member holds a share of them and delivers
  /// those: each takes `partitions / members`, and `partitions % members` of them one more
  /// (those holding the most already, so that few partitions move). With one partition (the
  /// default) one member delivers every event and the others stand by, which keeps one order
  /// for all events.
  ///
  /// Every ``roundInterval`` (a second, or a third of ``lease`` if shorter) a member says it is
  /// alive, renews its leases, gives up partitions beyond its share once the batch in hand is
  /// checkpointed, and takes free or expired ones up to it. So:
  ///
  /// - **A member that joins** gets its share within a round of every member plus the batch
  ///   each has in hand.
  /// - **A member that stops** (its task cancelled) checkpoints its batch and gives its
  ///   partitions up; the others take them at their next round.
  /// - **A member that dies** (killed, hung, cut off) renews nothing; its partitions' leases and
  ///   its place among the members expire ``lease`` after its last renewal (not after its
  ///   death: up to a ``roundInterval`` sooner), and the others take them within a round after
  ///   that.
  ///
  /// The number of partitions is fixed when the group is first run. A member that asks for
  /// another number fails with ``PostgresEventStoreError/partitionCountChanged(group:stored:requested:)``;
  /// ``PostgresEventStore/repartition(group:partitions:)`` changes it while no member runs.
  ///
  /// ### What it guarantees
  ///
  /// - **Order**: within a partition, the store's (transaction id, position) order, one event at
  ///   a time; so every subject's events arrive in the store's order, across rebalances too. A
  ///   member delivers its partitions' events in one sequence, in the store's order; two
  ///   members' partitions have no order between them.
  /// - **One member per partition**: a partition is delivered by the member holding its lease.
  ///   A member runs its round between two events once one is due, so a slow batch keeps its
  ///   leases. What remains is one handler call slower than ``lease``, or a process paused that
  ///   long: another member may then take the partition over while the call runs. That window
  ///   is the only time two members deliver one partition, and the late member's checkpoint is
  ///   then refused, so it leaves the partition.
  /// - **At least once**: a partition's checkpoint is saved after the handler has returned for
  ///   every event of a batch, and before a round that falls in the middle of one; after a crash
  ///   or a failover the events handled since the last save come again (at most a batch), and
  ///   `EventEnvelope.id` tells a handler that it has seen one. A member stopped while a
  ///   handler runs saves what it handled before. A member reads its next batch while its
  ///   handler runs the current one, so that a handler waiting on I/O does not also wait for the
  ///   read; that batch is handled only after the current one is saved, so a crash still
  ///   delivers at most one batch again.
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
    /// How long a lease lasts without renewal: how soon another member takes over a partition
    /// of a member that died.
    public let lease: Duration
    /// How many partitions the group's events are split into, so how many members can deliver
    /// at once.
    public let partitions: Int
    /// How many times a handler is called for one event before the event is parked.
    public let attempts: Int
    /// The pause before the second attempt; it doubles with every further attempt.
    public let retryDelay: Duration
    /// Whether envelopes of a newer schema version than the catalog's type are decoded.
    public let acceptingNewerVersions: Bool
    let onSkipped: @Sendable (EventConsumer<PostgresEventStore>.Skipped) -> Void
    let onAssignment: (@Sendable (Assignment) -> Void)?

    /// What a handler is told of each event besides the event: where it came from and which
    /// member delivers it.
    public struct Delivery: Sendable {
      /// The envelope as stored: id, source, time, subject, metadata, payload.
      public let envelope: EventEnvelope
      /// The event's position in the store.
      public let position: PostgresEventPosition
      /// The partition the event belongs to (0 for an event without a subject).
      public let partition: Int
      /// The member delivering it: one per ``PostgresConsumerGroup/run(_:)`` call.
      public let member: UUID

      /// A delivery, as a member makes it; public so that a handler can be tested alone.
      public init(envelope: EventEnvelope, position: PostgresEventPosition, partition: Int, member: UUID) {
        self.envelope = envelope
        self.position = position
        self.partition = partition
        self.member = member
      }
    }

    /// The partitions one member holds, as it reports them after its first round and after
    /// every round that changed them.
    public struct Assignment: Sendable, Equatable {
      /// The member: one per ``PostgresConsumerGroup/run(_:)`` call.
      public let member: UUID
      /// Its partitions, ascending; empty while the others hold them all (with one partition,
      /// every member but one stands by).
      public let partitions: [Int]
      /// How many live members the group had at that round.
      public let members: Int
    }

    /// The most partitions a group may have.
    public static let maximumPartitions = 1024

    /// A member of the group `name`.
    ///
    /// - Parameters:
    ///   - store: the store to read.
    ///   - name: the group's name, 1 to 200 characters.
    ///   - catalog: the event types to decode, by wire name; usually `GeneratedEvents.catalog`.
    ///   - batchSize: how many events one read takes (at least 1).
    ///   - pollInterval: how long an idle member waits for a wake-up before reading again.
    ///   - lease: how long a member's lease lasts without renewal; longer than the slowest batch.
    ///   - partitions: how many partitions the group's events are split into (1 to 1,024), fixed
    ///     when the group first runs; 1 keeps one order for all events.
    ///   - attempts: how many times the handler is called for one event before it is parked.
    ///   - retryDelay: the pause before the second attempt, doubled before each further one.
    ///   - acceptingNewerVersions: whether to decode envelopes of a newer schema version.
    ///   - onSkipped: called with each envelope that does not decode; by default it is logged.
    ///   - onAssignment: called with the member's partitions after its first round, which may
    ///     hold fewer than its share (the others give up theirs at their next rounds), after
    ///     every round that changed them, and again after the member rejoins following a
    ///     database error; tests and operators await the share they expect instead of sleeping.
    /// - Throws: ``PostgresEventStoreError/invalidGroupName(_:)`` or
    ///   ``PostgresEventStoreError/invalidPartitionCount(_:)``.
    public init(
      store: PostgresEventStore, name: String, catalog: EventCatalog, batchSize: Int = 100,
      pollInterval: Duration = .seconds(1), lease: Duration = .seconds(15), partitions: Int = 1, attempts: Int = 3,
      retryDelay: Duration = .milliseconds(100), acceptingNewerVersions: Bool = false,
      onSkipped: (@Sendable (EventConsumer<PostgresEventStore>.Skipped) -> Void)? = nil,
      onAssignment: (@Sendable (Assignment) -> Void)? = nil
    ) throws {
      guard !name.isEmpty, name.count <= 200 else { throw PostgresEventStoreError.invalidGroupName(name) }
      guard (1...Self.maximumPartitions).contains(partitions) else {
        throw PostgresEventStoreError.invalidPartitionCount(partitions)
      }
      self.partitions = partitions
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
      self.onAssignment = onAssignment
    }

    /// Delivers the events of this member's partitions to `handler` until the task is
    /// cancelled; then it finishes the batch in hand, saves its checkpoints and gives its
    /// partitions up, so that the other members go on at once without repeating it. Saving and
    /// giving up get 5 s after the cancellation; a database that does not answer by then is left
    /// to the leases' expiry.
    ///
    /// Database errors (a restart, a lost connection) are logged and retried with backoff, up to
    /// 5 s apart; the batch in flight is delivered again. A handler's errors park its event.
    /// When the store's `PostgresClient` has stopped running, no retry can succeed: the member
    /// leaves and `run` throws the pool's error.
    ///
    /// The handler gets each event with its ``Delivery``: the envelope, the position, the
    /// partition and the member. The typed forms, `run(_:_:)` with an event type or with a group
    /// type, hand it the event as that type instead.
    ///
    /// - Throws: when the group cannot be registered at the start, the database's error; the
    ///   pool's error once the client has stopped; or
    ///   ``PostgresEventStoreError/partitionCountChanged(group:stored:requested:)``.
    public func run(_ handler: (any Event, Delivery) async throws -> Void) async throws {
      let member = UUID()
      try await store.registerGroup(name, partitions: partitions, member: member, lease: lease)
      do {
        try await deliver(as: member, handler)
      } catch {
        await leave(as: member)
        throw error
      }
      await leave(as: member)
    }

    /// Publishes the events of this member's partitions into `bus`.
    ///
    /// An event counts as handled when `publish` returns: that covers immediate subscribers
    /// only. Queued, main-actor and stream subscribers receive it later, and a crash before they
    /// run loses it for them.
    public func run(into bus: some EventPublishing) async throws {
      try await run { event, _ in bus.publish(event) }
    }

    /// Delivers the events of type `E` of this member's partitions to `handler`, as
    /// ``run(_:)`` does; events of other types count as handled without a call.
    public func run<E: Event>(_ type: E.Type, _ handler: (E, Delivery) async throws -> Void) async throws {
      try await run { event, delivery in
        if let event = event as? E { try await handler(event, delivery) }
      }
    }

    /// Delivers the events of the group `G` (a generated enum of events) of this member's
    /// partitions to `handler`, each in its case, as ``run(_:)`` does; events outside the
    /// group count as handled without a call.
    public func run<G: EventGroup>(_ group: G.Type, _ handler: (G, Delivery) async throws -> Void) async throws {
      try await run { event, delivery in
        if let value = G(event) { try await handler(value, delivery) }
      }
    }

    private func deliver(as member: UUID, _ handler: (any Event, Delivery) async throws -> Void) async throws {
      var backoff = Duration.milliseconds(100)
      var state = MemberState()
      while !Task.isCancelled {
        do {
          try await deliverBatches(as: member, state: &state, handler)
          backoff = .milliseconds(100)
        } catch PostgresEventStoreError.partitionCountChanged(let group, let stored, let requested) {
          // Repartitioned under this member (it was paused past its lease): reading with the old
          // count would skip events, so it stops, as it would have at the start.
          throw PostgresEventStoreError.partitionCountChanged(group: group, stored: stored, requested: requested)
        } catch {
          state = MemberState()
          if Task.isCancelled { return }
          // The client has stopped: retrying would log this every 5 s forever.
          if PostgresEventStore.clientStopped(error) { throw error }
          // The database is restarting or unreachable: the batch was not checkpointed and
          // comes again, from this member or from whichever holds its partitions by then.
          store.logger.error("consumer group \(name): \(error); retrying in \(backoff)")
          try? await Task.sleep(for: backoff)
          backoff = min(backoff * 2, .seconds(5))
        }
      }
    }

    /// How often a member says it is alive, renews its leases and takes its share: at least
    /// three times per lease, and every second, so that a partition whose lease has expired
    /// finds a member within a second.
    public var roundInterval: Duration { min(lease / 3, .seconds(1)) }

    /// Gives the member's partitions up, even as the task is cancelled, so that the others go on
    /// at once.
    private func leave(as member: UUID) async {
      let (store, name) = (store, name)
      try? await finishing { try await store.leaveGroup(group: name, member: member) }
    }
  }
#endif
