#if HTTPServer
  import NIOCore
  import TypedEvents

  /// The newest events of a store, read once for every stream of an ``EventsEndpoint``, each with
  /// its Server-Sent Events frame written once.
  ///
  /// The feed reads the store only while streams are open: it starts at the store's end when
  /// the first stream opens, and once no stream has been open for its idle timeout it drops
  /// what it keeps and waits for the next, which starts it at the end again. An endpoint that
  /// only takes POSTs reads nothing back. It keeps at most `capacity` events. A stream takes
  /// events from it by sequence number, from the start when the feed holds what follows its
  /// position. One that is further behind (it resumed from long ago, or its client is slow, or
  /// it opened while the feed was idle) reads the store itself, a batch at a time, until a read
  /// finds nothing more, and then joins the feed at the position it reached, once the feed has
  /// passed it. A position the feed never passed (one no read gave) never joins: that stream
  /// reads the store itself.
  final class EventFeed<Store: EventStore>: Sendable {
    /// An event of the feed. A class: every stream takes each item, and copying a reference
    /// costs one retain where the envelope's fields cost one each.
    final class Item: Sendable {
      let stored: StoredEnvelope<Store.Position>
      /// The frames of the whole batch this event was read in, one buffer shared by its items
      /// and by the streams that write slices of it.
      let frames: ByteBuffer
      /// Where this event's frame is in ``frames``.
      let range: Range<Int>
      /// Which of the feed's reads ``frames`` holds: items of one batch with adjacent ranges are
      /// adjacent frames in one buffer.
      let batch: Int
      /// What a stream asks its principal's access policy before it sends the event: made once
      /// here, not by each stream, which copied the whole envelope for it.
      let readPermission: EventPermission
      /// What the item holds in memory, as the feed's byte budget counts it: the event's data
      /// and its frame (the rest of an envelope is a few hundred bytes more).
      let bytes: Int

      init(stored: StoredEnvelope<Store.Position>, frames: ByteBuffer, range: Range<Int>, batch: Int) {
        self.stored = stored
        self.frames = frames
        self.range = range
        self.batch = batch
        readPermission = EventPermission(read: stored.envelope)
        bytes = stored.envelope.payload.count + range.count
      }
    }

    /// What ``take(from:limit:)`` found.
    enum Taken {
      /// Events, and the sequence number to take from next.
      case items([Item], next: Int)
      /// Nothing yet after this sequence number.
      case upToDate
      /// The events from this sequence number on are gone: read the store.
      case behind
      /// The feed has stopped: the endpoint is shutting down.
      case stopped
    }

    struct State {
      /// Where the feed reads the store next.
      var after: Store.Position?
      /// The events kept, from `items[head]` on; `items[head]` has sequence number `first`.
      var items: [Item] = []
      var head = 0
      var first = 0
      /// The ``Item/bytes`` of the items kept, and of those dropped and not yet compacted away.
      var bytes = 0
      var droppedBytes = 0
      /// For positions the feed has passed: the sequence number of the event after it.
      var sequences: [Store.Position?: Int] = [:]
      /// The keys of `sequences`, in the order they were added, from `keysHead` on.
      var keys: [(sequence: Int, position: Store.Position?)] = []
      var keysHead = 0
      var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
      var nextWaiter = 0
      var stopped = true
      /// The streams open now, and when the last one closed.
      var streams = 0
      var lastClosed = ContinuousClock.now
      /// The idle feed's, resumed when a stream opens (by id, as `waiters`: a feed run twice at
      /// once must not lose one).
      var idle: [Int: CheckedContinuation<Void, Never>] = [:]
      /// Whether the feed has started at the store's end and reads it; and the streams that
      /// wait for that.
      var reading = false
      var starting: [Int: CheckedContinuation<Void, Never>] = [:]
      /// The oldest of the feed's reads that it still serves (``Item/batch``): a stream whose
      /// unflushed writes are slices of an older one keeps alive a buffer the feed no longer
      /// counts. And the watchdogs of streams, woken when it moves.
      var firstServedBatch = 0
      var dropWatchers: [Int: CheckedContinuation<Void, Never>] = [:]

      /// The continuations of `table`, taken: the caller resumes them outside the lock.
      mutating func take(
        _ table: WritableKeyPath<State, [Int: CheckedContinuation<Void, Never>]>
      ) -> [CheckedContinuation<Void, Never>] {
        defer { self[keyPath: table] = [:] }
        return Array(self[keyPath: table].values)
      }

      var end: Int { first + items.count - head }

      /// How long until the feed rests (zero or less: it is due); nil while a stream is open.
      func timeToRest(_ idleTimeout: Duration) -> Duration? {
        streams == 0 ? idleTimeout - (ContinuousClock.now - lastClosed) : nil
      }

      /// Drops every event and position kept; the next event's sequence number follows a gap.
      mutating func forget() {
        first = end + 1
        items = []
        head = 0
        bytes = 0
        droppedBytes = 0
        sequences = [:]
        keys = []
        keysHead = 0
      }
    }

    /// The most events kept, and the most bytes they hold.
    let capacity: Int
    let byteBudget: Int
    /// Everything the feed keeps, under one lock (the reading side is EventFeed+Reading.swift).
    let state = Locked(State())

    /// A feed that keeps the newest `capacity` events (at least 1) that hold at most
    /// `byteBudget` bytes in all (``Item/bytes``).
    init(capacity: Int, byteBudget: Int = .max) {
      self.capacity = max(1, capacity)
      self.byteBudget = max(1, byteBudget)
    }

    /// What the feed holds: the events it serves (at most `capacity`), those dropped and not yet
    /// compacted away (at most a quarter of `capacity`), and the positions it knows (one per
    /// event held, and the few that name the place before the first).
    var holdings: (events: Int, dropped: Int, positions: Int) {
      state.withLock { ($0.items.count - $0.head, $0.head, $0.sequences.count) }
    }

    /// The bytes of the events the feed serves, and of those dropped and not yet compacted away
    /// (``Item/bytes``).
    var heldBytes: (events: Int, dropped: Int) {
      state.withLock { ($0.bytes, $0.droppedBytes) }
    }

    /// The oldest of the feed's reads whose events it still serves.
    var firstServedBatch: Int { state.withLock { $0.firstServedBatch } }

    /// Returns once the feed drops its oldest served read (``firstServedBatch`` moves), or after
    /// `timeout`, or when the task is cancelled.
    func waitForDrop(after batch: Int, timeout: Duration) async {
      await withTaskGroup(of: Void.self) { group in
        // Not `stopped`: a stopped feed drops nothing, and the watchdog would spin.
        group.addTask { await self.park(in: \.dropWatchers) { $0.firstServedBatch > batch } }
        group.addTask { try? await Task.sleep(for: timeout) }
        await group.next()
        group.cancelAll()
      }
    }

    // MARK: Streams

    /// The sequence number of the event after `position`, when the feed has passed `position`
    /// and still holds what follows; nil otherwise.
    func join(after position: Store.Position?) -> Int? {
      state.withLock { $0.stopped ? nil : $0.sequences[position] }
    }

    /// Up to `limit` events from sequence number `sequence` on. They end where one of the feed's
    /// reads ends once they are half of `limit` or of `maximumBytes` (``Item/bytes``), or before
    /// a read that would take them past `maximumBytes`, so that a stream that admits a large
    /// read writes one slice of its buffer; small reads (one event each, while events trickle
    /// in) are taken together. Copied: a slice would keep the feed's storage shared, and make
    /// its next append copy all of it.
    func take(from sequence: Int, limit: Int, maximumBytes: Int = .max) -> Taken {
      state.withLock { state in
        if state.stopped { return .stopped }
        if sequence < state.first { return .behind }
        guard sequence < state.end else { return .upToDate }
        let start = state.head + (sequence - state.first)
        let bound = min(state.items.count, start + max(1, limit))
        var stop = start + 1
        var bytes = state.items[start].bytes
        while stop < bound {
          let item = state.items[stop]
          // Only where one of the feed's reads ends: a whole read is one slice to write.
          if item.batch != state.items[stop - 1].batch {
            let half = stop - start >= max(1, limit / 2) || bytes >= maximumBytes / 2
            if half || bytes + item.bytes > maximumBytes { break }
          }
          bytes += item.bytes
          stop += 1
        }
        return .items(Array(state.items[start..<stop]), next: sequence + (stop - start))
      }
    }

    /// Returns once the feed holds events from `sequence` on, when the feed finds the store
    /// empty again (about every poll interval while nothing is appended, so that a stream can
    /// send its heartbeat), when the feed stops, or when the task is cancelled.
    func waitForEvents(from sequence: Int) async {
      await park(in: \.waiters) { $0.stopped || sequence < $0.end }
    }

    /// Waits until `ready` holds: returns at once when it does, else once the feed resumes the
    /// continuations of `table` or the task is cancelled. Each waits under an id of its own, so
    /// that a cancelled one removes itself.
    func park(
      in table: WritableKeyPath<State, [Int: CheckedContinuation<Void, Never>]> & Sendable,
      unless ready: (State) -> Bool
    ) async {
      let id = state.withLock { state in
        defer { state.nextWaiter += 1 }
        return state.nextWaiter
      }
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let now = state.withLock { state -> Bool in
            if Task.isCancelled || ready(state) { return true }
            state[keyPath: table][id] = continuation
            return false
          }
          if now { continuation.resume() }
        }
      } onCancel: {
        state.withLock { $0[keyPath: table].removeValue(forKey: id) }?.resume()
      }
    }

    /// Counts a stream as open and starts the feed when it is idle; returns once the feed reads
    /// the store, or after `timeout` (a store that does not answer holds no stream back: the
    /// stream reads the store itself meanwhile, as it does when behind).
    func open(timeout: Duration) async {
      let (idle, reading) = state.withLock { state in
        state.streams += 1
        return (state.take(\.idle), state.reading)
      }
      for feed in idle { feed.resume() }
      guard !reading else { return }
      await withTaskGroup(of: Void.self) { group in
        group.addTask { await self.park(in: \.starting) { $0.reading } }
        group.addTask { try? await Task.sleep(for: timeout) }
        await group.next()
        group.cancelAll()
      }
    }

    /// Counts a stream as closed.
    func close() {
      state.withLock { state in
        state.streams -= 1
        state.lastClosed = .now
      }
    }
  }
#endif
