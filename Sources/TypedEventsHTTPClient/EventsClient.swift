#if HTTPClient
  import AsyncHTTPClient
  import Foundation
  import NIOCore
  import NIOFoundationCompat
  import NIOHTTP1
  import TypedEvents

  /// An app's side of a TypedEvents HTTP endpoint (`TypedEventsHTTPServer`'s `EventsEndpoint`):
  /// it reads the endpoint's events as typed values, and sends events to it.
  ///
  /// Reading is ``events(from:types:subject:)``, or ``run(from:types:subject:into:)`` to publish
  /// what arrives into an app's bus. Sending is ``send(_:)``, or, for events an app must not lose
  /// while it is offline, an ``EventOutbox``.
  ///
  /// The client runs on an AsyncHTTPClient `HTTPClient`, by default the shared one. A stream
  /// whose connection goes silent without closing (a network that changed, a NAT that forgot
  /// it) ends, and is opened again, only by that client's read timeout: the shared client's is
  /// 90 seconds. Give a client of your own a read timeout longer than the endpoint's heartbeat
  /// interval (15 seconds by default).
  public struct EventsClient: Sendable {
    /// How the client waits, retries and limits what it reads.
    public struct Configuration: Sendable {
      /// The first delay before a new attempt after a failure; it doubles with each failure in a
      /// row up to ``maximumRetryDelay``. A stream uses the server's `retry` field instead when
      /// that is longer.
      public var initialRetryDelay: Duration = .milliseconds(250)
      /// The longest delay between attempts.
      public var maximumRetryDelay: Duration = .seconds(30)
      /// How long a request may take until the head of its answer arrives, connecting included:
      /// AsyncHTTPClient tries again to connect until then, so an offline request fails after
      /// it. A stream's events then flow without a deadline; see ``EventsClient`` for a
      /// connection that goes silent.
      public var requestTimeout: Duration = .seconds(30)
      /// The largest answer to a POST, or problem, that the client reads.
      public var maximumAnswerSize = 4 << 20

      /// The defaults.
      public init() {}
    }

    /// The events resource, such as `https://api.example.com/events`.
    public let url: URL
    /// The event types the client decodes, by wire name; usually `GeneratedEvents.catalog`.
    public let catalog: EventCatalog
    /// How the client waits, retries and limits what it reads.
    public let configuration: Configuration
    let httpClient: HTTPClient
    let headers: @Sendable () async throws -> [String: String]
    let onSkipped: @Sendable (Skipped) -> Void

    /// A client of the events resource at `url`.
    ///
    /// - Parameters:
    ///   - url: the events resource, such as `https://api.example.com/events`.
    ///   - catalog: the event types to decode, by wire name.
    ///   - httpClient: the HTTP client to send requests with.
    ///   - configuration: how to wait, retry and limit what is read.
    ///   - headers: the headers each request carries, asked for before each request (so a
    ///     token that expires can be renewed), such as `["Authorization": "Bearer …"]`.
    ///   - onSkipped: called with each event that arrives but does not decode (a type the
    ///     catalog does not know, a newer version, another shape); by default a line on standard
    ///     error. The stream goes on after it.
    public init(
      url: URL, catalog: EventCatalog, httpClient: HTTPClient = .shared, configuration: Configuration = .init(),
      headers: @escaping @Sendable () async throws -> [String: String] = { [:] },
      onSkipped: @escaping @Sendable (Skipped) -> Void = {
        FileHandle.standardError.write(Data("skipped \($0)\n".utf8))
      }
    ) {
      self.url = url
      self.catalog = catalog
      self.httpClient = httpClient
      self.configuration = configuration
      self.headers = headers
      self.onSkipped = onSkipped
    }

    /// An event that arrived but was not delivered, and why: the same as a store consumer's.
    public typealias Skipped = EventConsumer<EventLog>.Skipped

    /// What the endpoint did with one sent event.
    public struct Sent: Sendable, Hashable {
      /// The event's CloudEvents `source`.
      public var source: String
      /// The event's CloudEvents `id`.
      public var id: String
      /// Where the event is in the endpoint's store, as an opaque token.
      public var position: String
      /// Whether the store held the event before (a retry), so nothing was appended.
      public var wasStored: Bool
    }

    /// Sends `envelopes` in one request (the CloudEvents batch mode) and returns, in order,
    /// what the endpoint did with each.
    ///
    /// The endpoint checks every event before it appends any, and appends each at most once
    /// by its `source` and `id`: sending the same envelopes again appends nothing and answers
    /// the same positions. So a request that failed in an unknown way may be sent again.
    ///
    /// - Throws: ``EventsClientError/refused(_:)`` with the endpoint's problem (its
    ///   ``EventsProblem/event`` says which event), ``EventsClientError/unreadableAnswer(_:)``,
    ///   or the HTTP client's error when the request did not get an answer.
    public func send(_ envelopes: [EventEnvelope]) async throws -> [Sent] {
      guard !envelopes.isEmpty else { return [] }
      var request = try await request(url)
      request.method = .POST
      request.headers.replaceOrAdd(name: "Content-Type", value: EventEnvelope.cloudEventBatchContentType)
      request.body = .bytes(ByteBuffer(data: try EventEnvelope.cloudEventBatchJSON(envelopes)))
      let response = try await httpClient.execute(request, timeout: .init(configuration.requestTimeout))
      let body = try await response.body.collect(upTo: configuration.maximumAnswerSize)
      guard response.status == .ok || response.status == .created else {
        throw EventsClientError.refused(EventsProblem(status: Int(response.status.code), body: Data(buffer: body)))
      }
      return try Self.sent(Data(buffer: body), count: envelopes.count)
    }

    /// The answer to a POST: `{"events": [{"source", "id", "position", "duplicate"}, …]}`.
    static func sent(_ body: Data, count: Int) throws -> [Sent] {
      let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
      guard let events = object?["events"] as? [[String: Any]], events.count == count else {
        throw EventsClientError.unreadableAnswer("expected a list of \(count) events")
      }
      return try events.map { event in
        guard let id = event["id"] as? String, let source = event["source"] as? String,
          let position = event["position"] as? String, let duplicate = event["duplicate"] as? Bool
        else { throw EventsClientError.unreadableAnswer("an event without source, id, position or duplicate") }
        return Sent(source: source, id: id, position: position, wasStored: duplicate)
      }
    }

    /// A request to `url` with the headers of ``headers``.
    func request(_ url: URL) async throws -> HTTPClientRequest {
      var request = HTTPClientRequest(url: url.absoluteString)
      for (name, value) in try await headers() { request.headers.replaceOrAdd(name: name, value: value) }
      return request
    }
  }

  extension TimeAmount {
    /// `duration` in nanoseconds, as NIO counts.
    init(_ duration: Duration) {
      let (seconds, attoseconds) = duration.components
      self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
  }
#endif
