#if HTTPServer
  import Foundation
  import HTTPTypes
  import Hummingbird
  import HummingbirdAuth
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
  /// (and stops reading once none has been open for ``EventsEndpointConfiguration/feedIdleTimeout``), and
  /// streams answer 503 while it is not running.
  ///
  /// Authorization is closed by default: an endpoint made without an ``EventAccess`` answers
  /// every request with 401.
  @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
  public struct EventsEndpoint<Store: IdempotentEventStore, Principal: Sendable>: Service {
    /// The store served.
    public let store: Store
    /// The types a POST may append: an event of another type, or whose data does not decode as
    /// its type, is refused.
    public let catalog: EventCatalog
    /// Who may read and append what.
    public let access: EventAccess<Principal>
    /// Limits and intervals: the one ``EventsEndpointConfiguration`` of every endpoint, whatever
    /// its store and principal.
    public typealias Configuration = EventsEndpointConfiguration
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
    /// ``EventsEndpointConfiguration/openAPIDescription``, `GET` and `HEAD` on `<path>/openapi.json` too (and 405
    /// for the other methods there).
    public func addRoutes<Context: RequestContext>(to router: some RouterMethods<Context>, at path: RouterPath) {
      if access.authenticatesByContextOnly {
        // Chosen for a router whose context carries no identity of type `Principal`, or from
        // generic code that cannot see that it does: every request would get 401.
        logger.warning(
          "the access policy takes the principal from the request context, which this router's context (\(Context.self)) has none of: every request gets 401"
        )
      }
      addRoutes(to: router, at: path) { _ in nil }
    }

    /// Adds the routes as ``addRoutes(to:at:)-(_,_)`` does, on a router whose request context
    /// carries hummingbird-auth's authenticated identity: a request that the router's
    /// authenticator middleware authenticated is served as that identity, and one it did not is
    /// authenticated by ``access`` (``EventAccess/contextIdentity(authorize:streamOwner:readScope:)``
    /// authenticates no other).
    public func addRoutes<Context: AuthRequestContext>(to router: some RouterMethods<Context>, at path: RouterPath)
    where Context.Identity == Principal {
      addRoutes(to: router, at: path) { $0.identity }
    }

    /// The routes, with the principal that `identity` finds in a request's context, if any.
    private func addRoutes<Context: RequestContext>(
      to router: some RouterMethods<Context>, at path: RouterPath, identity: @escaping @Sendable (Context) -> Principal?
    ) {
      router.get(path) { request, context in await self.get(request, identity: identity(context)) }
      router.head(path) { request, context in await self.get(request, identity: identity(context), bodiless: true) }
      router.post(path) { request, context in await self.post(request, identity: identity(context)) }
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
    func get(_ request: Request, identity: Principal? = nil, bodiless: Bool = false) async -> Response {
      guard let principal = await principal(of: request, identity: identity) else {
        return EventProblem.unauthenticated.response
      }
      if let problem = parameterProblem(request) { return problem.response }
      let selection: Selection
      do {
        selection = try Selection(request, principal: principal, access: access, catalog: catalog)
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
      // A page when the request takes it at least as gladly and names it, a stream when it
      // takes that more gladly or names only a wildcard (`*/*`, or no Accept at all).
      let accepted = request.headers[values: .accept]
      switch Acceptance(accepted).choose(EventEnvelope.cloudEventBatchContentType, over: "text/event-stream") {
      case EventEnvelope.cloudEventBatchContentType?:
        var response = await page(selection, limit: limit)
        if bodiless { response.body = ResponseBody() }
        return response
      case _?:
        return stream(request, selection, principal: principal, bodiless: bodiless)
      case nil:
        return EventProblem(
          status: 406, kind: "not-acceptable", title: "Not acceptable",
          detail: "GET answers text/event-stream or \(EventEnvelope.cloudEventBatchContentType), not "
            + accepted.joined(separator: ", ").prefix(200)
        ).response
      }
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

    /// The principal a request authenticates as: `identity`, which the router's authenticator
    /// middleware found, else what ``access`` says; nil for none or an error.
    func principal(of request: Request, identity: Principal?) async -> Principal? {
      if let identity { return identity }
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
          let stream = StreamWriter(endpoint: self, selection: selection)
          // On Swift's pool even when the server handles requests on the connection's event
          // loop (`.http1OnEventLoop()`): a stream's turns then overlap its loop's writes, and
          // fan-out to a few clients measured faster so (BENCHMARKS-HTTP.md, `--server http1`).
          if #available(macOS 15, iOS 18, tvOS 18, visionOS 2, *) {
            try await withTaskExecutorPreference(globalConcurrentExecutor) { try await stream.run(&writer) }
          } else {
            try await stream.run(&writer)
          }
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
