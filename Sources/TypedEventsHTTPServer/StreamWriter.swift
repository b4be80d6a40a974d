#if HTTPServer
  import Hummingbird
  import NIOCore
  import ServiceLifecycle
  import TypedEvents

  /// Writes one Server-Sent Events stream: the store's events after the request's position,
  /// first read from the store itself, then from the endpoint's shared feed once it has caught up.
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
      try await withWatchdog {
        try await loop(&writer)
      }
    }

    private func loop(_ writer: inout any ResponseBodyWriter) async throws {
      let configuration = endpoint.configuration
      let clock = ContinuousClock()
      // The browser's EventSource reconnects after a second, not its default of about three.
      try await write(Array("retry: 1000\n\n".utf8), to: &writer)
      var lastWrite = clock.now
      // Where the stream has read to, and the id its client has last seen: they differ after
      // events this stream does not send (filtered out, or not the principal's).
      var position = selection.after
      var clientPosition = position
      var sequence: Int?
      while !Task.isCancelled {
        var frames: [UInt8] = []
        if let current = sequence {
          switch endpoint.feed.take(from: current, limit: configuration.readBatchSize) {
          case .items(let items, let next):
            for item in items where selection.admits(item.stored.envelope) {
              frames += item.frame
              clientPosition = item.stored.position
            }
            position = items.last?.stored.position ?? position
            sequence = next
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
          let batch = try await endpoint.store.read(after: position, limit: configuration.readBatchSize)
          for stored in batch.envelopes where selection.admits(stored.envelope) {
            frames += ServerSentEvents.frame(stored, defaultSource: configuration.defaultSource)
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
        if !frames.isEmpty {
          try await write(frames, to: &writer)
          lastWrite = clock.now
        }
        if clock.now - lastWrite >= configuration.heartbeatInterval {
          // A stream whose events are all filtered out still moves its client's Last-Event-ID:
          // an `id` line alone sets it and dispatches nothing.
          var heartbeat: [UInt8] = []
          if position != clientPosition, let position, let token = try? PositionToken.text(position) {
            heartbeat += Array("id: \(token)\n".utf8)
          }
          heartbeat += ServerSentEvents.comment("heartbeat")
          try await write(heartbeat, to: &writer)
          clientPosition = position
          lastWrite = clock.now
        }
      }
    }

    /// Writes `bytes` in pieces of at most 64 KiB, so that the watchdog times how long the
    /// client takes a piece, not a whole batch on a slow link.
    private func write(_ bytes: [UInt8], to writer: inout any ResponseBodyWriter) async throws {
      var start = 0
      while start < bytes.count {
        let stop = min(bytes.count, start + 64 * 1024)
        writing.withLock { $0 = .now }
        defer { writing.withLock { $0 = nil } }
        try await writer.write(ByteBuffer(bytes: bytes[start..<stop]))
        start = stop
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
