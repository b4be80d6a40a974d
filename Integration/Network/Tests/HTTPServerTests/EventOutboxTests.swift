import BoardEvents
import Foundation
import Testing
import TypedEvents
import TypedEventsHTTPClient
import TypedEventsHTTPServer

/// A fresh outbox folder.
func temporaryFolder() -> URL {
  FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)")
}

/// The ids of the events in `log`, in order.
func storedIDs(_ log: EventLog) throws -> [String] {
  try log.read().envelopes.map(\.id)
}

/// What an outbox reported as refused.
final class Refusals: @unchecked Sendable {
  // Guards `refusals`.
  private let lock = NSLock()
  private var refusals: [EventOutbox.Refusal] = []

  func append(_ refusal: EventOutbox.Refusal) { lock.withLock { refusals.append(refusal) } }
  var all: [EventOutbox.Refusal] { lock.withLock { refusals } }
}

@Suite("HTTP client: the offline outbox", .timeLimit(.minutes(1)))
struct EventOutboxTests {
  @Test func whatIsPublishedOfflineIsSentOnceOnlineAndAResendAppendsNothing() async throws {
    let log = try temporaryLog()
    // A port that nothing listens on once its first server has stopped.
    var port = 0
    try await withServer(boardEndpoint(log)) { url in port = try #require(URLComponents(string: url)?.port) }
    let folder = temporaryFolder()
    let url = "http://127.0.0.1:\(port)/events"
    // Offline, a request fails only at its deadline: a short one keeps the test quick.
    let offline = try EventOutbox(
      folder: folder, source: "app/test", client: try boardClient(url, requestTimeout: .seconds(2)))
    var envelopes: [EventEnvelope] = []
    for index in 0..<10 {
      envelopes.append(try await offline.publish(NoteAdded(board: BoardID("b1"), text: "\(index)", author: "me")))
    }
    let published = envelopes

    // Offline: the events stay in the outbox.
    await #expect(throws: (any Error).self) { try await offline.sendPending() }
    #expect(try await offline.pendingCount() == 10)
    #expect(try storedIDs(log).isEmpty)
    // On disk once published: the outbox's log is made to fsync each append.
    #expect(offline.log.durability == .fsyncEachAppend)

    try await withServer(boardEndpoint(log), port: port) { _ in
      // The same folder, as an app started again once online, with the usual deadline.
      let outbox = try EventOutbox(folder: folder, source: "app/test", client: try boardClient(url))
      #expect(try await outbox.sendPending() == 10)
      #expect(try await outbox.pendingCount() == 0)
      #expect(try storedIDs(log) == published.map(\.id))
      #expect(try log.read().envelopes.allSatisfy { $0.source == "app/test" })

      // As after a crash between the answer and noting it: the outbox forgets what was sent,
      // sends it all again, and the endpoint appends none of it a second time.
      try FileManager.default.removeItem(at: folder.appendingPathComponent("outbox.sent"))
      let again = try EventOutbox(folder: folder, source: "app/test", client: outbox.client)
      #expect(try await again.pendingCount() == 10)
      #expect(try await again.sendPending() == 10)
      #expect(try storedIDs(log) == published.map(\.id))
      #expect(try await again.sendPending() == 0)
    }
  }

  @Test func aBatchIsPublishedWholeOrNotAtAllAndWaitUntilSentReturnsOnceTheEndpointHasIt() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      let outbox = try EventOutbox(folder: temporaryFolder(), source: "app/test", client: try boardClient(url))
      let events: [any TypedEvents.Event] = (0..<5).map { NoteAdded(board: BoardID("b1"), text: "\($0)", author: "me") }
      // A key CloudEvents does not allow: none of the batch is written.
      await #expect(throws: (any Error).self) {
        try await outbox.publish(contentsOf: events, metadata: ["Bad-Key": "x"])
      }
      #expect(try await outbox.pendingCount() == 0)
      let published = try await outbox.publish(contentsOf: events)
      #expect(try outbox.log.read().envelopes.map(\.id) == published.map(\.id))

      // Nothing sends yet: the wait goes on until its task is cancelled.
      let waiting = Task { try await outbox.waitUntilSent() }
      try await Task.sleep(for: .milliseconds(200))
      waiting.cancel()
      await #expect(throws: CancellationError.self) { try await waiting.value }
      #expect(try storedIDs(log).isEmpty)

      // With `run()` sending, it returns once the endpoint has them all.
      let sending = Task { try await outbox.run() }
      try await outbox.waitUntilSent()
      #expect(try storedIDs(log) == published.map(\.id))
      #expect(try await outbox.pendingCount() == 0)
      sending.cancel()
    }
  }

  @Test func waitUntilSentSeesWhatAnotherOutboxOnTheFolderSent() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      let folder = temporaryFolder()
      let waiting = try EventOutbox(folder: folder, source: "app/test", client: try boardClient(url))
      let published = try await waiting.publish(NoteAdded(board: BoardID("b1"), text: "one", author: "me"))
      let wait = Task { try await waiting.waitUntilSent() }
      // Another object on the same folder, as another process would be, sends it.
      let sender = try EventOutbox(folder: folder, source: "app/test", client: waiting.client)
      #expect(try await sender.sendPending() == 1)
      let clock = ContinuousClock()
      let started = clock.now
      try await wait.value
      #expect(clock.now - started < .seconds(5))
      #expect(try storedIDs(log) == [published.id])
    }
  }

  @Test func anEventRefusedForGoodIsSetAsideAndTheOthersGoOn() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      // Carol may append to board b2 only.
      let refusals = Refusals()
      let folder = temporaryFolder()
      let outbox = try EventOutbox(
        folder: folder, source: "app/carol", client: try boardClient(url, token: "carol"), onRefused: refusals.append)
      let first = try await outbox.publish(NoteAdded(board: BoardID("b2"), text: "mine", author: "carol"))
      let refused = try await outbox.publish(NoteAdded(board: BoardID("b1"), text: "not mine", author: "carol"))
      let last = try await outbox.publish(NoteAdded(board: BoardID("b2"), text: "mine too", author: "carol"))

      // An event that can be no CloudEvent is refused at once, and never written.
      await #expect(throws: EventLogError.self) {
        try await outbox.publish(
          NoteAdded(board: BoardID("b2"), text: "x", author: "carol"), metadata: ["Bad-Key": "x"])
      }
      #expect(try await outbox.pendingCount() == 3)

      #expect(try await outbox.sendPending() == 3)
      #expect(try storedIDs(log) == [first.id, last.id])
      #expect(refusals.all.map(\.envelope.id) == [refused.id])
      #expect(refusals.all.first?.reason.contains("403") == true)
      let setAside = EventLog(url: folder.appendingPathComponent("refused.log"))
      #expect(try setAside.read().envelopes.map(\.id) == [refused.id])
      #expect(try await outbox.pendingCount() == 0)
    }
  }

  @Test func a401KeepsTheEventsInTheOutboxForARenewedToken() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      let folder = temporaryFolder()
      let refusals = Refusals()
      let expired = try EventOutbox(
        folder: folder, source: "app/token", client: try boardClient(url, token: "expired"),
        onRefused: refusals.append)
      let note = try await expired.publish(NoteAdded(board: BoardID("b1"), text: "later", author: "me"))
      await #expect(throws: EventsClientError.self) { try await expired.sendPending() }
      #expect(try await expired.pendingCount() == 1)
      #expect(refusals.all.isEmpty)

      let renewed = try EventOutbox(folder: folder, source: "app/token", client: try boardClient(url))
      #expect(try await renewed.sendPending() == 1)
      #expect(try storedIDs(log) == [note.id])
    }
  }

  @Test func aRefusalThatIsNotTheEndpointsKeepsTheEvents() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      // A wrong URL: the router's 404 is no problem document of the endpoint.
      let refusals = Refusals()
      let wrong = try EventOutbox(
        folder: temporaryFolder(), source: "app/wrong", client: try boardClient(url + "/nowhere"),
        onRefused: refusals.append)
      try await wrong.publish(NoteAdded(board: BoardID("b1"), text: "kept", author: "me"))
      try await wrong.publish(NoteAdded(board: BoardID("b1"), text: "kept too", author: "me"))
      await #expect(throws: EventsClientError.self) { try await wrong.sendPending() }
      #expect(try await wrong.pendingCount() == 2)
      #expect(refusals.all.isEmpty)
    }
  }

  @Test func aRunCancelledAndStartedAgainIsWokenByPublish() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      let outbox = try EventOutbox(folder: temporaryFolder(), source: "app/again", client: try boardClient(url))
      let first = Task { try await outbox.run() }
      let one = try await outbox.publish(NoteAdded(board: BoardID("b1"), text: "1", author: "me"))
      try await eventually("the first is stored") { try storedIDs(log) == [one.id] }
      first.cancel()
      try await first.value

      let second = Task { try await outbox.run() }
      // Time for the new run to find nothing pending and wait, so that only a wake-up sends
      // what comes next (with less, the test could pass without one, never fail with one).
      try await Task.sleep(for: .milliseconds(300))
      let two = try await outbox.publish(NoteAdded(board: BoardID("b1"), text: "2", author: "me"))
      try await eventually("the second is stored") { try storedIDs(log) == [one.id, two.id] }
      second.cancel()
      try await second.value
    }
  }

  @Test func runSendsEachEventAsItIsPublished() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      let outbox = try EventOutbox(folder: temporaryFolder(), source: "app/run", client: try boardClient(url))
      let run = Task { try await outbox.run() }
      var ids: [String] = []
      for index in 0..<5 {
        ids.append(try await outbox.publish(NoteAdded(board: BoardID("b1"), text: "\(index)", author: "me")).id)
        try await eventually("event \(index) is stored") { try storedIDs(log) == ids }
      }
      run.cancel()
      try await run.value
    }
  }
}
