import AsyncHTTPClient
import BoardEvents
import Foundation
import Hummingbird
import NIOCore
import Synchronization
import Testing
import TypedEvents
import TypedEventsHTTPClient
import TypedEventsHTTPServer

/// How the client and the outbox get past failures, as their documentation says.
@Suite("HTTP client: recovering from failures", .timeLimit(.minutes(1)))
struct EventsClientRecoveryTests {
  @Test func headersAreAskedForBeforeEachRequestSoATokenCanBeRenewed() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      let asked = Received()
      // The first token has expired; each later request asks again and gets a valid one.
      let client = EventsClient(
        url: try #require(URL(string: url)), catalog: GeneratedEvents.catalog,
        headers: {
          asked.append("asked")
          return ["Authorization": "Bearer \(asked.texts.count == 1 ? "expired" : "alice")"]
        })
      let refused = await #expect(throws: EventsClientError.self) { try await client.send([try noteEnvelope("n-1")]) }
      guard case .refused(let problem)? = refused else {
        throw FeedTestFailure(description: "\(String(describing: refused))")
      }
      #expect(problem.status == 401)
      #expect(try await client.send([try noteEnvelope("n-1")]).map(\.wasStored) == [false])
      #expect(asked.texts.count == 2)
      #expect(try storedIDs(log) == ["n-1"])
    }
  }

  @Test func theCheckpointIsSavedWhenTheTaskIsCancelled() async throws {
    let log = try temporaryLog()
    try await log.append(contentsOf: try (0..<10).map { try noteEnvelope("n-\($0)") })
    try await withServer(boardEndpoint(log)) { url in
      let client = try boardClient(url)
      let checkpoint = temporaryCheckpoint()
      let reader = Task {
        var handled: [String] = []
        for try await delivery in client.events(from: checkpoint) {
          handled.append(delivery.envelope.id)
          // Done with the third: cancelled before asking for the fourth, which has arrived.
          if handled.count == 3 { withUnsafeCurrentTask { $0?.cancel() } }
        }
        return handled
      }
      #expect(try await reader.value == ["n-0", "n-1", "n-2"])
      let third = try await send(
        request(url + "?limit=3", headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      #expect(try await checkpoint.load() == third.headers.first(name: "Last-Event-ID"))
      // A new run resumes after the third.
      let resumed = Task { () -> String? in
        for try await delivery in client.events(from: checkpoint) { return delivery.envelope.id }
        return nil
      }
      #expect(try await resumed.value == "n-3")
    }
  }

  @Test func aStreamWaitsAtLeastTheRetryTheServerAsksFor() async throws {
    let attempts = Received()
    // A stream that asks for a second between attempts, then ends at once.
    let router = streamRoute(counting: attempts) { _, writer in
      try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
    }
    try await withServer(router) { url in
      // Its own delays are 20 to 200 ms: without the server's retry it would come back sooner.
      let reader = Task { for try await _ in try boardClient(url).events(from: temporaryCheckpoint()) {} }
      try await eventually("three attempts") { attempts.times.count >= 3 }
      reader.cancel()
      try await reader.value
      let times = attempts.times
      for (earlier, later) in zip(times, times.dropFirst()).prefix(2) {
        #expect(later - earlier >= .milliseconds(950), "\(later - earlier) between attempts")
      }
    }
  }

  @Test func aStreamThatGoesSilentEndsAtTheClientsReadTimeoutAndIsOpenedAgain() async throws {
    let attempts = Received()
    // A stream that sends its head and a comment, then nothing, without closing: a network
    // that changed, a NAT that forgot the connection.
    let router = streamRoute(counting: attempts) { request, writer in
      try await writer.write(ByteBuffer(string: ": open\n\n"))
      // Silent until the client closes the connection.
      try await request.body.consumeWithCancellationOnInboundClose { _ in try await Task.sleep(for: .seconds(60)) }
    }
    var configuration = HTTPClient.Configuration()
    configuration.timeout.read = .milliseconds(300)
    let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    do {
      try await withServer(router) { url in
        let client = EventsClient(
          url: try #require(URL(string: url)), catalog: GeneratedEvents.catalog, httpClient: httpClient)
        let reader = Task { for try await _ in client.events(from: temporaryCheckpoint()) {} }
        // With the default client's 90 s, the first connection would still be open.
        try await eventually("the silent stream opened again", seconds: 30) { attempts.texts.count >= 2 }
        reader.cancel()
        try await reader.value
      }
    } catch {
      // A client not shut down stops the test process.
      try await httpClient.shutdown()
      throw error
    }
    try await httpClient.shutdown()
  }

  @Test func anOutboxRunGoesOnAfterAFailedAttemptAndSendsOnceTheEndpointIsBack() async throws {
    let log = try temporaryLog()
    let store = FailingStore(log: log)
    store.failure.set(.unavailable)
    let endpoint = EventsEndpoint(store: store, catalog: GeneratedEvents.catalog, access: boardAccess)
    try await withServer(endpoint) { url in
      let requests = Received()
      let client = EventsClient(
        url: try #require(URL(string: url)), catalog: GeneratedEvents.catalog, configuration: fastRetries,
        headers: {
          requests.append("request")
          return ["Authorization": "Bearer alice"]
        })
      let outbox = try EventOutbox(folder: temporaryFolder(), source: "app/retry", client: client)
      let run = Task { try await outbox.run() }
      var published: [String] = []
      for index in 0..<3 {
        published.append(try await outbox.publish(NoteAdded(board: BoardID("b1"), text: "\(index)", author: "me")).id)
      }
      let ids = published
      // The store fails: each attempt gets a 503, and only a run that tries again sends later.
      try await eventually("two failed attempts") { requests.texts.count >= 2 }
      #expect(try storedIDs(log).isEmpty)
      #expect(try await outbox.pendingCount() == 3)
      store.failure.set(nil)
      try await eventually("sent once the store is back") { try storedIDs(log) == ids }
      run.cancel()
      try await run.value
    }
  }

}

/// Delays of 20 to 100 ms between attempts.
let fastRetries = {
  var configuration = EventsClient.Configuration()
  configuration.initialRetryDelay = .milliseconds(20)
  configuration.maximumRetryDelay = .milliseconds(100)
  return configuration
}()

/// A router whose `events` answers each GET, counted in `attempts`, with a `text/event-stream`
/// that `write` writes.
func streamRoute(
  counting attempts: Received,
  _ write: @escaping @Sendable (Request, inout any ResponseBodyWriter) async throws -> Void
) -> Router<BasicRequestContext> {
  let router = Router()
  router.get("events") { request, _ -> Response in
    attempts.append("attempt")
    return Response(
      status: .ok, headers: [.contentType: "text/event-stream"],
      body: ResponseBody { writer in
        try await write(request, &writer)
        try await writer.finish(nil)
      })
  }
  return router
}

@Suite("EventsClient: which answers it tries again")
struct EventsClientRetryTests {
  @Test(
    """
    A stream is tried again after an error of the headers closure, a 408, a 429 and a 200 that is \
    no event stream (a 502), and ends with the first answer a retry cannot change
    """)
  func retriedAnswers() async throws {
    let answers = Received()
    let router = Router()
    // Each request gets the next of these; the last, 404, is refused for good.
    let script: [(HTTPResponse.Status, String)] = [
      (.requestTimeout, "application/problem+json"), (.tooManyRequests, "application/problem+json"),
      (.ok, "text/plain"), (.notFound, "application/problem+json"),
    ]
    router.get("events") { _, _ -> Response in
      let (status, type) = answers.lock { index in
        defer { index += 1 }
        return script[min(index, script.count - 1)]
      }
      return Response(
        status: status, headers: [.contentType: type],
        body: ResponseBody(
          byteBuffer: ByteBuffer(string: #"{"type":"urn:typedevents:problem:test","status":\#(status.code)}"#)))
    }
    let headerCalls = Received()
    try await withServer(router) { url in
      var configuration = EventsClient.Configuration()
      configuration.initialRetryDelay = .milliseconds(10)
      configuration.maximumRetryDelay = .milliseconds(20)
      let client = EventsClient(
        url: try #require(URL(string: url)), catalog: GeneratedEvents.catalog, configuration: configuration,
        headers: {
          // The first call fails, as a token service that is down would.
          let call = headerCalls.lock { calls in
            defer { calls += 1 }
            return calls
          }
          if call == 0 { throw HeadersUnavailable() }
          return ["Authorization": "Bearer alice"]
        })
      await #expect {
        for try await _ in client.events(from: temporaryCheckpoint()) {}
      } throws: { error in
        guard case .refused(let problem) = error as? EventsClientError else { return false }
        return problem.status == 404
      }
    }
    #expect(answers.lock { $0 } == 4)
    #expect(headerCalls.lock { $0 } == 5)
  }

  private struct HeadersUnavailable: Error {}

  /// A counter behind a lock.
  final class Received: Sendable {
    private let count = Mutex(0)
    func lock<Result>(_ body: (inout Int) -> Result) -> Result { count.withLock { body(&$0) } }
  }
}
