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

    /// Writes until the client goes (the caller cancels), the endpoint stops, the server shuts
    /// down gracefully, or the client takes no write for the configured timeout
    /// (``StalledClient``).
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
      try await write(ByteBuffer(string: "retry: 1000\n\n"), to: &writer)
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
        var frames = PendingFrames()
        // The share of the endpoint's read budget a read of the store holds until its client
        // has taken what it read: released at the end of each turn, or when a write throws.
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
          let share = try await endpoint.readBudget.take(configuration.readByteBudget)
          let batch = try await endpoint.store.read(
            after: position, limit: configuration.readBatchSize, maximumBytes: share.bytes, matching: selection.filter)
          share.keep(batch.envelopes.reduce(0) { $0 + $1.envelope.payload.count })
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
        if let bytes = frames.take() {
          try await write(bytes, to: &writer)
          lastWrite = clock.now
        }
        // The turn's share goes back here, once its client has taken what it read; without this
        // read, the compiler may end the grant's lifetime as soon as it is made.
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
          try await write(heartbeat, to: &writer)
          clientPosition = position
          lastWrite = clock.now
        }
      }
    }

    /// Writes `bytes` in pieces of at most 64 KiB (slices, not copies), so that the watchdog
    /// times how long the client takes a piece, not a whole batch on a slow link.
    private func write(_ bytes: ByteBuffer, to writer: inout any ResponseBodyWriter) async throws {
      var bytes = bytes
      while let piece = bytes.readSlice(length: min(bytes.readableBytes, 64 * 1024)), piece.readableBytes > 0 {
        writing.withLock { $0 = .now }
        defer { writing.withLock { $0 = nil } }
        try await writer.write(piece)
      }
    }

    /// Runs `body` in a child task beside a watchdog that ends both, throwing
    /// ``StalledClient``, when a write has waited longer than the write timeout: a client that
    /// stops reading fills the socket's and the server's bounded buffers, and then the write
    /// waits; cancelling it closes the connection. On the server's graceful shutdown the watchdog
    /// ends the stream, so that the server does not wait for a stream that never ends.
    private func withWatchdog(_ body: () async throws -> Void) async throws {
      let timeout = endpoint.configuration.writeTimeout
      let writing = writing
      try await withoutActuallyEscaping(body) { body in
        // The body runs in a child task so that the watchdog can cancel it. Sound: the parent
        // waits for the group and touches nothing the body uses while it runs.
        let transfer = UncheckedTransfer(body)
        try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask { try await transfer.value() }
          group.addTask {
            while !Task.isShuttingDownGracefully {
              try await Task.sleep(for: min(timeout / 4, .seconds(1)))
              if let began = writing.withLock({ $0 }), ContinuousClock.now - began > timeout {
                throw StalledClient(timeout: timeout)
              }
            }
          }
          try await group.next()
          group.cancelAll()
        }
      }
    }
  }

  /// The frames one turn of a stream writes: from the feed, or written from a read of the
  /// store. Frames from the feed stay a slice of the buffer the feed wrote them to when the turn
  /// writes one run of adjacent frames that is at least half of that buffer (a stream that
  /// admits a whole batch writes the feed's own bytes: no copy for each of a hundred clients).
  /// Otherwise they are copied when the turn is taken (``copyBytes`` says how many bytes first,
  /// so that the stream can take its share of the read budget before): a small slice queued on
  /// a slow connection would keep its whole batch's buffer alive.
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

    /// The bytes ``take()`` copies out of the feed's buffers: none when the turn is one slice.
    var copyBytes: Int {
      if runs.count == 1, runs[0].range.count * 2 >= runs[0].buffer.readableBytes { return 0 }
      return runs.reduce(0) { $0 + $1.range.count }
    }

    /// Everything added, nil when nothing was.
    mutating func take() -> ByteBuffer? {
      defer { runs = [] }
      var bytes = written
      written = ByteBuffer()
      if copyBytes == 0, let run = runs.first {
        let slice = run.buffer.getSlice(at: run.buffer.readerIndex + run.range.lowerBound, length: run.range.count)
        if bytes.readableBytes == 0 { return slice }
        if let slice { bytes.writeImmutableBuffer(slice) }
        return bytes
      }
      bytes.reserveCapacity(bytes.readableBytes + copyBytes)
      for run in runs {
        if let slice = run.buffer.getSlice(at: run.buffer.readerIndex + run.range.lowerBound, length: run.range.count) {
          bytes.writeImmutableBuffer(slice)
        }
      }
      return bytes.readableBytes > 0 ? bytes : nil
    }
  }

  /// A stream's client took no write for the write timeout; its connection is closed.
  struct StalledClient: Error, CustomStringConvertible {
    var timeout: Duration
    var description: String { "the client took no write for \(timeout): its stream is closed" }
  }

  /// A value handed to a child task that the compiler cannot prove is used by one task at a time
  /// (see ``StreamWriter``'s watchdog for why it is).
  private struct UncheckedTransfer<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
  }
#endif
