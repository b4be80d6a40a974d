import AsyncHTTPClient
import BoardEvents
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import TypedEvents
import TypedEventsHTTPClient
import TypedEventsHTTPServer

/// A note's envelope from `source`, with a fixed id.
func noteEnvelope(_ id: String, board: String = "b1", source: String = "/tests") throws -> EventEnvelope {
  try EventEnvelope(NoteAdded(board: BoardID(board), text: id, author: "tester"), id: id, source: source)
}

/// The header that names a batch POST's body.
let batchContentType = [("Content-Type", EventEnvelope.cloudEventBatchContentType)]

/// The answers the article "Events to every client" documents beyond the table of bad requests
/// in `EventsEndpointTests`: each test fails if the endpoint answers otherwise.
@Suite("HTTP endpoint: the documented answers", .timeLimit(.minutes(1)))
struct EventsEndpointAnswerTests {
  @Test func aBatchOfNewAndStoredEventsGets201AndSendSaysWhichInOrder() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      let client = try boardClient(url)
      let first = try noteEnvelope("n-1")
      let second = try noteEnvelope("n-2")
      let sentFirst = try await client.send([first])
      #expect(sentFirst.map(\.wasStored) == [false])
      #expect(sentFirst.map(\.id) == ["n-1"])
      #expect(sentFirst.map(\.source) == ["/tests"])

      // One stored before, one new: 201, and the answer says which is which.
      let mixed = try await send(
        request(
          url, method: .POST, headers: batchContentType,
          body: String(decoding: try EventEnvelope.cloudEventBatchJSON([first, second]), as: UTF8.self)))
      #expect(mixed.status == 201, "\(mixed.body)")
      let answered = try #require(mixed.json["events"] as? [[String: Any]])
      #expect(answered.map { $0["duplicate"] as? Bool } == [true, false])
      #expect(answered.first?["position"] as? String == sentFirst.first?.position)

      // Both stored: `send` answers in the order sent, each with the position it has.
      let again = try await client.send([second, first])
      #expect(again.map(\.id) == ["n-2", "n-1"])
      #expect(again.map(\.wasStored) == [true, true])
      #expect(again.last?.position == sentFirst.first?.position)
      let page = try await send(request(url, headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      #expect(again.first?.position == page.headers.first(name: "Last-Event-ID"))
      #expect(try storedIDs(log) == ["n-1", "n-2"])
    }
  }

  @Test func anAppendsPermissionCarriesTheEventsSource() async throws {
    let log = try temporaryLog()
    // Each producer appends under its own source only, so none can take another's ids.
    let producers = EventAccess<Reader>(
      authenticate: boardAccess.authenticate,
      authorize: { reader, permission in
        permission.action != .append || permission.source == "/producers/\(reader.name)"
      })
    let endpoint = EventsEndpoint(store: log, catalog: GeneratedEvents.catalog, access: producers)
    try await withServer(endpoint) { url in
      let posing = try await send(
        request(
          url, method: .POST, headers: [("Content-Type", "application/cloudevents+json")],
          body: noteJSON(id: "taken", board: "b1", source: "/producers/bob")))
      #expect(posing.status == 403, "\(posing.body)")
      #expect(posing.problem == "forbidden")
      #expect(try storedIDs(log).isEmpty)

      let own = try await send(
        request(
          url, method: .POST, headers: [("Content-Type", "application/cloudevents+json")],
          body: noteJSON(id: "taken", board: "b1", source: "/producers/alice")))
      #expect(own.status == 201, "\(own.body)")
      #expect(try storedIDs(log) == ["taken"])
    }
  }

  @Test func aStoreThatRefusesTheEventsGets409AndOneThatFailsGets503() async throws {
    let log = try temporaryLog()
    let store = FailingStore(log: log)
    let endpoint = EventsEndpoint(store: store, catalog: GeneratedEvents.catalog, access: boardAccess)
    try await withServer(endpoint) { url in
      let post = request(
        url, method: .POST, headers: [("Content-Type", "application/cloudevents+json")],
        body: noteJSON(id: "n-1", board: "b1"))
      let page = request(url, headers: [("Accept", EventEnvelope.cloudEventBatchContentType)])

      store.failure.set(.refusing)
      let conflict = try await send(post)
      #expect(conflict.status == 409, "\(conflict.body)")
      #expect(conflict.problem == "conflict")
      #expect((conflict.json["detail"] as? String)?.contains("held under another source") == true)

      store.failure.set(.unavailable)
      for answer in [try await send(post), try await send(page)] {
        #expect(answer.status == 503, "\(answer.body)")
        #expect(answer.problem == "store-unavailable")
        // What went wrong inside stays in the server's log.
        #expect(!answer.body.contains("disk on fire"))
      }

      // The outbox keeps what got a 503, to send again, and sets aside what got a 409.
      let refusals = Refusals()
      let outbox = try EventOutbox(
        folder: temporaryFolder(), source: "app/faults", client: try boardClient(url), onRefused: refusals.append)
      let kept = try await outbox.publish(NoteAdded(board: BoardID("b1"), text: "kept", author: "me"))
      await #expect(throws: EventsClientError.self) { try await outbox.sendPending() }
      #expect(try await outbox.pendingCount() == 1)
      #expect(refusals.all.isEmpty)
      store.failure.set(.refusing)
      #expect(try await outbox.sendPending() == 1)
      #expect(refusals.all.map(\.envelope.id) == [kept.id])
      #expect(try await outbox.pendingCount() == 0)

      store.failure.set(nil)
      #expect(try await send(post).status == 201)
      #expect(try storedIDs(log) == ["n-1"])
    }
  }

  @Test func aChunkedBodyOverTheLimitGets413WhileItIsRead() async throws {
    let log = try temporaryLog()
    let endpoint = boardEndpoint(log) { configuration in configuration.maximumBodySize = 1_000 }
    try await withServer(endpoint) { url in
      // No Content-Length, and a body that goes on: the answer can only come while it is read.
      let (body, more) = AsyncStream<ByteBuffer>.makeStream()
      for _ in 0..<3 { more.yield(ByteBuffer(repeating: UInt8(ascii: " "), count: 400)) }
      let ending = Task {
        // Ends the body only in case the endpoint waits for its end, so the test fails, not hangs.
        // Above the bound below (the other tests load the machine), below the request's 30 s
        // deadline, so a failure says what failed.
        try? await Task.sleep(for: .seconds(20))
        more.finish()
      }
      var chunked = request(url, method: .POST, headers: [("Content-Type", "application/cloudevents+json")])
      chunked.body = .stream(body, length: .unknown)
      let start = ContinuousClock.now
      let answer = try await send(chunked)
      #expect(ContinuousClock.now - start < .seconds(15), "the answer waited for the body's end")
      ending.cancel()
      more.finish()
      #expect(answer.status == 413, "\(answer.body)")
      #expect(answer.problem == "too-large")
      #expect(try storedIDs(log).isEmpty)

      // A chunked body under the limit is taken.
      let small = Array(noteJSON(id: "small", board: "b1").utf8)
      var fits = request(url, method: .POST, headers: [("Content-Type", "application/cloudevents+json")])
      fits.body = .stream(chunks([ByteBuffer(bytes: small)]), length: .unknown)
      #expect(try await send(fits).status == 201)
    }
  }

  @Test func typeMayBeRepeatedToSelectSeveralTypes() async throws {
    let log = try logWithAnAdditionAndARemoval()
    try await withServer(boardEndpoint(log)) { url in
      let added = "type=\(NoteAdded.eventName)"
      let removed = "type=\(NoteRemoved.eventName)"
      let pages = [
        try await pageIDs(url + "?" + removed), try await pageIDs(url + "?" + added),
        try await pageIDs(url + "?" + added + "&" + removed), try await pageIDs(url + "?" + removed + "&" + added),
      ]
      #expect(pages == [["removed"], ["added"], ["added", "removed"], ["added", "removed"]])
    }
  }

  @Test func aRequestForSeveralTypesGets403OnlyWhenThePrincipalMayReadNoneOfThem() async throws {
    let log = try logWithAnAdditionAndARemoval()
    // Removals only, on any board.
    let removals = EventAccess<Reader>(
      authenticate: boardAccess.authenticate,
      authorize: { _, permission in permission.action == .read && permission.type == NoteRemoved.eventName })
    let endpoint = EventsEndpoint(store: log, catalog: GeneratedEvents.catalog, access: removals)
    try await withServer(endpoint) { url in
      let added = "type=\(NoteAdded.eventName)"
      let removed = "type=\(NoteRemoved.eventName)"
      let none = try await send(
        request(url + "?\(added)&subject=b1", headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      #expect(none.status == 403, "\(none.body)")
      #expect(none.problem == "forbidden")
      // One of the two may be read: the request is served, with what may be read.
      let some = try await pageIDs(url + "?\(added)&\(removed)&subject=b1")
      #expect(some == ["removed"])
    }
  }

  @Test func aSubjectThePrincipalMayReadNothingAboutIs403WithOrWithoutType() async throws {
    let log = try logWithAnAdditionAndARemoval()
    try await withServer(boardEndpoint(log)) { url in
      // bob may read board b1 only: b2 is refused before anything is read, whether the request
      // names a type or not, for a page, a stream and HEAD alike.
      for query in ["?subject=b2", "?type=\(NoteAdded.eventName)&subject=b2"] {
        for (accept, method) in [
          (EventEnvelope.cloudEventBatchContentType, HTTPMethod.GET), ("text/event-stream", .GET),
          ("text/event-stream", .HEAD),
        ] {
          let answer = try await send(request(url + query, method: method, token: "bob", headers: [("Accept", accept)]))
          #expect(answer.status == 403, "\(method) \(accept) \(query): \(answer.body)")
          if method == .GET { #expect(answer.problem == "forbidden", "\(accept) \(query)") }
        }
      }
      // A subject it may read is served, with or without a type.
      let own = try await send(
        request(url + "?subject=b1", token: "bob", headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      #expect(own.status == 200, "\(own.body)")
    }
    // One type of the catalog it may read about the subject is enough, without `type`.
    let removals = EventAccess<Reader>(
      authenticate: boardAccess.authenticate,
      authorize: { _, permission in permission.action == .read && permission.type == NoteRemoved.eventName })
    let endpoint = EventsEndpoint(store: log, catalog: GeneratedEvents.catalog, access: removals)
    try await withServer(endpoint) { url in
      let ids = try await pageIDs(url + "?subject=b1")
      #expect(ids == ["removed"])
    }
    // A catalog that lists no type does not stand for every type: served, event by event.
    let readOnly = EventsEndpoint(store: log, catalog: EventCatalog([]), access: boardAccess)
    try await withServer(readOnly) { url in
      let answer = try await send(
        request(url + "?subject=b2", token: "bob", headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      #expect(answer.status == 200)
      #expect(answer.body == "[]")
    }
  }

  @Test func theDefaultsAreThoseDocumented() {
    let endpoint = EventsEndpointConfiguration()
    #expect(endpoint.maximumBodySize == 1 << 20)
    #expect(endpoint.maximumBatchCount == 1_000)
    #expect(endpoint.defaultPageSize == 100)
    #expect(endpoint.maximumPageSize == 1_000)
    #expect(endpoint.heartbeatInterval == .seconds(15))
    #expect(endpoint.writeTimeout == .seconds(10))
    #expect(endpoint.feedCapacity == 4_096)
    #expect(endpoint.readBatchSize == 256)
    #expect(endpoint.pollInterval == .seconds(1))
    #expect(endpoint.feedIdleTimeout == .seconds(10))
    #expect(endpoint.defaultSource == "/")
    #expect(endpoint.bodyReadTimeout == .seconds(10))
    #expect(endpoint.maximumPageBytes == 4 << 20)
    #expect(endpoint.maximumStreamsPerPrincipal == 8)
    #expect(endpoint.feedByteBudget == 64 << 20)
    #expect(endpoint.readByteBudget == 8 << 20)
    #expect(endpoint.sharedReadByteBudget == 64 << 20)
    #expect(endpoint.accessQueryParameters.isEmpty)
    #expect(endpoint.openAPIDescription == nil)
    #expect(endpoint.jsonLimits.maximumDepth == 256)
    #expect(endpoint.jsonLimits.maximumMembers == 100_000)
    #expect(endpoint.jsonLimits.maximumStringBytes == 1 << 20)

    let client = EventsClient.Configuration()
    #expect(client.initialRetryDelay == .milliseconds(250))
    #expect(client.maximumRetryDelay == .seconds(30))
    #expect(client.requestTimeout == .seconds(30))
    #expect(client.maximumAnswerSize == 4 << 20)
  }
}

/// A log holding a note added to board b1 (id `added`), then one removed from it (`removed`).
func logWithAnAdditionAndARemoval() throws -> EventLog {
  let log = try temporaryLog()
  try log.append(
    contentsOf: [
      try noteEnvelope("added"),
      try EventEnvelope(NoteRemoved(board: BoardID("b1"), index: 0), id: "removed", source: "/tests"),
    ])
  return log
}

/// The ids of the events of the page at `url`, as alice.
func pageIDs(_ url: String) async throws -> [String] {
  let page = try await send(request(url, headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
  #expect(page.status == 200, "\(page.body)")
  let events = (try JSONSerialization.jsonObject(with: Data(page.body.utf8))) as? [[String: Any]]
  return events?.compactMap { $0["id"] as? String } ?? []
}

/// `buffers` as the body of a request that has no Content-Length.
func chunks(_ buffers: [ByteBuffer]) -> AsyncStream<ByteBuffer> {
  let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream()
  for buffer in buffers { continuation.yield(buffer) }
  continuation.finish()
  return stream
}

/// An `EventLog` whose appends and reads fail as a test sets: `refusing` refuses the events
/// themselves (as the PostgreSQL store refuses an id it holds under another source),
/// `unavailable` cannot be reached.
struct FailingStore: IdempotentEventStore {
  typealias Position = EventLog.Position
  enum Failure: Sendable { case refusing, unavailable }

  let log: EventLog
  let failure = Setting<Failure?>(nil)

  private func check() throws {
    switch failure.value {
    case .refusing?: throw EventLogError.malformed("the id n-1 is held under another source")
    case .unavailable?: throw EventLogError.io(path: "/events", reason: "disk on fire")
    case nil: return
    }
  }

  func append(_ envelopes: [EventEnvelope]) async throws {
    try check()
    try await log.append(envelopes)
  }

  func appendOnce(_ envelopes: [EventEnvelope]) async throws -> [AppendedEnvelope<Position>] {
    try check()
    return try await log.appendOnce(envelopes)
  }

  func read(after position: Position?, limit: Int) async throws -> StoredBatch<Position> {
    if failure.value == .unavailable { try check() }
    return try await log.read(after: position, limit: limit)
  }

  func waitForEnvelopes(after position: Position?, timeout: Duration) async throws {
    try await log.waitForEnvelopes(after: position, timeout: timeout)
  }

  func endPosition() async throws -> Position? { try await log.endPosition() }
}

/// A value tests change while a server reads it.
final class Setting<Value: Sendable>: @unchecked Sendable {
  // Guards `current`.
  private let lock = NSLock()
  private var current: Value

  init(_ value: Value) { current = value }

  var value: Value { lock.withLock { current } }
  func set(_ value: Value) { lock.withLock { current = value } }
}
