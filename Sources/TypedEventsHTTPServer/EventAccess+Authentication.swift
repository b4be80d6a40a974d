#if HTTPServer
  import Foundation
  import HTTPTypes
  import Hummingbird
  import HummingbirdAuth
  import TypedEvents

  @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
  extension EventAccess {
    /// An access policy for bearer tokens (RFC 6750): the token of the request's
    /// `Authorization: Bearer …` header, or of the query parameter `queryParameter` when the
    /// request has no `Authorization` header at all, goes to `verify`, which says whose it is.
    ///
    /// The scheme's name is matched in any case (`bearer` is `Bearer`, RFC 9110 §11.1), and
    /// the token must be an RFC 6750 `b64token`. A request without a token, or whose token
    /// `verify` returns nil for or throws on, gets 401 without calling anything else. A JSON
    /// Web Token plugs in as `verify`, with vapor/jwt-kit for example:
    /// ```swift
    /// let keys = await JWTKeyCollection().add(hmac: secret, digestAlgorithm: .sha256)
    /// let access = EventAccess<User>.bearer(
    ///   verify: { token in User(try await keys.verify(token, as: UserClaims.self)) },
    ///   authorize: { user, permission in user.may(permission) })
    /// ```
    ///
    /// - Parameters:
    ///   - queryParameter: a query parameter that carries the token when no header does, such
    ///     as `access_token` for a browser's `EventSource` (RFC 6750 §2.3); the endpoint then
    ///     allows it. None by default: a token in a URL ends up in logs.
    ///   - verify: the principal a token belongs to, or nil.
    ///   - authorize: whether a principal may do what an ``EventPermission`` says.
    ///   - streamOwner: the name a principal's open streams are counted under.
    ///   - readScope: at most what a principal may read, as a filter the store applies.
    public static func bearer(
      queryParameter: String? = nil,
      verify: @escaping @Sendable (String) async throws -> Principal?,
      authorize: @escaping @Sendable (Principal, EventPermission) -> Bool,
      streamOwner: (@Sendable (Principal) -> String)? = nil,
      readScope: (@Sendable (Principal) -> EventReadFilter)? = nil
    ) -> Self {
      var access = Self(
        authenticate: { request in
          guard let token = bearerToken(request, queryParameter: queryParameter) else { return nil }
          return try await verify(token)
        },
        authorize: authorize, streamOwner: streamOwner, readScope: readScope)
      access.queryParameters = queryParameter.map { [$0] } ?? []
      return access
    }

    /// An access policy whose principal is the identity that the router's hummingbird-auth
    /// authenticators put in the request's context (`AuthRequestContext.identity`): a
    /// `BasicAuthenticator`, a session, a JWT middleware, or any `AuthenticatorMiddleware` the
    /// server already has. Mount the endpoint on a router whose context is an
    /// `AuthRequestContext` of `Principal`, after the authenticators; a request that none of
    /// them authenticated gets 401.
    ///
    /// ```swift
    /// let router = Router(context: BasicAuthRequestContext<User>.self)
    /// router.add(middleware: ClosureAuthenticator { request, _ in try await users.user(signedInBy: request) })
    /// let endpoint = EventsEndpoint(
    ///   store: store, catalog: GeneratedEvents.catalog,
    ///   access: .contextIdentity(authorize: { user, permission in user.may(permission) }))
    /// endpoint.addRoutes(to: router, at: "events")
    /// ```
    public static func contextIdentity(
      authorize: @escaping @Sendable (Principal, EventPermission) -> Bool,
      streamOwner: (@Sendable (Principal) -> String)? = nil,
      readScope: (@Sendable (Principal) -> EventReadFilter)? = nil
    ) -> Self {
      // Only the context's identity authenticates: a request the middleware did not
      // authenticate has no other way in.
      var access = Self(
        authenticate: { _ in nil }, authorize: authorize, streamOwner: streamOwner, readScope: readScope)
      access.authenticatesByContextOnly = true
      return access
    }
  }

  /// The token of `request`'s `Authorization: Bearer` header (the scheme in any case), else, when
  /// it has no `Authorization` header, of its query parameter `queryParameter`; nil when it has
  /// none or it is no RFC 6750 `b64token`.
  func bearerToken(_ request: Request, queryParameter: String?) -> String? {
    if let header = request.headers.value(of: .authorization) {
      // Not hummingbird-auth's `bearer`, which wants the scheme spelled `Bearer` exactly.
      let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
      guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
      let token = parts[1].trimmingCharacters(in: .whitespaces)
      return isBearerToken(token) ? token : nil
    }
    guard let queryParameter, let value = request.uri.queryParameters[Substring(queryParameter)] else { return nil }
    let token = String(value)
    return isBearerToken(token) ? token : nil
  }

  /// RFC 6750's `b64token`: `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
  func isBearerToken(_ token: String) -> Bool {
    let bytes = Array(token.utf8)
    let body = bytes.prefix { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
      case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"),
        UInt8(ascii: "/"):
        true
      default: false
      }
    }
    return !body.isEmpty && bytes.dropFirst(body.count).allSatisfy { $0 == UInt8(ascii: "=") }
  }
#endif
