#if HTTPClient
  import AsyncHTTPClient
  import Foundation
  import NIOCore
  import TypedEvents

  extension EventsClient {
    /// Every event after `checkpoint`, then new events as the endpoint's store gets them, as an
    /// asynchronous sequence that ends when the task is cancelled.
    ///
    /// ### What it guarantees
    ///
    /// - **Order**: the store's order, one event at a time.
    /// - **Resume**: a dropped connection is opened again after a delay that grows with each
    ///   failure in a row (see ``Configuration``), with `Last-Event-ID` set to the last position
    ///   received, so no event is lost and none comes twice while the sequence runs.
    /// - **Across restarts**: the position is saved to `checkpoint` when the loop asks for an
    ///   event and none has arrived yet, and when the task is cancelled: the body has then
    ///   finished with every event before it. Positions the endpoint sends without an event
    ///   (past events it filtered out) are saved the same way. In between, each event is noted
    ///   as handled (`EventCheckpoint.noteHandled(_:)`) when the loop asks for the one after
    ///   it. A process restarted after a crash goes on after the last event its
    ///   `FileCheckpoint` noted: only the event the body had not finished comes again. After a
    ///   crash of the machine, or with a checkpoint that keeps nothing between saves, the
    ///   events after the last save come again.
    /// - **Skip and report**: an event that does not decode goes to `onSkipped`, and the
    ///   sequence goes on.
    ///
    /// It throws ``EventsClientError/refused(_:)`` when the endpoint refuses the stream for good
    /// (401, 403, a position it does not know, …) and the checkpoint's errors. Any other failure,
    /// a connection that drops or a 5xx answer, is retried.
    ///
    /// Each element is a ``Delivery``: the typed event, its envelope, and its position, the
    /// token to save (in the app's own database, in the transaction that records what the
    /// event changed) and to start from again with ``events(after:types:subject:)``.
    ///
    /// - Parameters:
    ///   - checkpoint: where the last run stopped; nil-valued to start at the store's beginning.
    ///   - types: the wire names to receive; all when empty.
    ///   - subject: the one subject to receive events about; all when nil.
    public func events<Checkpoint: EventCheckpoint>(
      from checkpoint: Checkpoint, types: [String] = [], subject: String? = nil
    ) -> Events<Checkpoint> where Checkpoint.Position == String {
      var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
      var query = components?.queryItems ?? []
      query += types.map { URLQueryItem(name: "type", value: $0) }
      if let subject { query.append(URLQueryItem(name: "subject", value: subject)) }
      components?.queryItems = query.isEmpty ? nil : query
      return Events(client: self, checkpoint: checkpoint, streamURL: components?.url ?? url)
    }

    /// Every event after `position`, a delivery's `position` the app saved itself (nil: the
    /// store's beginning), then new events as they come; as ``events(from:types:subject:)``,
    /// with nothing saved for the app: it saves each delivery's position where it keeps its own
    /// state.
    ///
    /// ```swift
    /// for try await delivery in client.events(after: try database.savedPosition()) {
    ///   try database.transaction { tx in
    ///     try tx.apply(delivery.event)
    ///     try tx.savePosition(delivery.position)  // with the change: exactly once
    ///   }
    /// }
    /// ```
    public func events(
      after position: String?, types: [String] = [], subject: String? = nil
    ) -> Events<MemoryCheckpoint<String>> {
      events(from: MemoryCheckpoint(position), types: types, subject: subject)
    }

    /// Calls `handler` with every event after `checkpoint`, then with new events as they come,
    /// until the task is cancelled (then it returns) or `handler` throws (then it throws); see
    /// ``events(from:types:subject:)`` for what is guaranteed. An event counts as handled when
    /// `handler` returns.
    public func run<Checkpoint: EventCheckpoint>(
      from checkpoint: Checkpoint, types: [String] = [], subject: String? = nil,
      _ handler: (Delivery) async throws -> Void
    ) async throws where Checkpoint.Position == String {
      for try await delivery in events(from: checkpoint, types: types, subject: subject) {
        try await handler(delivery)
      }
    }

    /// Publishes every event after `checkpoint` into `bus`, then new events as they come, as if
    /// they were published in this process, until the task is cancelled; see
    /// ``events(from:types:subject:)`` for what is guaranteed.
    ///
    /// An event counts as handled when `publish` returns: that covers immediate subscribers
    /// only, which find the event's envelope and position with `StoreDelivery.of(_:)` while it
    /// is published. After a crash of the process the `FileCheckpoint` goes on after the last
    /// event published, so only the one being published when the process died comes again.
    public func run<Checkpoint: EventCheckpoint>(
      from checkpoint: Checkpoint, types: [String] = [], subject: String? = nil, into bus: some EventPublishing
    ) async throws where Checkpoint.Position == String {
      try await run(from: checkpoint, types: types, subject: subject) { delivery in
        delivery.withStoreDelivery { bus.publish(delivery.event) }
      }
    }

    /// One event the endpoint sent: the typed event, its envelope, and its position, the token
    /// to go on after it.
    public typealias Delivery = StoredEvent<String>

    /// The events of an endpoint after a checkpoint; see ``EventsClient/events(from:types:subject:)``.
    public struct Events<Checkpoint: EventCheckpoint>: AsyncSequence, Sendable where Checkpoint.Position == String {
      public typealias Element = Delivery

      let client: EventsClient
      let checkpoint: Checkpoint
      let streamURL: URL

      public func makeAsyncIterator() -> Iterator {
        Iterator(events: self)
      }

      /// Reads one connection at a time, and opens the next after a failure.
      public struct Iterator: AsyncIteratorProtocol {
        let events: Events
        var loaded = false
        /// The position of the last event handed out, or that the endpoint moved to.
        var position: String?
        var saved: String?
        /// The position of the last event handed out, until it is noted as handled.
        var handedOut: String?
        var connection: Connection?
        var backoff: Backoff
        /// The reconnection time the endpoint last asked for (its `retry` field): the shortest
        /// wait before a new attempt.
        var serverRetry: Duration = .zero

        init(events: Events) {
          self.events = events
          backoff = Backoff(
            initial: events.client.configuration.initialRetryDelay,
            maximum: events.client.configuration.maximumRetryDelay)
        }

        public mutating func next() async throws -> Element? {
          let client = events.client
          if !loaded {
            position = try await events.checkpoint.load()
            saved = position
            loaded = true
          }
          // The loop asks for the next event: it is done with the last one. A note that fails
          // costs only repeats after a crash, so it does not stop the stream.
          if let done = handedOut {
            handedOut = nil
            try? await events.checkpoint.noteHandled(done)
          }
          reading: while !Task.isCancelled {
            if connection?.hasParsedFrames != true { try await save() }
            guard var open = connection else {
              do {
                connection = try await Connection(client: client, url: events.streamURL, after: position)
              } catch let error as EventsClientError where !error.isTransient {
                throw error
              } catch {
                if !(await wait()) { break reading }
              }
              continue
            }
            let frame: Connection.Frame?
            do {
              frame = try await open.next()
            } catch {
              frame = nil
            }
            connection = open
            if let milliseconds = open.parser.retryMilliseconds { serverRetry = .milliseconds(milliseconds) }
            switch frame {
            case nil:
              // The connection ended or failed: open another after a pause.
              connection = nil
              if !(await wait()) { break reading }
            case .moved(let id):
              backoff.succeeded()
              if !id.isEmpty { position = id }
            case .event(let event):
              backoff.succeeded()
              if !event.id.isEmpty { position = event.id }
              let envelope: EventEnvelope
              do {
                envelope = try EventEnvelope(cloudEventJSON: Data(event.data.utf8))
              } catch {
                client.onSkipped(Skipped(envelope: nil, reason: "a \(event.type) frame is no CloudEvent: \(error)"))
                continue reading
              }
              do {
                // The endpoint gives every event an id; a frame of another server without one
                // has the position before it, and nothing new to note.
                let delivery = Delivery(
                  event: try envelope.decode(using: client.catalog), envelope: envelope, position: position ?? "")
                handedOut = position
                return delivery
              } catch {
                client.onSkipped(Skipped(envelope: envelope, reason: "\(error)"))
              }
            }
          }
          // Cancelled: the caller asked for the next event, so it is done with the last one.
          try await save()
          return nil
        }

        /// Saves the position of the last event handed out, unless it is saved already.
        private mutating func save() async throws {
          guard let position, position != saved else { return }
          try await events.checkpoint.save(position)
          saved = position
        }

        /// Waits before the next attempt; false when the task was cancelled meanwhile.
        private mutating func wait() async -> Bool {
          do {
            try await Task.sleep(for: Swift.max(backoff.failed(), serverRetry))
            return true
          } catch {
            return false
          }
        }
      }
    }

    /// One open `text/event-stream` response, and what has been parsed of it.
    struct Connection {
      enum Frame {
        case event(ServerSentEvent)
        /// The endpoint moved the position without an event (a heartbeat that carries an `id`).
        case moved(String)
      }

      private var body: HTTPClientResponse.Body.AsyncIterator
      private(set) var parser = ServerSentEventParser()
      private var frames: [Frame] = []
      private var nextFrame = 0
      private var lastID: String

      /// Opens the stream after `position`; throws ``EventsClientError/refused(_:)`` when the
      /// endpoint does not answer with a stream.
      init(client: EventsClient, url: URL, after position: String?) async throws {
        var request = try await client.request(url)
        request.headers.replaceOrAdd(name: "Accept", value: "text/event-stream")
        if let position, !position.isEmpty { request.headers.replaceOrAdd(name: "Last-Event-ID", value: position) }
        // AsyncHTTPClient's timeout bounds the wait for the answer's head; the body then streams
        // without a deadline.
        let response = try await client.httpClient.execute(request, timeout: .init(client.configuration.requestTimeout))
        let contentType = response.headers.first(name: "Content-Type") ?? ""
        guard response.status == .ok, contentType.lowercased().hasPrefix("text/event-stream") else {
          let body = try await response.body.collect(upTo: client.configuration.maximumAnswerSize)
          let status = response.status == .ok ? 502 : Int(response.status.code)
          throw EventsClientError.refused(EventsProblem(status: status, body: Data(buffer: body)))
        }
        body = response.body.makeAsyncIterator()
        lastID = position ?? ""
      }

      /// Whether frames already read wait to be handed out.
      var hasParsedFrames: Bool { nextFrame < frames.count }

      /// The next frame; nil when the connection has ended.
      mutating func next() async throws -> Frame? {
        while nextFrame == frames.count {
          frames.removeAll(keepingCapacity: true)
          nextFrame = 0
          guard let buffer = try await body.next() else { return nil }
          for event in parser.parse(buffer.readableBytesView) {
            frames.append(.event(event))
            lastID = event.id
          }
          if parser.lastEventID != lastID {
            lastID = parser.lastEventID
            frames.append(.moved(lastID))
          }
        }
        defer { nextFrame += 1 }
        return frames[nextFrame]
      }
    }
  }
#endif
