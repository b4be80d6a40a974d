import BoardEvents
import Foundation
import Hummingbird
import HummingbirdAuth
import JWTKit
import Testing
import TypedEvents
import TypedEventsHTTPServer

/// The access policies that read who sent a request for the app: bearer tokens, JSON Web Tokens
/// through jwt-kit, and the identity hummingbird-auth's authenticators put in the context.
@Suite("HTTP endpoint: authentication helpers", .timeLimit(.minutes(1)))
struct EventAccessAuthenticationTests {
  let page = [("Accept", EventEnvelope.cloudEventBatchContentType)]

  /// The status of a page request with `headers` and `query`, and its events' ids.
  func read(_ url: String, query: String = "", headers: [(String, String)]) async throws -> (Int, [String]) {
    let answer = try await send(request(url + query, token: nil, headers: page + headers))
    guard answer.status == 200 else { return (answer.status, []) }
    return (200, try EventEnvelope.envelopes(cloudEventBatchJSON: Data(answer.body.utf8)).map(\.id))
  }

  @Test func aBearerTokenIsReadFromTheHeaderInAnyCaseOrFromTheQueryParameterItNames() async throws {
    let log = try logWithNotesOnTwoBoards()
    let access = EventAccess<Reader>.bearer(
      queryParameter: "access_token", verify: { readers[$0] }, authorize: boardAccess.authorize)
    let endpoint = EventsEndpoint(store: log, catalog: GeneratedEvents.catalog, access: access)
    try await withServer(endpoint) { url in
      for scheme in ["Bearer", "bearer", "BEARER", "Bearer  "] {
        let (status, ids) = try await read(url, headers: [("Authorization", "\(scheme) bob")])
        #expect(status == 200, "\(scheme)")
        #expect(ids == ["on-b1"], "bob reads board b1 only")
      }
      // A browser's EventSource sends no header: the token in the named parameter.
      #expect(try await read(url, query: "?access_token=alice", headers: []).1 == ["on-b1", "on-b2"])
      // What is no bearer token of a known principal: 401, and the challenge names the scheme.
      for header in ["Basic YWxpY2U6", "Bearer", "Bearer al ice", "Bearer al\"ice", "Bearer mallory", "alice"] {
        let answer = try await send(request(url, token: nil, headers: page + [("Authorization", header)]))
        #expect(answer.status == 401, "\(header)")
        #expect(answer.headers.first(name: "WWW-Authenticate") == "Bearer", "\(header)")
      }
      #expect(try await read(url, headers: []).0 == 401)
      // A header that says something wins over the query: it is not a valid one.
      #expect(try await read(url, query: "?access_token=alice", headers: [("Authorization", "Bearer x y")]).0 == 401)
    }
    // Without a parameter named, a token in the query is an unknown parameter, not a way in.
    let headerOnly = EventAccess<Reader>.bearer(verify: { readers[$0] }, authorize: boardAccess.authorize)
    try await withServer(EventsEndpoint(store: log, catalog: GeneratedEvents.catalog, access: headerOnly)) { url in
      #expect(try await read(url, query: "?access_token=alice", headers: []).0 == 401)
      let answer = try await send(request(url + "?access_token=alice", token: "bob", headers: page))
      #expect(answer.status == 400)
      #expect(answer.problem == "unknown-parameter")
    }
  }

  /// The claims of the test's tokens: the reader's name, when the token expires, and its boards.
  struct BoardClaims: JWTPayload {
    var sub: SubjectClaim
    var exp: ExpirationClaim
    var boards: [String]?

    func verify(using algorithm: some JWTAlgorithm) async throws {
      try exp.verifyNotExpired()
    }
  }

  @Test func aJSONWebTokenCheckedByJWTKitPlugsInAsTheBearerCheck() async throws {
    let log = try logWithNotesOnTwoBoards()
    let keys = await JWTKeyCollection().add(hmac: "the server's secret, 32 bytes or more", digestAlgorithm: .sha256)
    let access = EventAccess<Reader>.bearer(
      verify: { token in
        let claims = try await keys.verify(token, as: BoardClaims.self)
        return Reader(name: claims.sub.value, boards: claims.boards.map(Set.init), mayAppend: false)
      },
      authorize: boardAccess.authorize)
    let endpoint = EventsEndpoint(store: log, catalog: GeneratedEvents.catalog, access: access)
    let hour: TimeInterval = 3_600
    let valid = try await keys.sign(
      BoardClaims(sub: "dana", exp: ExpirationClaim(value: Date() + hour), boards: ["b2"]))
    let expired = try await keys.sign(
      BoardClaims(sub: "dana", exp: ExpirationClaim(value: Date() - hour), boards: ["b2"]))
    let otherKeys = await JWTKeyCollection().add(hmac: "another secret, of 32 bytes or more", digestAlgorithm: .sha256)
    let forged = try await otherKeys.sign(
      BoardClaims(sub: "dana", exp: ExpirationClaim(value: Date() + hour), boards: nil))
    try await withServer(endpoint) { url in
      let (status, ids) = try await read(url, headers: [("Authorization", "Bearer \(valid)")])
      #expect(status == 200)
      #expect(ids == ["on-b2"], "the token's boards are what it reads")
      // An expired token, and one signed with another key (claiming every board): 401.
      #expect(try await read(url, headers: [("Authorization", "Bearer \(expired)")]).0 == 401)
      #expect(try await read(url, headers: [("Authorization", "Bearer \(forged)")]).0 == 401)
    }
  }

  @Test func theIdentityHummingbirdAuthsAuthenticatorsPutInTheContextIsThePrincipal() async throws {
    let log = try logWithNotesOnTwoBoards()
    typealias Context = BasicAuthRequestContext<Reader>
    // The server's own authenticator middleware: here a header naming the user.
    let byHeader = ClosureAuthenticator<Context> { request, _ in
      request.headers.first { $0.name.canonicalName == "x-user" }.flatMap { readers[$0.value] }
    }
    for (access, fallsBack) in [
      (EventAccess<Reader>.contextIdentity(authorize: boardAccess.authorize), false), (boardAccess, true),
    ] {
      let endpoint = EventsEndpoint(store: log, catalog: GeneratedEvents.catalog, access: access)
      let router = Router(context: Context.self)
      router.add(middleware: byHeader)
      endpoint.addRoutes(to: router, at: "events")
      try await withServer(router, services: [endpoint]) { url in
        #expect(try await read(url, headers: [("X-User", "bob")]) == (200, ["on-b1"]))
        #expect(try await read(url, headers: [("X-User", "mallory")]).0 == 401)
        #expect(try await read(url, headers: []).0 == 401)
        // Not authenticated by the middleware: only a policy that authenticates lets it in.
        let bearer = try await read(url, headers: [("Authorization", "Bearer alice")])
        #expect(bearer.0 == (fallsBack ? 200 : 401))
      }
    }
  }
}

/// A log holding one note about board b1 (id `on-b1`) and one about b2 (`on-b2`).
func logWithNotesOnTwoBoards() throws -> EventLog {
  let log = try temporaryLog()
  try log.append(
    contentsOf: try ["b1", "b2"].map {
      try EventEnvelope(NoteAdded(board: BoardID($0), text: "x", author: "a"), id: "on-\($0)", source: "/tests")
    })
  return log
}
