import Foundation

/// Reads a store from a checkpoint: everything after it first, then new envelopes as they come,
/// decoded through a catalog.
///
/// ### What it guarantees
///
/// - **Order**: events reach the handler one at a time, in the store's order.
/// - **At least once**: the checkpoint is saved after the handler has returned for every event
///   of a batch, and ``EventCheckpoint/noteHandled(_:)`` records each event in between. After a
///   crash of the process, a ``FileCheckpoint`` gives back the last event handled, and only the
///   event whose handling the crash cut short comes again; after a crash of the machine, or
///   with a checkpoint that keeps nothing between saves, the events since the last save come
///   again. ``EventEnvelope/id`` tells a handler that it has seen one; ``StoredEvent/position``
///   is what to save with its own state to see none.
/// - **Skip and report**: an envelope that does not decode (a wire name the catalog does not
///   know, a newer version unless accepted, a payload of another shape) goes to `onSkipped`
///   and the consumer goes on; blue/green deploys run two versions at once.
/// - A handler that throws stops the consumer with its error, before the checkpoint moves: the
///   next run delivers that event again.
public struct EventConsumer<Store: EventStore>: Sendable {
  /// An envelope the consumer could not deliver, and why.
  public struct Skipped: Sendable, CustomStringConvertible {
    /// The envelope, when the entry was one.
    public var envelope: EventEnvelope?
    /// Why it was skipped.
    public var reason: String

    /// A skipped entry: the envelope when there was one, and why.
    public init(envelope: EventEnvelope?, reason: String) {
      self.envelope = envelope
      self.reason = reason
    }

    public var description: String {
      envelope.map { "\($0.name) \($0.id): \(reason)" } ?? reason
    }
  }

  /// The store read.
  public let store: Store
  /// The types the consumer decodes, by wire name.
  public let catalog: EventCatalog
  /// How many envelopes one read takes, and so how many a crash may deliver again.
  public let batchSize: Int
  /// How long to wait for a wake-up before reading again when caught up.
  public let pollInterval: Duration
  /// Whether envelopes of a newer schema version than the catalog's type are decoded.
  public let acceptingNewerVersions: Bool
  private let onSkipped: @Sendable (Skipped) -> Void

  /// A consumer of `store`.
  ///
  /// - Parameters:
  ///   - store: the store to read.
  ///   - catalog: the event types to decode, by wire name; usually `GeneratedEvents.catalog`.
  ///   - batchSize: how many envelopes one read takes (at least 1), and so how many a crash may
  ///     deliver again.
  ///   - pollInterval: how long to wait for a wake-up before reading again when caught up.
  ///   - acceptingNewerVersions: whether to decode envelopes of a newer schema version than the
  ///     catalog's type, instead of skipping them.
  ///   - onSkipped: called with each envelope that is skipped; by default a line on standard error.
  public init(
    store: Store, catalog: EventCatalog, batchSize: Int = 100, pollInterval: Duration = .seconds(1),
    acceptingNewerVersions: Bool = false,
    onSkipped: @escaping @Sendable (Skipped) -> Void = { FileHandle.standardError.write(Data("skipped \($0)\n".utf8)) }
  ) {
    self.store = store
    self.catalog = catalog
    self.batchSize = max(1, batchSize)
    self.pollInterval = pollInterval
    self.acceptingNewerVersions = acceptingNewerVersions
    self.onSkipped = onSkipped
  }

  /// Calls `handler` with every event after `checkpoint`, then with new events as they are
  /// appended, until the task is cancelled (then it returns) or `handler` throws (then it
  /// throws). The checkpoint is saved once `handler` has returned for every event of a batch,
  /// and each event is noted as handled once `handler` has returned for it.
  public func run<Checkpoint: EventCheckpoint>(
    from checkpoint: Checkpoint, _ handler: (StoredEvent<Store.Position>) async throws -> Void
  ) async throws where Checkpoint.Position == Store.Position {
    for try await delivery in events(from: checkpoint) {
      try await handler(delivery)
    }
  }

  /// Publishes every event after `checkpoint` into `bus`, then new events as they are appended,
  /// until the task is cancelled.
  ///
  /// An event counts as handled when `publish` returns: that covers immediate subscribers only.
  /// Queued, main-actor and stream subscribers receive it later, and a crash before they run
  /// loses it for them; subscribe with `.immediate` where at-least-once matters. Immediate
  /// subscribers find the event's envelope and position with ``StoreDelivery/of(_:)``.
  public func run<Checkpoint: EventCheckpoint>(
    from checkpoint: Checkpoint, into bus: some EventPublishing
  ) async throws where Checkpoint.Position == Store.Position {
    try await run(from: checkpoint) { delivery in
      delivery.withStoreDelivery { bus.publish(delivery.event) }
    }
  }

  /// Every event after `checkpoint`, then new events as they are appended, as an asynchronous
  /// sequence that ends when the task is cancelled.
  ///
  /// The checkpoint is saved when the loop asks for the event after the last of a batch: the
  /// body has then finished with every event of the batch. Each event is noted as handled
  /// (``EventCheckpoint/noteHandled(_:)``) when the loop asks for the one after it. A loop that
  /// leaves early has its last event delivered again by the next run, and, with a checkpoint
  /// that keeps nothing between saves, the batch it was in.
  public func events<Checkpoint: EventCheckpoint>(from checkpoint: Checkpoint) -> Events<Checkpoint>
  where Checkpoint.Position == Store.Position {
    Events(consumer: self, checkpoint: checkpoint)
  }

  /// The events of a store after a checkpoint; see ``EventConsumer/events(from:)``.
  public struct Events<Checkpoint: EventCheckpoint>: AsyncSequence where Checkpoint.Position == Store.Position {
    public typealias Element = StoredEvent<Store.Position>

    let consumer: EventConsumer
    let checkpoint: Checkpoint

    public func makeAsyncIterator() -> Iterator {
      Iterator(consumer: consumer, checkpoint: checkpoint)
    }

    /// Reads a batch at a time and saves the checkpoint before reading the next.
    public struct Iterator: AsyncIteratorProtocol {
      let consumer: EventConsumer
      let checkpoint: Checkpoint
      var loaded = false
      var position: Store.Position?
      var pending: [Element] = []
      var batchEnd: Store.Position?
      /// The position of the last event handed out, until it is noted as handled.
      var handedOut: Store.Position?

      public mutating func next() async throws -> Element? {
        if !loaded {
          position = try await checkpoint.load()
          loaded = true
        }
        // The loop asks for the next event: it is done with the last one. Noted even when a
        // save follows, which a crash may cut short. A note that fails costs only repeats after
        // a crash, so it does not stop the reader.
        if let done = handedOut {
          handedOut = nil
          try? await checkpoint.noteHandled(done)
        }
        while pending.isEmpty {
          // Every event of the last batch has been handed out and its body has finished.
          if let end = batchEnd, end != position {
            try await checkpoint.save(end)
            position = end
          }
          batchEnd = nil
          if Task.isCancelled { return nil }
          let batch = try await consumer.store.read(after: position, limit: consumer.batchSize)
          for reason in batch.skipped { consumer.onSkipped(Skipped(envelope: nil, reason: reason)) }
          for stored in batch.envelopes {
            do {
              let event = try stored.envelope.decode(
                using: consumer.catalog, acceptingNewerVersions: consumer.acceptingNewerVersions)
              pending.append(StoredEvent(event: event, envelope: stored.envelope, position: stored.position))
            } catch {
              consumer.onSkipped(Skipped(envelope: stored.envelope, reason: "\(error)"))
            }
          }
          batchEnd = batch.next
          if batch.envelopes.isEmpty && batch.skipped.isEmpty {
            do {
              try await consumer.store.waitForEnvelopes(after: position, timeout: consumer.pollInterval)
            } catch is CancellationError {
              return nil
            }
          }
        }
        let delivery = pending.removeFirst()
        handedOut = delivery.position
        return delivery
      }
    }
  }
}
