#if HTTPServer
  import Foundation
  import TypedEvents

  /// Limits and intervals of an ``EventsEndpoint``, whatever its store and principal.
  ///
  /// One type for every endpoint (``EventsEndpoint/Configuration`` names it), so a server that
  /// serves one store to two kinds of principal writes its settings once:
  /// ```swift
  /// var configuration = EventsEndpointConfiguration()
  /// configuration.maximumBodySize = 256 << 10
  /// let apps = EventsEndpoint(store: store, catalog: catalog, access: appAccess, configuration: configuration)
  /// let partners = EventsEndpoint(store: store, catalog: catalog, access: partnerAccess, configuration: configuration)
  /// ```
  public struct EventsEndpointConfiguration: Sendable {
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
    /// The most bytes of events a page holds, their data and their attributes' text
    /// (`EventEnvelope.byteCount`): it ends before the event that would pass them (the first
    /// comes whatever its size), and its `Last-Event-ID` goes on from there. 4 MiB.
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
    /// The most bytes of events (data and attributes) one read of the store by the feed takes:
    /// the read ends before the event that would pass them (the first comes whatever its size).
    /// A stream catching up takes a share this large of `sharedReadByteBudget` and reads half as
    /// much: the share holds the events and the frames written from them. 8 MiB.
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
#endif
