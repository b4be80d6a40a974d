#if HTTPServer
  import Hummingbird
  import TypedEvents

  /// Who may read and append which events through an ``EventsEndpoint``: a function that says
  /// who sent a request, and one that says what that principal may do.
  ///
  /// Closed by default: ``closed`` authenticates no one, so an endpoint made without an access
  /// policy answers every request with 401 and serves no event.
  @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
  public struct EventAccess<Principal: Sendable>: Sendable {
    /// Says who sent `request` (from its `Authorization` header, a cookie or a client
    /// certificate), or nil for no one: the request gets 401 and nothing else. A thrown error is
    /// also a 401; its text is not sent.
    public var authenticate: @Sendable (Request) async throws -> Principal?
    /// Whether `principal` may do what the ``EventPermission`` says. Called for every event a
    /// stream or a page would send, and for every event a POST carries, so it should be quick.
    public var authorize: @Sendable (Principal, EventPermission) -> Bool
    /// The name a principal's open streams are counted under, such as a user's id or a token's
    /// subject: at most ``EventsEndpointConfiguration/maximumStreamsPerPrincipal`` streams of one
    /// name are open at once. Nil, the default, counts no principal's streams.
    public var streamOwner: (@Sendable (Principal) -> String)?
    /// At most what `principal` may read, as a filter the store applies where it reads: its
    /// pages and catch-up reads pass over other types and subjects without reading them (the
    /// PostgreSQL store in its query), as they do for a request's own `type` and `subject`.
    /// ``authorize`` still decides each event within it. Nil, the default, reads every event
    /// and leaves it to ``authorize``, which a closure says only once the event is read.
    public var readScope: (@Sendable (Principal) -> EventReadFilter)?
    /// Query parameters that ``authenticate`` reads (RFC 6750's `access_token`, for a browser's
    /// `EventSource`, which sends no headers): the endpoint allows them beside its own, as it
    /// does `EventsEndpointConfiguration.accessQueryParameters`. None by default;
    /// ``bearer(queryParameter:verify:authorize:streamOwner:readScope:)`` names its own.
    public var queryParameters: Set<String> = []
    /// Whether the policy authenticates only through the request context's identity
    /// (``contextIdentity(authorize:streamOwner:readScope:)``), so that routes on a router
    /// without one say so.
    var authenticatesByContextOnly = false

    /// An access policy from its functions: the form for any authentication, from a raw
    /// request (a cookie, a client certificate, a header of your own).
    public init(
      authenticate: @escaping @Sendable (Request) async throws -> Principal?,
      authorize: @escaping @Sendable (Principal, EventPermission) -> Bool,
      streamOwner: (@Sendable (Principal) -> String)? = nil,
      readScope: (@Sendable (Principal) -> EventReadFilter)? = nil
    ) {
      self.authenticate = authenticate
      self.authorize = authorize
      self.streamOwner = streamOwner
      self.readScope = readScope
    }

    /// Authenticates no one: every request gets 401.
    public static var closed: Self {
      Self(authenticate: { _ in nil }, authorize: { _, _ in false })
    }
  }

  /// What a principal asks to do with one event: read it or append it, by its wire type name,
  /// subject and source.
  public struct EventPermission: Sendable, Hashable {
    /// Reading or appending.
    public enum Action: Sendable, Hashable {
      /// Receiving the event in a stream or a page.
      case read
      /// Appending the event with a POST.
      case append
    }

    /// What is asked.
    public var action: Action
    /// The event's wire type name (CloudEvents `type`).
    public var type: String
    /// The event's subject (CloudEvents `subject`), nil for an event without one.
    public var subject: String?
    /// The event's source (CloudEvents `source`). Appends are idempotent by `source` and `id`, so
    /// a principal that may append under another producer's source could take that producer's
    /// ids first: an access policy that has several producers append ties each source to its
    /// principal. Nil when a GET's filter is checked, before any event is read.
    public var source: String?

    /// A permission from its parts.
    public init(action: Action, type: String, subject: String?, source: String? = nil) {
      self.action = action
      self.type = type
      self.subject = subject
      self.source = source
    }
  }

  /// The principal of an endpoint made without an access policy: there is none, as no request is
  /// authenticated.
  public enum NoPrincipal: Sendable {}
#endif
