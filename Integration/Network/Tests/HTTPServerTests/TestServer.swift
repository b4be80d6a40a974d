import AsyncHTTPClient
import BoardEvents
import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Testing
import TypedEvents
import TypedEventsHTTPServer

/// Who a test request is, by its bearer token: `alice` reads and appends everything, `bob` reads
/// board `b1` only, `carol` reads and appends board `b2` only.
struct Reader: Sendable {
  var name: String
  var boards: Set<String>?
  var mayAppend: Bool
}

let readers: [String: Reader] = [
  "alice": Reader(name: "alice", boards: nil, mayAppend: true),
  "bob": Reader(name: "bob", boards: ["b1"], mayAppend: false),
  "carol": Reader(name: "carol", boards: ["b2"], mayAppend: true),
]

/// What the authenticator throws for the token `broken`: its text must not reach the client.
struct AuthenticatorFailure: Error, CustomStringConvertible {
  var description: String { "secret-detail of the identity provider" }
}

/// Bearer tokens, and boards by subject.
let boardAccess = EventAccess<Reader>(
  authenticate: { request in
    guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return nil }
    let token = header.dropFirst("Bearer ".count)
    if token == "broken" { throw AuthenticatorFailure() }
    return readers[String(token)]
  },
  authorize: { reader, permission in
    if permission.action == .append && !reader.mayAppend { return false }
    guard let boards = reader.boards else { return true }
    return permission.subject.map(boards.contains) ?? false
  })

/// An endpoint serving `log` with the board events and `boardAccess`, configured by `configure`.
func boardEndpoint(
  _ log: EventLog, _ configure: (inout EventsEndpointConfiguration) -> Void = { _ in }
) -> EventsEndpoint<EventLog, Reader> {
  var configuration = EventsEndpointConfiguration()
  configure(&configuration)
  return EventsEndpoint(store: log, catalog: GeneratedEvents.catalog, access: boardAccess, configuration: configuration)
}

/// A fresh log in a temporary folder.
func temporaryLog() throws -> EventLog {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("http-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  return EventLog(url: folder.appendingPathComponent("events.log"), durability: .operatingSystem)
}

/// Runs `body` with the URL of `endpoint`'s `events` resource, served on `port` of 127.0.0.1
/// (by default a free one) by a Hummingbird application that runs the endpoint as a service
/// (unless `runningEndpoint` is false) and is built by `server`; stops it after.
func withServer<Store: IdempotentEventStore, Principal: Sendable>(
  _ endpoint: EventsEndpoint<Store, Principal>, server: HTTPServerBuilder = .http1OnEventLoop(), port: Int = 0,
  runningEndpoint: Bool = true, _ body: (String) async throws -> Void
) async throws {
  let router = Router()
  endpoint.addRoutes(to: router, at: "events")
  try await withServer(router, server: server, services: runningEndpoint ? [endpoint] : [], port: port, body)
}

/// Runs `body` with the URL of the `events` path of `router`, served on `port` of 127.0.0.1 (by
/// default a free one) by a Hummingbird application built by `server` (by default what the
/// example server uses) that runs `services`; stops it after.
func withServer<Context: RequestContext>(
  _ router: Router<Context>, server: HTTPServerBuilder = .http1OnEventLoop(), services: [any Service] = [],
  port: Int = 0, _ body: (String) async throws -> Void
) async throws where Context.Source == ApplicationRequestContextSource {
  let (ports, boundPort) = AsyncStream<Int>.makeStream()
  let app = Application(
    router: router, server: server, configuration: .init(address: .hostname("127.0.0.1", port: port)),
    services: services,
    onServerRunning: { channel in boundPort.yield(channel.localAddress?.port ?? 0) })
  // Stopped as a deployment stops it: a graceful shutdown, which ends open streams too.
  let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: app.logger))
  try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { try await services.run() }
    var iterator = ports.makeAsyncIterator()
    let bound = try #require(await iterator.next())
    do {
      try await body("http://127.0.0.1:\(bound)/events")
    } catch {
      await services.triggerGracefulShutdown()
      throw error
    }
    await services.triggerGracefulShutdown()
    try await group.waitForAll()
  }
}

/// A request to the endpoint, as `token` (no Authorization header when nil).
func request(
  _ url: String, method: HTTPMethod = .GET, token: String? = "alice", headers: [(String, String)] = [],
  body: String? = nil
) -> HTTPClientRequest {
  var request = HTTPClientRequest(url: url)
  request.method = method
  if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
  for (name, value) in headers { request.headers.add(name: name, value: value) }
  if let body { request.body = .bytes(ByteBuffer(string: body)) }
  return request
}

/// A response's status, headers and whole body as text.
struct Answer {
  var status: Int
  var headers: HTTPHeaders
  var body: String

  /// The body as a JSON object (a problem or an append's answer).
  var json: [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
  }
  /// The last word of a problem's `type`.
  var problem: String? {
    (json["type"] as? String).map { String($0.split(separator: ":").last ?? "") }
  }
}

func send(_ request: HTTPClientRequest) async throws -> Answer {
  let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
  let body = try await response.body.collect(upTo: 64 << 20)
  return Answer(status: Int(response.status.code), headers: response.headers, body: String(buffer: body))
}

/// A structured CloudEvent of a note, as a client would write it.
func noteJSON(
  id: String, board: String, text: String = "hello", subject: String? = nil, source: String = "/tests"
)
  -> String
{
  let event: [String: Any] = [
    "specversion": "1.0", "id": id, "source": source, "type": NoteAdded.eventName, "subject": subject ?? board,
    "datacontenttype": "application/json", "data": ["board": board, "text": text, "author": "tester"],
  ]
  let data = (try? JSONSerialization.data(withJSONObject: event, options: [.sortedKeys])) ?? Data()
  return String(decoding: data, as: UTF8.self)
}

/// Posts notes `ids` for `board` as one batch, as alice.
func postNotes(_ url: String, ids: some Sequence<Int>, board: String, text: String = "hello") async throws {
  let events = ids.map { noteJSON(id: "note-\($0)", board: board, text: text) }
  let answer = try await send(
    request(
      url, method: .POST, headers: [("Content-Type", EventEnvelope.cloudEventBatchContentType)],
      body: "[" + events.joined(separator: ",") + "]"))
  #expect(answer.status == 201, "\(answer.body)")
}

/// One Server-Sent Events frame: its fields (`id`, `event`, `data`) or a comment.
struct Frame: Equatable {
  var id: String?
  var event: String?
  var data: String?
  var comment: String?
}

/// Reads frames of a `text/event-stream` body as they come.
struct FrameReader {
  var body: HTTPClientResponse.Body.AsyncIterator
  var pending = ""

  init(_ response: HTTPClientResponse) {
    body = response.body.makeAsyncIterator()
  }

  /// The next frame, nil at the end of the stream.
  mutating func next() async throws -> Frame? {
    while true {
      if let end = pending.range(of: "\n\n") {
        let text = pending[..<end.lowerBound]
        pending = String(pending[end.upperBound...])
        var frame = Frame()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
          if line.hasPrefix(":") {
            frame.comment = line.dropFirst().trimmingCharacters(in: .whitespaces)
            continue
          }
          let parts = line.split(separator: ":", maxSplits: 1)
          let name = String(parts[0])
          let value = parts.count > 1 ? String(parts[1].dropFirst(parts[1].hasPrefix(" ") ? 1 : 0)) : ""
          switch name {
          case "id": frame.id = value
          case "event": frame.event = value
          case "data": frame.data = (frame.data.map { $0 + "\n" } ?? "") + value
          default: break
          }
        }
        return frame
      }
      guard let buffer = try await body.next() else { return nil }
      pending += String(buffer: buffer)
    }
  }

  /// The next `count` frames that carry an event, skipping comments and `retry`.
  mutating func events(_ count: Int) async throws -> [Frame] {
    var frames: [Frame] = []
    while frames.count < count {
      guard let frame = try await next() else { break }
      if frame.data != nil { frames.append(frame) }
    }
    return frames
  }
}

/// Opens a stream of `url` (with `query`) after `lastEventID`.
func openStream(
  _ url: String, token: String = "alice", query: String = "", lastEventID: String? = nil,
  headers extra: [(String, String)] = []
)
  async throws -> (HTTPClientResponse, FrameReader)
{
  var headers = [("Accept", "text/event-stream")] + extra
  if let lastEventID { headers.append(("Last-Event-ID", lastEventID)) }
  let response = try await HTTPClient.shared.execute(
    request(url + query, token: token, headers: headers), timeout: .seconds(3600))
  return (response, FrameReader(response))
}

extension Frame {
  /// The note of an event frame, decoded from its structured CloudEvent.
  var note: NoteAdded? {
    guard let data else { return nil }
    guard let envelope = try? EventEnvelope(cloudEventJSON: Data(data.utf8)) else { return nil }
    return try? envelope.decode(using: GeneratedEvents.catalog) as? NoteAdded
  }
}

/// The documented token of a file log's position: `{"offset":N,"store":"…"}` (no `store` when
/// nil) in base64url without padding.
func documentedToken(_ position: EventLog.Position, store: String?) -> String {
  let json = #"{"offset":\#(position.offset)"# + (store.map { #","store":"\#($0)""# } ?? "") + "}"
  return Data(json.utf8).base64EncodedString()
    .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    .replacingOccurrences(of: "=", with: "")
}
