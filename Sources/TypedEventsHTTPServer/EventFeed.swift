#if HTTPServer
  import Logging
  import TypedEvents

  /// The newest events of a store, read once for every stream of an ``EventsEndpoint``, each with
  /// its Server-Sent Events frame written once.
  ///
  /// Memory is bounded: the feed keeps at most `capacity` events. A stream takes events from it
  /// by sequence number; one that falls further behind than that (a slow client, or one that
  /// resumed from long ago) reads the store itself until it catches up, and then joins the feed
  /// again. So a stream never holds more than one batch, and a slow client costs no memory.
  final class EventFeed<Store: EventStore>: Sendable {
    /// An event of the feed.
    struct Item: Sendable {
      var stored: StoredEnvelope<Store.Position>
      var frame: [UInt8]
    }

    /// What ``take(from:limit:)`` found.
    enum Taken {
      /// Events, and the sequence number to take from next.
      case items(ArraySlice<Item>, next: Int)
      /// Nothing yet after this sequence number.
      case upToDate
      /// The events from this sequence number on are gone: read the store.
      case behind
      /// The feed has stopped: the endpoint is shutting down.
      case stopped
    }

    private struct State {
      var started = false
      /// Where the feed reads the store next.
      var after: Store.Position?
      /// The events kept, from `items[head]` on; `items[head]` has sequence number `first`.
      var items: [Item] = []
      var head = 0
      var first = 0
      /// For positions the feed has passed: the sequence number of the event after it.
      var sequences: [Store.Position?: Int] = [:]
      /// The keys of `sequences`, in the order they were added, from `keysHead` on.
      var keys: [(sequence: Int, position: Store.Position?)] = []
      var keysHead = 0
      var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
      var nextWaiter = 0
      var startWaiter: CheckedContinuation<Void, Never>?
      var stopped = false

      var end: Int { first + items.count - head }
    }

    let capacity: Int
    private let state = Locked(State())

    /// A feed that keeps the newest `capacity` events (at least 1).
    init(capacity: Int) {
      self.capacity = max(1, capacity)
    }

    // MARK: Streams

    /// The sequence number of the event after `position`, when the feed has passed `position`
    /// and still holds what follows; nil otherwise. The first stream to call starts the feed at
    /// its position.
    func join(after position: Store.Position?) -> Int? {
      let (sequence, starting) = state.withLock { state -> (Int?, CheckedContinuation<Void, Never>?) in
        guard state.started else {
          state.started = true
          state.after = position
          state.sequences[position] = 0
          state.keys.append((0, position))
          defer { state.startWaiter = nil }
          return (0, state.startWaiter)
        }
        return (state.sequences[position], nil)
      }
      starting?.resume()
      return sequence
    }

    /// Up to `limit` events from sequence number `sequence` on.
    func take(from sequence: Int, limit: Int) -> Taken {
      state.withLock { state in
        if state.stopped { return .stopped }
        if sequence < state.first { return .behind }
        guard sequence < state.end else { return .upToDate }
        let start = state.head + (sequence - state.first)
        let stop = min(state.items.count, start + max(1, limit))
        return .items(state.items[start..<stop], next: sequence + (stop - start))
      }
    }

    /// Returns once the feed holds events from `sequence` on, at the feed's next read of an
    /// empty store (at least every poll interval, so that a stream can send its heartbeat), or
    /// when the task is cancelled.
    func waitForEvents(from sequence: Int) async {
      let id = state.withLock { state in
        defer { state.nextWaiter += 1 }
        return state.nextWaiter
      }
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let now = state.withLock { state -> Bool in
            if Task.isCancelled || state.stopped || sequence < state.end { return true }
            state.waiters[id] = continuation
            return false
          }
          if now { continuation.resume() }
        }
      } onCancel: {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
      }
    }

    // MARK: Reading the store

    /// Reads the store from where the first stream joined, until cancelled: new events go into
    /// the feed and wake the streams waiting for them. Read errors are logged and retried after
    /// `pollInterval`.
    func run(store: Store, batchSize: Int, pollInterval: Duration, logger: Logger) async {
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let now = state.withLock { state -> Bool in
            if state.started || Task.isCancelled { return true }
            state.startWaiter = continuation
            return false
          }
          if now { continuation.resume() }
        }
      } onCancel: {
        state.withLock { state in
          defer { state.startWaiter = nil }; return state.startWaiter
        }?.resume()
      }
      while !Task.isCancelled {
        let after = state.withLock { $0.after }
        do {
          let batch = try await store.read(after: after, limit: batchSize)
          if !batch.envelopes.isEmpty || batch.next != after {
            let items = batch.envelopes.map { Item(stored: $0, frame: ServerSentEvents.frame($0)) }
            publish(items, next: batch.next)
            continue
          }
          try await store.waitForEnvelopes(after: after, timeout: pollInterval)
        } catch is CancellationError {
          break
        } catch {
          logger.warning("reading the event store failed; retrying", metadata: ["error": "\(error)"])
          try? await Task.sleep(for: pollInterval)
        }
        wakeAll()
      }
      state.withLock { $0.stopped = true }
      wakeAll()
    }

    /// Adds `items`, read up to `next`, drops the oldest beyond the capacity, and wakes streams.
    private func publish(_ items: [Item], next: Store.Position?) {
      let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
        for item in items {
          state.items.append(item)
          state.sequences[item.stored.position] = state.end
          state.keys.append((state.end, item.stored.position))
        }
        state.after = next
        if state.sequences[next] == nil {
          state.sequences[next] = state.end
          state.keys.append((state.end, next))
        }
        while state.end - state.first > capacity {
          state.head += 1
          state.first += 1
        }
        while state.keysHead < state.keys.count, state.keys[state.keysHead].sequence < state.first {
          state.sequences.removeValue(forKey: state.keys[state.keysHead].position)
          state.keysHead += 1
        }
        // Compacted once half is dropped: each event is moved at most once on average.
        if state.head > capacity {
          state.items.removeFirst(state.head)
          state.head = 0
        }
        if state.keysHead > capacity {
          state.keys.removeFirst(state.keysHead)
          state.keysHead = 0
        }
        defer { state.waiters = [:] }
        return Array(state.waiters.values)
      }
      for waiter in waiters { waiter.resume() }
    }

    private func wakeAll() {
      let waiters = state.withLock { state in
        defer { state.waiters = [:] }
        return Array(state.waiters.values)
      }
      for waiter in waiters { waiter.resume() }
    }
  }
#endif
