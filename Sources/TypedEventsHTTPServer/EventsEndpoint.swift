#if HTTPServer
  import Foundation
  import HTTPTypes
  import Hummingbird
  import Logging
  import ServiceLifecycle
  import TypedEvents

  /// A store's events over HTTP, mounted on a Hummingbird 2 router: `GET` streams them as
  /// Server-Sent Events or answers a page of them, `POST` appends CloudEvents.
  ///
  /// ```swift
  /// let endpoint = EventsEndpoint(store: log, catalog: GeneratedEvents.catalog, access: access)
  /// let router = Router()
  /// endpoint.addRoutes(to: router, at: "events")
  /// let app = Application(router: router, services: [endpoint])
  /// try await app.runService()
  /// ```
  ///
  /// The endpoint is a `Service`: its ``run()`` reads the store once for all open streams
  /// (and stops reading once none has been open for ``Configuration/feedIdleTimeout``), and
  /// streams answer 503 while it is not running.
  ///
  /// Authorization is closed by default: an endpoint made without an ``EventAccess`` answers
  /// every request with 401.
  @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
  public struct EventsEndpoint<Store: IdempotentEventStore, Principal: Sendable>: Service {
    /// Limits and intervals of an endpoint.
    public struct Configuration: Sendable {
      /// The largest request body a POST may have, in bytes; a larger one gets 413. 1 MiB.
      public var maximumBodySize = 1 << 20
      /// How long a POST's body may take to arrive, from when its headers have; a slower one
      /// gets 408 and its connection is closed, so that a client sending a byte at a time holds
      /// no handler. 10 seconds.
      public var bodyReadTimeout: Duration = .seconds(10)
      /// The most events a batch POST may hold; more get 413. 1,000.
      public var maximumBatchCount = 1_000
      /// The caps on the JSON of a POST: nesting, members of one object or array (a batch's
      /// events among them), and string length. Every body is checked by `StrictJSON`'s grammar
      /// within them before anything reads it.
      public var jsonLimits = JSONLimits.standard
      /// Query parameters the access policy reads (a browser's `access_token`, say), which the
      /// endpoint allows beside its own: any other it does not read gets 400
      /// `unknown-parameter`. None.
      public var accessQueryParameters: Set<String> = []
      /// The events of a page when the request names no `limit`. 100.
      public var defaultPageSize = 100
      /// The most events a page holds, whatever `limit` asks. 1,000.
      public var maximumPageSize = 1_000
      /// The most bytes of event data a page holds: it ends before the event that would pass
      /// them (the first comes whatever its size), and its `Last-Event-ID` goes on from there.
      /// 4 MiB.
      public var maximumPageBytes = 4 << 20
      /// How often a stream that sends nothing else sends a comment, so that proxies and clients
      /// see the connection alive. When the stream has passed events it does not send (filters,
      /// authorization), the heartbeat carries the `id` of where it is, so that a client that
      /// reconnects does not read them again. 15 seconds.
      public var heartbeatInterval: Duration = .seconds(15)
      /// How long a stream or a page waits for its connection to send a piece of at most 64 KiB
      /// of what it wrote (the socket's and the server's buffers full, its client reading
      /// nothing) before it closes the connection. A stream's client resumes from its last id.
      /// 10 seconds.
      public var writeTimeout: Duration = .seconds(10)
      /// The most streams one principal may hold open at once, counted by the name
      /// ``EventAccess/streamOwner`` gives it; one more gets 429 `too-many-streams`, which
      /// `EventsClient` retries after its delay. Only counted when the access policy names
      /// owners. 8.
      public var maximumStreamsPerPrincipal = 8
      /// The events kept in memory for all streams together (see ``EventsEndpoint``). 4,096.
      public var feedCapacity = 4_096
      /// The bytes the feed keeps for all streams together, counting each event's data and its
      /// frame, and those of events dropped and not yet compacted away: it drops its oldest
      /// events past either bound. A stream whose connection has not yet sent the frames of an
      /// event the feed drops is closed, so that they do not outlive the budget; its client
      /// resumes from its last id, from the store. 64 MiB.
      public var feedByteBudget = 64 << 20
      /// How many events a stream or the feed reads from the store at once. 256.
      public var readBatchSize = 256
      /// The most bytes of event data one read of the store by the feed takes: the read ends
      /// before the event that would pass them (the first comes whatever its size). A stream
      /// catching up takes a share this large of `sharedReadByteBudget` and reads half as much
      /// data: the share holds the data and the frames written from it. 8 MiB.
      public var readByteBudget = 8 << 20
      /// The bytes that all streams catching up from the store, all copies of the feed's frames
      /// and all pages may hold at once: a read waits its turn for its share (`readByteBudget`,
      /// or `maximumPageBytes` for a page) and holds it until its connection has sent what the
      /// read became (or closed), so that many clients reading nothing do not each hold a read.
      /// 64 MiB.
      public var sharedReadByteBudget = 64 << 20
      /// The longest the feed waits for the store's wake-up before reading again. 1 second.
      public var pollInterval: Duration = .seconds(1)
      /// How long the feed goes on reading the store after the last stream has closed. Then it
      /// reads nothing, and keeps nothing, until a stream opens: an endpoint that only takes
      /// POSTs does not read back what they append. Longer than a client's reconnect, so that
      /// the feed does not start anew for each. 10 seconds.
      public var feedIdleTimeout: Duration = .seconds(10)
      /// The CloudEvents `source` written for stored events that have none, such as those
      /// appended from Swift without one: CloudEvents requires a source. `/`.
      public var defaultSource = "/"
      /// The OpenAPI description of this endpoint that `eventgen openapi` writes from the same
      /// schemas as the catalog, served as `GET <path>/openapi.json` (and `HEAD`) when set, to
      /// anyone: it describes the requests, not the events stored. None.
      public var openAPIDescription: Data?

      /// The defaults.
      public init() {}
    }

    /// The store served.
    public let store: Store
    /// The types a POST may append: an event of another type, or whose data does not decode as
    /// its type, is refused.
    public let catalog: EventCatalog
    /// Who may read and append what.
    public let access: EventAccess<Principal>
    /// Limits and intervals.
    public let configuration: Configuration
    let logger: Logger
    let feed: EventFeed<Store>
    let status = Locked(FeedStatus.notStarted)
    /// The store's identity once it has one (`EventStore.storeIdentity()`): it never changes
    /// after.
    let identity = Locked<String?>(nil)
    /// The shares of `sharedReadByteBudget` that reads of the store hold.
    let readBudget: ReadBudget
    /// The open streams of each owner (``EventAccess/streamOwner``).
    let openStreams = Locked<[String: Int]>([:])

    /// An endpoint serving `store` to the principals `access` authenticates.
    public init(
      store: Store, catalog: EventCatalog, access: EventAccess<Principal>, configuration: Configuration = .init(),
      logger: Logger = Logger(label: "TypedEventsHTTPServer")
    ) {
      self.store = store
      self.catalog = catalog
      self.access = access
      self.configuration = configuration
      self.logger = logger
      self.feed = EventFeed(capacity: configuration.feedCapacity, byteBudget: configuration.feedByteBudget)
      self.readBudget = ReadBudget(bytes: configuration.sharedReadByteBudget)
    }

    /// Adds `GET`, `HEAD` and `POST` on `path` (such as `"events"`) to `router` or a group of it,
    /// and 405 with `Allow` for every other method of the IANA registry there; with
    /// ``Configuration/openAPIDescription``, `GET` and `HEAD` on `<path>/openapi.json` too (and 405
    /// for the other methods there).
    public func addRoutes<Context: RequestContext>(to router: some RouterMethods<Context>, at path: RouterPath) {
      router.get(path) { request, _ in await self.get(request) }
      router.head(path) { request, _ in await self.get(request, bodiless: true) }
      router.post(path) { request, _ in await self.post(request) }
      for method in Self.unansweredMethods {
        router.on(path, method: method) { _, _ in Self.methodNotAllowed(method) }
      }
      if let description = configuration.openAPIDescription {
        let document = path.appendingPath("openapi.json")
        router.get(document) { _, _ in Self.describe(description, bodiless: false) }
        router.head(document) { _, _ in Self.describe(description, bodiless: true) }
        for method in Self.unansweredMethods + [.post] {
          router.on(document, method: method) { _, _ in
            Self.methodNotAllowed(method, path: "the OpenAPI description", allowed: "GET, HEAD")
          }
        }
      }
    }

    /// Reads the store for every stream until the service group shuts down or the task is
    /// cancelled; then the streams end, each after the event it is writing.
    public func run() async throws {
      status.withLock { $0 = .running }
      defer { status.withLock { $0 = .stopped } }
      await cancelWhenGracefulShutdown {
        await feed.run(
          store: store, batchSize: configuration.readBatchSize, byteBudget: configuration.readByteBudget,
          pollInterval: configuration.pollInterval,
          idleTimeout: configuration.feedIdleTimeout, defaultSource: configuration.defaultSource,
          // In a store's outage the feed's frames carry no identity: such tokens are checked for
          // their place only.
          identity: { try? await self.storeIdentity() }, logger: logger)
      }
    }

    // MARK: GET

    /// A stream or a page, by `Accept`; with `bodiless` (a `HEAD`), the same status and headers,
    /// no stream opened and no body.
    func get(_ request: Request, bodiless: Bool = false) async -> Response {
      guard let principal = await principal(of: request) else { return EventProblem.unauthenticated.response }
      if let problem = parameterProblem(request) { return problem.response }
      let selection: Selection
      do {
        selection = try Selection(request, principal: principal, access: access)
      } catch let problem as EventProblem {
        return problem.response
      } catch {
        return EventProblem.badRequest("bad-request", "\(error)").response
      }
      if let problem = await positionProblem(selection) { return problem.response }
      // Checked for a stream too, which reads no limit: a request the description refuses is
      // refused whatever it is answered with.
      let limit: Int
      switch pageLimit(request) {
      case .success(let value): limit = value
      case .failure(let problem): return problem.response
      }
      let accept = request.headers[.accept]?.lowercased() ?? "*/*"
      if accept.contains(EventEnvelope.cloudEventBatchContentType) {
        var response = await page(selection, limit: limit)
        if bodiless { response.body = ResponseBody() }
        return response
      }
      guard accept.contains("text/event-stream") || accept.contains("*/*") || accept.contains("text/*") else {
        return EventProblem(
          status: 406, kind: "not-acceptable", title: "Not acceptable",
          detail: "GET answers text/event-stream or \(EventEnvelope.cloudEventBatchContentType), not \(accept)"
        ).response
      }
      return stream(request, selection, principal: principal, bodiless: bodiless)
    }

    /// The events a page of `request` holds: its `limit`, capped by the configuration, or the
    /// default; a 400 `bad-limit` for a limit that is no positive integer.
    func pageLimit(_ request: Request) -> Result<Int, EventProblem> {
      guard let text = request.uri.queryParameters["limit"] else { return .success(configuration.defaultPageSize) }
      guard let asked = Int(String(text)), asked > 0 else {
        return .failure(.badRequest("bad-limit", "limit must be a positive integer, not \(text)"))
      }
      return .success(min(asked, configuration.maximumPageSize))
    }

    /// The principal a request authenticates as; nil for none or an error.
    func principal(of request: Request) async -> Principal? {
      do {
        return try await access.authenticate(request)
      } catch {
        logger.debug("authentication failed", metadata: ["error": "\(error)"])
        return nil
      }
    }

    func unavailable(_ error: any Error) -> Response {
      logger.warning("reading the event store failed", metadata: ["error": "\(error)"])
      return EventProblem(
        status: 503, kind: "store-unavailable", title: "Store unavailable",
        detail: "the event store could not be read; try again"
      ).response
    }

    // MARK: Streams

    func stream(_ request: Request, _ selection: Selection, principal: Principal, bodiless: Bool = false) -> Response {
      guard status.withLock({ $0 }) == .running else {
        return EventProblem(
          status: 503, kind: "feed-not-running", title: "Not running",
          detail: "the endpoint's service is not running (add it to the application's services)"
        ).response
      }
      let headers: HTTPFields = [
        .contentType: "text/event-stream", .cacheControl: "no-store",
        // Asks proxies such as nginx not to hold the stream back.
        HTTPField.Name("X-Accel-Buffering")!: "no",
      ]
      // A HEAD takes a slot too, so that it answers what its GET would, and frees it at once.
      let owner = access.streamOwner?(principal)
      let slot = owner.flatMap {
        StreamSlot(owner: $0, in: openStreams, maximum: configuration.maximumStreamsPerPrincipal)
      }
      if owner != nil, slot == nil {
        return EventProblem(
          status: 429, kind: "too-many-streams", title: "Too many streams",
          detail:
            "this principal holds \(configuration.maximumStreamsPerPrincipal) streams open, the most it may; "
            + "close one, or try again later"
        ).response
      }
      if bodiless { return Response(status: .ok, headers: headers) }
      let body = ResponseBody { writer in
        // Held until the stream ends, or the body is dropped unwritten: then the slot is free.
        defer { withExtendedLifetime(slot) {} }
        try await request.body.consumeWithCancellationOnInboundClose { _ in
          try await StreamWriter(endpoint: self, selection: selection).run(&writer)
        }
        try await writer.finish(nil)
      }
      return Response(status: .ok, headers: headers, body: body)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
  extension EventsEndpoint where Principal == NoPrincipal {
    /// An endpoint without an access policy: it authenticates no one, so it answers every
    /// request with 401 and serves no event (``EventAccess/closed``).
    public init(
      store: Store, catalog: EventCatalog, configuration: Configuration = .init(),
      logger: Logger = Logger(label: "TypedEventsHTTPServer")
    ) {
      self.init(store: store, catalog: catalog, access: .closed, configuration: configuration, logger: logger)
    }
  }

  /// Whether the endpoint's service runs.
  enum FeedStatus: Sendable, Equatable {
    case notStarted, running, stopped
  }

  extension HTTPField.Name {
    /// `Last-Event-ID`: the position a Server-Sent Events client resumes after.
    static let lastEventID = Self("Last-Event-ID")!
  }
#endif
