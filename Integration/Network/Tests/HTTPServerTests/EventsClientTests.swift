import AsyncHTTPClient
import BoardEvents
import Foundation
import Testing
import TypedEvents
import TypedEventsHTTPClient
import TypedEventsHTTPServer

/// A client of the board endpoint at `url`, as `token`, that retries quickly.
///
/// `requestTimeout` is the default's 30 seconds unless a test needs an offline request to fail
/// sooner (AsyncHTTPClient tries to connect until this deadline). A short one for requests that
/// should succeed fails them when the machine is loaded: 54 tests start at once on 2 cores.
func boardClient(
  _ url: String, token: String? = "alice", requestTimeout: Duration = .seconds(30)
) throws -> EventsClient {
  var configuration = EventsClient.Configuration()
  configuration.initialRetryDelay = .milliseconds(20)
  configuration.maximumRetryDelay = .milliseconds(200)
  configuration.requestTimeout = requestTimeout
  return EventsClient(
    url: try #require(URL(string: url)), catalog: GeneratedEvents.catalog, configuration: configuration,
    headers: { token.map { ["Authorization": "Bearer \($0)"] } ?? [:] })
}

/// A checkpoint in a fresh temporary folder.
func temporaryCheckpoint() -> FileCheckpoint<String> {
  FileCheckpoint(url: FileManager.default.temporaryDirectory.appendingPathComponent("checkpoint-\(UUID().uuidString)"))
}

/// Waits until `condition` holds, checking every 10 ms; fails the test after `seconds`.
func eventually(
  _ what: String, seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: () async throws -> Bool
) async throws {
  let deadline = ContinuousClock.now + .seconds(seconds)
  while ContinuousClock.now < deadline {
    if try await condition() { return }
    try await Task.sleep(for: .milliseconds(10))
  }
  Issue.record("never: \(what)", sourceLocation: sourceLocation)
}

/// What a client task received so far.
final class Received: @unchecked Sendable {
  // Guards `received` and `instants`.
  private let lock = NSLock()
  private var received: [String] = []

  private var instants: [ContinuousClock.Instant] = []

  func append(_ text: String) {
    lock.withLock {
      received.append(text)
      instants.append(.now)
    }
  }
  var texts: [String] { lock.withLock { received } }
  /// When each text was appended.
  var times: [ContinuousClock.Instant] { lock.withLock { instants } }
}

@Suite("HTTP client: typed events from the endpoint", .timeLimit(.minutes(1)))
struct EventsClientTests {
  @Test func eventsArriveTypedInOrderAndAResumedRunGoesOnFromTheCheckpoint() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      try await postNotes(url, ids: 0..<20, board: "b1", text: "x")
      try await log.append(
        contentsOf: try (20..<25).map {
          try EventEnvelope(NoteAdded(board: BoardID("b2"), text: "x", author: "a"), id: "note-\($0)")
        })
      let ids = (0..<25).map { "note-\($0)" }
      let client = try boardClient(url)
      let checkpoint = temporaryCheckpoint()

      var first: [EventsClient.Delivery] = []
      for try await received in client.events(from: checkpoint) {
        first.append(received)
        if first.count == 12 { break }
      }
      #expect(first.map(\.envelope.id) == Array(ids[..<12]))
      #expect(first.allSatisfy { $0.event is NoteAdded })

      // Each delivery's position is its own, and a stream started after one goes on from it.
      #expect(Set(first.map(\.position)).count == 12)
      for try await delivery in client.events(after: first[5].position) {
        #expect(delivery.envelope.id == "note-6")
        break
      }

      // A run that stops early noted as handled every event it asked past: the next run starts
      // at the 12th event, the one the loop had not finished, with no gap and in order.
      let received = Received()
      let second = Task {
        for try await delivery in client.events(from: checkpoint) { received.append(delivery.envelope.id) }
      }
      try await eventually("the second run reaches the end") { received.texts.last == "note-24" }
      let firstID = try #require(received.texts.first)
      let start = try #require(ids.firstIndex(of: firstID))
      #expect(start == 11)
      #expect(received.texts == Array(ids[start...]))

      // Waiting for more, it has saved the end (the position a page of everything ends at): a
      // restarted run gets only what comes next.
      let page = try await send(
        request(url + "?limit=1000", headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      let end = try #require(page.headers.first(name: "Last-Event-ID"))
      try await eventually("the end is saved") { try await checkpoint.load() == end }
      second.cancel()
      try await log.append(try EventEnvelope(NoteAdded(board: BoardID("b1"), text: "x", author: "a"), id: "note-25"))
      for try await delivery in client.events(from: checkpoint) {
        #expect(delivery.envelope.id == "note-25")
        break
      }
    }
  }

  @Test func typesAndASubjectSelectWhatArrives() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      for board in ["b1", "b2", "b1"] { try await postNotes(url, ids: [UUID().hashValue], board: board, text: board) }
      try await log.append(try EventEnvelope(NoteRemoved(board: BoardID("b1"), index: 0)))
      let client = try boardClient(url)
      var notes: [String] = []
      for try await delivery in client.events(
        from: temporaryCheckpoint(), types: [NoteAdded.eventName], subject: "b1")
      {
        notes.append(try #require(delivery.event as? NoteAdded).board.rawValue)
        if notes.count == 2 { break }
      }
      #expect(notes == ["b1", "b1"])
    }
  }

  @Test func anEventTheCatalogDoesNotKnowIsReportedAndTheStreamGoesOn() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      try await postNotes(url, ids: 0..<2, board: "b1")
      try await log.append(try EventEnvelope(NoteRemoved(board: BoardID("b1"), index: 1), id: "removed", source: "/s"))
      let skipped = Received()
      let client = EventsClient(
        url: try #require(URL(string: url)), catalog: EventCatalog([NoteRemoved.self]),
        headers: { ["Authorization": "Bearer alice"] },
        onSkipped: { skipped.append("\($0.envelope?.id ?? "-"): \($0.reason)") })
      for try await delivery in client.events(from: temporaryCheckpoint()) {
        #expect((delivery.event as? NoteRemoved)?.index == 1)
        break
      }
      #expect(skipped.texts.count == 2)
      #expect(skipped.texts.allSatisfy { $0.hasPrefix("note-") && $0.contains(NoteAdded.eventName) })
    }
  }

  @Test func aStreamTheEndpointRefusesThrowsItsProblem() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      let anonymous = try boardClient(url, token: nil)
      await #expect {
        for try await _ in anonymous.events(from: temporaryCheckpoint()) {}
      } throws: { error in
        guard case .refused(let problem) = error as? EventsClientError else { return false }
        return problem.status == 401 && problem.type == "urn:typedevents:problem:unauthenticated"
      }

      let checkpoint = temporaryCheckpoint()
      try await checkpoint.save("not-a-position")
      await #expect {
        for try await _ in try boardClient(url).events(from: checkpoint) {}
      } throws: { error in
        guard case .refused(let problem) = error as? EventsClientError else { return false }
        return problem.status == 400 && problem.type == "urn:typedevents:problem:bad-position"
      }
    }
  }

  @Test func aClientReconnectsAfterTheServerRestartsAndLosesAndRepeatsNothing() async throws {
    let log = try temporaryLog()
    let received = Received()
    var port = 0
    var reader: Task<Void, any Error>?
    try await withServer(boardEndpoint(log)) { url in
      port = try #require(URLComponents(string: url)?.port)
      try await postNotes(url, ids: 0..<10, board: "b1")
      let client = try boardClient(url)
      reader = Task {
        for try await delivery in client.events(from: temporaryCheckpoint()) { received.append(delivery.envelope.id) }
      }
      try await eventually("the first 10 arrive") { received.texts.count == 10 }
    }
    // The server is down: its graceful shutdown ended the stream. Events go on being appended.
    for index in 10..<20 {
      try await log.append(
        try EventEnvelope(NoteAdded(board: BoardID("b1"), text: "hello", author: "a"), id: "note-\(index)"))
    }
    try await withServer(boardEndpoint(log), port: port) { _ in
      try await eventually("all 20 arrive after the restart") { received.texts.count >= 20 }
    }
    reader?.cancel()
    #expect(received.texts == (0..<20).map { "note-\($0)" })
  }

  @Test func positionsTheEndpointSendsWithoutEventsAreSavedToo() async throws {
    let log = try temporaryLog()
    let endpoint = boardEndpoint(log) { configuration in
      configuration.heartbeatInterval = .milliseconds(100)
    }
    try await withServer(endpoint) { url in
      let client = try boardClient(url)
      let checkpoint = temporaryCheckpoint()
      // Only removals are asked for, and only notes are added: no event arrives, but the
      // heartbeat's id moves the position past them, and the client saves it.
      let reader = Task { for try await _ in client.events(from: checkpoint, types: [NoteRemoved.eventName]) {} }
      try await postNotes(url, ids: 0..<3, board: "b1")
      let page = try await send(
        request(url + "?limit=1000", headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      let end = try #require(page.headers.first(name: "Last-Event-ID"))
      try await eventually("the position past the notes is saved") { try await checkpoint.load() == end }
      reader.cancel()
      try await reader.value
    }
  }

  @Test func aStreamAnsweredWith503IsTriedAgainUntilTheTaskIsCancelled() async throws {
    let log = try temporaryLog()
    let attempts = Received()
    // Counts the requests that reach the endpoint, then lets boardAccess decide.
    let counting = EventAccess<Reader>(
      authenticate: { request in
        attempts.append(request.uri.path)
        return try await boardAccess.authenticate(request)
      },
      authorize: boardAccess.authorize)
    let endpoint = EventsEndpoint(store: log, catalog: GeneratedEvents.catalog, access: counting)
    try await withServer(endpoint, runningEndpoint: false) { url in
      let client = try boardClient(url)
      let reader = Task { for try await _ in client.events(from: temporaryCheckpoint()) {} }
      try await eventually("three attempts") { attempts.texts.count >= 3 }
      reader.cancel()
      // Cancelled, it ends without an error: the 503s were never thrown.
      try await reader.value
    }
  }

  @Test func runPublishesIntoABusAsIfPublishedHere() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      try await postNotes(url, ids: 0..<5, board: "b1", text: "on the bus")
      let bus = RecordingEventBus()
      let client = try boardClient(url)
      let run = Task { try await client.run(from: temporaryCheckpoint(), into: bus) }
      try await eventually("five notes on the bus") { bus.published(NoteAdded.self).count == 5 }
      run.cancel()
      try await run.value
      #expect(bus.published(NoteAdded.self).map(\.text) == Array(repeating: "on the bus", count: 5))
    }
  }
}
