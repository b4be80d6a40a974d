import EventsAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A partner team's client: swift-openapi-generator wrote `Client` from the description that
/// `eventgen openapi Schemas` writes, and it talks to `events-http-example`, which serves the
/// same description, over loopback.
@Suite("A client swift-openapi-generator made from the endpoint's OpenAPI description")
struct GeneratedClientTests {
  /// `events-http-example`, built by the Network package: `.ci/run` names it. Named but missing
  /// is a failure, not a skip.
  static let example: String? = ProcessInfo.processInfo.environment["TYPEDEVENTS_HTTP_EXAMPLE"]

  static let exampleMissing: Comment = """
    TYPEDEVENTS_HTTP_EXAMPLE is not set: build events-http-example in Integration/Network \
    (swift build --product events-http-example) and set it to the executable's path, as .ci/run does
    """

  @Test(
    "posts a structured event, reads it back in a page, and reads a refusal as a typed problem",
    .enabled(if: example != nil, exampleMissing))
  func aGeneratedClientPostsAnEventAndReadsItInAPage() async throws {
    try await withExampleServer { base in
      let client = Client(serverURL: base, transport: URLSessionTransport(), middlewares: [BearerToken(token: "app")])
      let box = UUID().uuidString
      let id = "partner-\(UUID().uuidString)"
      let event = Components.Schemas.BoxProvisionedCloudEvent(
        value1: .init(
          specversion: ._1_0, id: id, source: "/partner", _type: "Inventory.BoxProvisioned",
          datacontenttype: "application/json"),
        value2: .init(data: .init(boxId: box, title: "from the partner"), subject: box))
      let posted = try await client.appendEvents(body: .applicationCloudeventsJson(.BoxProvisionedCloudEvent(event)))
      let answer = try posted.created.body.json
      #expect(answer.events.map(\.id) == [id])
      #expect(answer.events.first?.duplicate == false)

      // The same event again: 200, a duplicate at the same position.
      let again = try await client.appendEvents(body: .applicationCloudeventsJson(.BoxProvisionedCloudEvent(event)))
      let repeated = try again.ok.body.json
      #expect(repeated.events.first?.duplicate == true)
      #expect(repeated.events.first?.position == answer.events.first?.position)

      // A page: the event, its attributes and its data as the generated types read them.
      let read = try await client.readEvents(query: .init(_type: ["Inventory.BoxProvisioned"], limit: 10))
      let page = try read.ok.body.applicationCloudeventsBatchJson
      let stored = try #require(page.first { $0.value1.id == id })
      #expect(stored.value1._type == "Inventory.BoxProvisioned")
      #expect(stored.value1.source == "/partner")
      #expect(stored.value2.subject == box)
      let data = try #require(stored.value2.data?.value as? [String: (any Sendable)?])
      #expect(data["title"] as? String == "from the partner")

      // A refusal is a typed problem: `reader` may not append.
      let reader = Client(
        serverURL: base, transport: URLSessionTransport(), middlewares: [BearerToken(token: "reader")])
      let refused = try await reader.appendEvents(body: .applicationCloudeventsJson(.BoxProvisionedCloudEvent(event)))
      let problem = try refused.forbidden.body.applicationProblemJson
      #expect(problem.status == 403)
      #expect(problem._type == "urn:typedevents:problem:forbidden")
    }
  }

  /// Runs `body` with the base URL of an `events-http-example` server on a free port, its log in
  /// a temporary folder; stops it after.
  func withExampleServer(_ body: (URL) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-client-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("server.log")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    let server = Process()
    let example = try #require(Self.example)
    try #require(
      FileManager.default.isExecutableFile(atPath: example), "TYPEDEVENTS_HTTP_EXAMPLE: no executable at \(example)")
    server.executableURL = URL(fileURLWithPath: example)
    server.arguments = ["server", "0", folder.path]
    server.standardOutput = try FileHandle(forWritingTo: output)
    server.standardError = server.standardOutput
    try server.run()
    defer {
      server.terminate()
      server.waitUntilExit()
    }
    // It prints `serving http://127.0.0.1:PORT/events` once it listens.
    var base: URL?
    let deadline = ContinuousClock.now + .seconds(60)
    while base == nil, ContinuousClock.now < deadline, server.isRunning {
      let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
      base = text.split(separator: "\n").first { $0.hasPrefix("serving ") }
        .flatMap { URL(string: String($0.dropFirst("serving ".count).dropLast("/events".count))) }
      if base == nil { try await Task.sleep(for: .milliseconds(20)) }
    }
    let url = try #require(
      base, "the server did not start: \((try? String(contentsOf: output, encoding: .utf8)) ?? "")")
    try await body(url)
  }
}

/// Sends `Authorization: Bearer <token>`: the description's security scheme, which the
/// generated client leaves to a middleware.
struct BearerToken: ClientMiddleware {
  var token: String

  func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    var request = request
    request.headerFields[.authorization] = "Bearer \(token)"
    return try await next(request, body, baseURL)
  }
}
