import AsyncHTTPClient
import BoardEvents
import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOPosix
import Synchronization
import Testing
import TypedEvents
import TypedEventsHTTPServer

/// A request context that keeps the event loop of the request's connection.
struct ConnectionContext: RequestContext {
  var coreContext: CoreRequestContextStorage
  let eventLoop: any EventLoop

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    eventLoop = source.channel.eventLoop
  }
}

@Suite("A server that handles requests on their connection's event loop", .timeLimit(.minutes(2)))
struct EventLoopServerTests {
  /// A router whose `POST /events` reads its whole body, runs a child task and an unstructured
  /// one, appends the body to `log` as one event, and answers where each of those steps ran:
  /// `loop` on the connection's event loop, `pool` elsewhere.
  func whereRouter(_ log: EventLog) -> Router<ConnectionContext> {
    let router = Router(context: ConnectionContext.self)
    router.post("events") { request, context -> String in
      func place() -> String { context.eventLoop.inEventLoop ? "loop" : "pool" }
      let start = place()
      let body = try await request.body.collect(upTo: 4 << 20)
      let collected = place()
      async let child = place()
      let unstructured = await Task { place() }.value
      let note = NoteAdded(board: BoardID("b1"), text: String(buffer: body), author: "a")
      try await log.append(EventEnvelope(note, id: UUID().uuidString, source: "/tests"))
      return "\(start) \(collected) \(await child) \(unstructured) \(place()) \(body.readableBytes)"
    }
    return router
  }

  @Test(
    "reads a body of many parts, runs a child task, awaits an append and answers on the loop; a Task {} does not")
  func handlersRunOnTheConnectionsLoop() async throws {
    let log = EventLog(
      url: try temporaryLog().url.deletingLastPathComponent().appendingPathComponent("fsynced.log"))
    // 1 MB: far more than one read of the socket, so the body arrives in many parts.
    let text = String(repeating: "x", count: 1 << 20)
    try await withServer(whereRouter(log), server: .http1OnEventLoop()) { url in
      for _ in 0..<3 {
        let answer = try await send(request(url, method: .POST, body: text))
        #expect(answer.status == 200)
        #expect(answer.body == "loop loop loop pool loop \(1 << 20)")
      }
    }
    #expect(try log.read().envelopes.count == 3)
  }

  @Test("as a control, Hummingbird's .http1() runs the same handler on Swift's pool")
  func http1RunsHandlersOnThePool() async throws {
    let log = try temporaryLog()
    try await withServer(whereRouter(log), server: .http1()) { url in
      let answer = try await send(request(url, method: .POST, body: "small"))
      #expect(answer.status == 200)
      #expect(answer.body == "pool pool pool pool pool 5")
    }
  }

  @Test("writes a stream's events from Swift's pool on either builder, beside the connection's loop")
  func streamsAreWrittenFromThePool() async throws {
    for server in [HTTPServerBuilder.http1OnEventLoop(), .http1()] {
      // Where each per-event check of board b1's notes ran: the stream's writer asks for each
      // event it sends.
      let onLoop = Mutex<[Bool]>([])
      let access = EventAccess<Reader>(
        authenticate: { _ in readers["alice"] },
        authorize: { _, permission in
          if permission.subject == "b1" {
            onLoop.withLock { $0.append(MultiThreadedEventLoopGroup.currentEventLoop != nil) }
          }
          return true
        })
      let log = try temporaryLog()
      let endpoint = EventsEndpoint(store: log, catalog: GeneratedEvents.catalog, access: access)
      try await withServer(endpoint, server: server) { url in
        var (_, frames) = try await openStream(url)
        for index in 0..<3 {
          _ = try await log.appendOnce([
            try EventEnvelope(NoteAdded(board: BoardID("b1"), text: "n", author: "a"), id: "n\(index)", source: "/t")
          ])
        }
        var received = 0
        while received < 3, let frame = try await frames.next() {
          if frame.note != nil { received += 1 }
        }
        #expect(received == 3)
      }
      let places = onLoop.withLock { $0 }
      #expect(places.count >= 3)
      #expect(!places.contains(true))
    }
  }

  @Test("serves the endpoint alike on both builders: a batch POSTed, then read back as a page")
  func theEndpointIsServedAlike() async throws {
    for server in [HTTPServerBuilder.http1OnEventLoop(), .http1()] {
      let log = try temporaryLog()
      try await withServer(boardEndpoint(log), server: server) { url in
        let batch = "[" + (0..<50).map { noteJSON(id: "n\($0)", board: "b1") }.joined(separator: ",") + "]"
        let posted = try await send(
          request(
            url, method: .POST, headers: [("Content-Type", EventEnvelope.cloudEventBatchContentType)], body: batch))
        #expect(posted.status == 201)
        #expect(try await pageIDs(url) == (0..<50).map { "n\($0)" })
      }
    }
  }
}
