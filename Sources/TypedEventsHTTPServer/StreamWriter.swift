#if HTTPServer
  import Hummingbird
  import NIOCore
  import ServiceLifecycle
  import TypedEvents

  /// Writes one Server-Sent Events stream: the store's events after the request's position,
  /// from the endpoint's shared feed when it holds them, else read from the store itself until
  /// the stream has caught up with the feed.
  @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
  struct StreamWriter<Store: IdempotentEventStore, Principal: Sendable> {
    let endpoint: EventsEndpoint<Store, Principal>
    let selection: EventsEndpoint<Store, Principal>.Selection
    /// When the write in progress began; nil between writes. The watchdog reads it.
    let writing = Locked<ContinuousClock.Instant?>(nil)
    /// What the stream wrote that its connection has not yet handed to the socket.
    let unflushed = UnflushedWrites()
    /// The bytes a stream may have written and not yet flushed before it takes more to write:
    /// past them it waits, so that a client that reads nothing holds at most this and one turn.
    static var unflushedAllowance: Int { 1 << 20 }

    /// Writes until the client goes (the caller cancels), the endpoint stops, the server shuts
    /// down gracefully, or the client takes no write for the configured timeout
    /// (``StalledClient``), or takes its events so slowly that the feed drops them first
    /// (``FellBehindFeed``).
    func run(_ writer: inout any ResponseBodyWriter) async throws {
      await endpoint.feed.open(timeout: endpoint.configuration.pollInterval)
      defer { endpoint.feed.close() }
      try await withWatchdog {
        try await loop(&writer)
      }
    }

    private func loop(_ writer: inout any ResponseBodyWriter) async throws {
      let configuration = endpoint.configuration
      let clock = ContinuousClock()
      // The browser's EventSource reconnects after a second, not its default of about three.
      try await send([(ByteBuffer(string: "retry: 1000\n\n"), nil)], to: &writer)
      var lastWrite = clock.now
      // Where the stream has read to, and the id its client has last seen: they differ after
      // events this stream does not send (filtered out, or not the principal's).
      var position = selection.after
      var clientPosition = position
      // A position the feed has passed, with what follows still in it (a client that
      // reconnects; no position, on a store that was empty when the feed started): on from the
      // feed at once, no store read.
      var sequence = endpoint.feed.join(after: position)
      while !Task.isCancelled {
        // Room first: a client that takes nothing holds what it has, and takes no more.
        try await unflushed.waitUntilBelow(Self.unflushedAllowance)
        var frames = PendingFrames()
        // The share of the endpoint's read budget a read of the store, or a copy out of the
        // feed, holds until its connection has handed what the turn writes to the socket.
        var grant: ReadBudget.Grant?
        if let current = sequence {
          switch endpoint.feed.take(
            from: current, limit: configuration.readBatchSize, maximumBytes: configuration.readByteBudget)
          {
          case .items(let items, let next):
            // Per event and stream, only what cannot be shared: the access check, and a range.
            var lastSent: EventFeed<Store>.Item?
            for item in items where selection.admits(item.readPermission) {
              frames.append(range: item.range, batch: item.batch) { item.frames }
              lastSent = item
            }
            if let lastSent { clientPosition = lastSent.stored.position }
            position = items.last?.stored.position ?? position
            sequence = next
            // A copy is this stream's own memory: it waits for its share of the read budget.
            let copy = frames.copyBytes
            if copy > 0 { grant = try await endpoint.readBudget.take(copy) }
          case .behind:
            // Further behind than the feed keeps: on from the store.
            sequence = nil
          case .stopped:
            return
          case .upToDate:
            await endpoint.feed.waitForEvents(from: current)
          }
        } else {
          guard endpoint.status.withLock({ $0 }) == .running else { return }
          // The share holds the data read and the frames written from it, about as large: the
          // read takes half.
          // Shares of this stream's earlier reads that its connection has sent go back first.
          _ = unflushed.pending()
          let share = try await endpoint.readBudget.take(configuration.readByteBudget)
          let batch = try await endpoint.store.read(
            after: position, limit: configuration.readBatchSize, maximumBytes: max(1, share.bytes / 2),
            matching: selection.filter)
          share.keep(2 * batch.envelopes.reduce(0) { $0 + $1.envelope.byteCount })
          grant = share
          let identity = try await endpoint.storeIdentity()
          for stored in batch.envelopes where selection.admits(stored.envelope) {
            frames.write {
              ServerSentEvents.writeFrame(
                stored, defaultSource: configuration.defaultSource, store: identity, to: &$0)
            }
            clientPosition = stored.position
          }
          let from = position
          position = batch.next ?? position
          if batch.envelopes.isEmpty && position == from {
            // Caught up with the store: on with the feed, if it has passed this position.
            if let joined = endpoint.feed.join(after: position) {
              sequence = joined
            } else {
              try await endpoint.store.waitForEnvelopes(after: position, timeout: configuration.pollInterval)
            }
          }
        }
        let buffers = frames.take()
        if !buffers.isEmpty {
          try await send(buffers, grant: grant, to: &writer)
          lastWrite = clock.now
        }
        // Without a write the turn's share goes back here; without this read, the compiler may
        // end the grant's lifetime as soon as it is made.
        withExtendedLifetime(grant) {}
        grant = nil
        if clock.now - lastWrite >= configuration.heartbeatInterval {
          // A stream whose events are all filtered out still moves its client's Last-Event-ID:
          // an `id` line alone sets it and dispatches nothing.
          var heartbeat = ByteBuffer()
          if position != clientPosition, let position,
            let token = try? PositionToken.text(position, store: try await endpoint.storeIdentity())
          {
            heartbeat.writeString("id: \(token)\n")
          }
          heartbeat.writeBytes(ServerSentEvents.comment("heartbeat"))
          try await send([(heartbeat, nil)], to: &writer)
          clientPosition = position
          lastWrite = clock.now
        }
      }
    }

    /// Writes `buffers` in one write, each cut into pieces of at most 64 KiB (slices, not
    /// copies) that end in a ``FlushMarker``, recorded in ``unflushed`` with the feed batch the
    /// buffer is a slice of (nil for the stream's own): the watchdog times how long the
    /// connection takes to send a piece, not a whole turn on a slow link. The last piece holds
    /// `grant` until it is flushed.
    private func send(
      _ buffers: [(bytes: ByteBuffer, batch: Int?)], grant: ReadBudget.Grant? = nil,
      to writer: inout any ResponseBodyWriter
    ) async throws {
      writing.withLock { $0 = .now }
      defer { writing.withLock { $0 = nil } }
      // One write: the connection takes the turn in one hop to its event loop.
      try await unflushed.write(buffers, grant: grant, to: &writer)
    }

    /// Runs `body` in a child task beside a watchdog that ends both, throwing
    /// ``StalledClient``, when a write has waited longer than the write timeout, or its
    /// connection has flushed nothing for as long: a client that stops reading fills the
    /// socket's and the server's buffers, and then the write, or the wait for room, waits;
    /// cancelling it closes the connection. It throws ``FellBehindFeed`` as soon as a piece not
    /// yet flushed is a slice of a read the feed has dropped: its buffer would outlive the
    /// feed's byte budget. On the server's graceful shutdown the watchdog ends the stream, so
    /// that the server does not wait for a stream that never ends.
    private func withWatchdog(_ body: () async throws -> Void) async throws {
      let timeout = endpoint.configuration.writeTimeout
      let writing = writing
      let unflushed = unflushed
      let feed = endpoint.feed
      try await withoutActuallyEscaping(body) { body in
        // The body runs in a child task so that the watchdog can cancel it. Sound: the parent
        // waits for the group and touches nothing the body uses while it runs.
        let transfer = UncheckedTransfer(body)
        try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask { try await transfer.value() }
          group.addTask {
            var served = feed.firstServedBatch
            while !Task.isShuttingDownGracefully {
              await feed.waitForDrop(after: served, timeout: min(timeout / 4, .seconds(1)))
              try Task.checkCancellation()
              served = feed.firstServedBatch
              let pending = unflushed.pending()
              if let oldest = pending.oldestBatch, oldest < served { throw FellBehindFeed() }
              if let began = writing.withLock({ $0 }), ContinuousClock.now - began > timeout {
                throw StalledClient(timeout: timeout)
              }
              if pending.waiting > timeout { throw StalledClient(timeout: timeout) }
            }
          }
          try await group.next()
          group.cancelAll()
        }
      }
    }
  }

  /// The frames one turn of a stream writes: from the feed, or written from a read of the
  /// store. A run of adjacent frames from the feed that is at least half of the buffer the feed
  /// wrote them to stays a slice of that buffer (a stream that admits a whole batch writes the
  /// feed's own bytes: no copy for each of a hundred clients). Smaller runs are copied when the
  /// turn is taken (``copyBytes`` says how many bytes first, so that the stream can take its
  /// share of the read budget before): a small slice queued on a slow connection would keep its
  /// whole batch's buffer alive.
  private struct PendingFrames {
    /// Runs of adjacent frames in one feed batch's buffer, not yet copied.
    private var runs: [(buffer: ByteBuffer, range: Range<Int>, batch: Int)] = []
    /// Frames written from a read of the store.
    private var written = ByteBuffer()

    /// Adds the frame at `range` of the buffer of the feed's batch `batch`, which `frames`
    /// gives: asked for only when the frame does not extend the last run.
    mutating func append(range: Range<Int>, batch: Int, frames: () -> ByteBuffer) {
      if let last = runs.indices.last, runs[last].batch == batch, runs[last].range.upperBound == range.lowerBound {
        runs[last].range = runs[last].range.lowerBound..<range.upperBound
        return
      }
      runs.append((frames(), range, batch))
    }

    /// Adds bytes that `body` writes.
    mutating func write(_ body: (inout ByteBuffer) -> Void) {
      body(&written)
    }

    private static func isSlice(_ run: (buffer: ByteBuffer, range: Range<Int>, batch: Int)) -> Bool {
      run.range.count * 2 >= run.buffer.readableBytes
    }

    /// The bytes ``take()`` copies out of the feed's buffers.
    var copyBytes: Int {
      runs.reduce(0) { $0 + (Self.isSlice($1) ? 0 : $1.range.count) }
    }

    /// Everything added, in order: slices of the feed's buffers with their batch, and buffers
    /// of the stream's own (batch nil), adjacent copies in one.
    mutating func take() -> [(bytes: ByteBuffer, batch: Int?)] {
      defer {
        runs = []
        written = ByteBuffer()
      }
      var buffers: [(bytes: ByteBuffer, batch: Int?)] = []
      if written.readableBytes > 0 { buffers.append((written, nil)) }
      for (index, run) in runs.enumerated() {
        guard
          let slice = run.buffer.getSlice(at: run.buffer.readerIndex + run.range.lowerBound, length: run.range.count)
        else { continue }
        if Self.isSlice(run) {
          buffers.append((slice, run.batch))
        } else if let last = buffers.indices.last, buffers[last].batch == nil {
          buffers[last].bytes.writeImmutableBuffer(slice)
        } else {
          // As large as the copies up to the next slice: the buffers hold what the grant counts.
          var copy = ByteBuffer()
          copy.reserveCapacity(runs[index...].prefix { !Self.isSlice($0) }.reduce(0) { $0 + $1.range.count })
          copy.writeImmutableBuffer(slice)
          buffers.append((copy, nil))
        }
      }
      return buffers
    }
  }

  /// A stream's or a page's client took no write for the write timeout; its connection is
  /// closed.
  struct StalledClient: Error, CustomStringConvertible {
    var timeout: Duration
    var description: String { "the client took no write for \(timeout): its connection is closed" }
  }

  /// A stream's client took its events more slowly than the feed went past them: a write not
  /// yet flushed holds a read the feed has dropped. Its connection is closed; the client
  /// resumes from its last id, from the store.
  struct FellBehindFeed: Error, CustomStringConvertible {
    var description: String { "the client fell behind the feed's byte budget: its stream is closed" }
  }

  /// A value handed to a child task that the compiler cannot prove is used by one task at a time
  /// (see ``StreamWriter``'s watchdog for why it is).
  private struct UncheckedTransfer<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
  }
#endif
