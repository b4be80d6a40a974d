import AsyncHTTPClient
import BoardEvents
import Foundation
import Testing
import TypedEvents
import TypedEventsHTTPServer

@Suite("The feed reads the store only while streams are open")
struct IdleFeedTests {
  @Test("A stream that starts the feed waits for it at most a poll interval")
  func aStreamWaitsForTheFeedAtMostAPollInterval() async throws {
    // Finding the store's end takes 30 s, and so does the feed's start; the stream reads the
    // store itself after 100 ms. (The margin between the two is wide because the other tests
    // load the machine: a stream took 3 s to open on a loaded one.)
    let store = CountingStore(log: try temporaryLog(), endDelay: .seconds(30))
    try await withServer(endpoint(store, pollInterval: .milliseconds(100))) { url in
      try await postNotes(url, ids: 1...3, board: "b1")
      let clock = ContinuousClock()
      let opened = clock.now
      var (_, reader) = try await openStream(url)
      let frames = try await reader.events(3)
      let waited = clock.now - opened
      #expect(
        frames.compactMap { $0.data.flatMap { try? EventEnvelope(cloudEventJSON: Data($0.utf8)) }?.id }
          == ["note-1", "note-2", "note-3"])
      #expect(waited < .seconds(15), "the stream's first events came after \(waited)")
      #expect(await store.reads.feedStarts == 0)
    }
  }

  @Test("A stream that resumes from a position the feed holds starts from the feed, without reading the store")
  func aStreamResumesFromTheFeed() async throws {
    let store = CountingStore(log: try temporaryLog())
    // A long poll interval: a stream waits for the feed's start (up to that long) before its
    // first frame. The log wakes the feed for each append.
    try await withServer(endpoint(store, pollInterval: .seconds(5))) { url in
      // A first stream starts the feed on the empty store; once its first frame (`retry`) has
      // come, the feed has started, and the five events after reach it live.
      var (_, first) = try await openStream(url)
      _ = try await first.next()
      try await postNotes(url, ids: 1...5, board: "b1")
      let live = try await first.events(5)
      try #require(live.count == 5)
      let second = try await store.log.read(after: nil, limit: 2).envelopes[1].position

      var (_, resumed) = try await openStream(url, lastEventID: live[1].id)
      let rest = try await resumed.events(3)
      #expect(
        rest.compactMap { $0.data.flatMap { try? EventEnvelope(cloudEventJSON: Data($0.utf8)) }?.id }
          == ["note-3", "note-4", "note-5"])
      // The feed's own reads go on; none is the resumed stream's, after its position.
      #expect(await store.reads.afters.filter { $0 == second }.isEmpty)
    }
  }

  @Test("Nothing is read back before a stream opens, nor once none has been open for the idle timeout")
  func readsOnlyForOpenStreams() async throws {
    let store = CountingStore(log: try temporaryLog())
    try await withServer(endpoint(store, pollInterval: .milliseconds(50), idleTimeout: .milliseconds(300))) { url in
      // POSTs alone: the feed, idle from the start, reads none of them back.
      try await postNotes(url, ids: 1...10, board: "b1")
      try await Task.sleep(for: .milliseconds(400))
      #expect(await store.reads.count == 0)
      #expect(await store.reads.feedStarts == 0)

      // A stream: the events before it from the store, then new ones live.
      let firstID = try await Task {
        var (_, reader) = try await openStream(url)
        let early = try await reader.events(10)
        try await postNotes(url, ids: 11...15, board: "b1")
        let late = try await reader.events(5)
        #expect((early + late).compactMap(\.note?.text).count == 15)
        #expect(
          (early + late).compactMap { $0.data.flatMap { try? EventEnvelope(cloudEventJSON: Data($0.utf8)) }?.id }
            == (1...15).map { "note-\($0)" })
        return try #require(late.last?.id)
      }.value
      // The stream started the feed: once.
      #expect(await store.reads.feedStarts == 1)

      // The stream has closed (its task ended): after the idle timeout the feed reads nothing
      // more, so 500 ms without a read come. Polling every 50 ms, a feed that never rests would
      // read about ten times in each 500 ms. (Waited for up to 20 s: under the load of the other
      // tests the feed's loop may come round late.)
      var quiet = false
      let deadline = ContinuousClock.now + .seconds(20)
      while !quiet, ContinuousClock.now < deadline {
        let before = await store.reads.count
        try await Task.sleep(for: .milliseconds(500))
        quiet = await store.reads.count == before
      }
      #expect(quiet)

      // Events appended while the feed is idle reach a stream that resumes; so do later ones.
      try await postNotes(url, ids: 16...20, board: "b1")
      var (_, resumed) = try await openStream(url, lastEventID: firstID)
      let missed = try await resumed.events(5)
      try await postNotes(url, ids: 21...25, board: "b1")
      let live = try await resumed.events(5)
      #expect(
        (missed + live).compactMap { $0.data.flatMap { try? EventEnvelope(cloudEventJSON: Data($0.utf8)) }?.id }
          == (16...25).map { "note-\($0)" })
      // It started the feed again.
      #expect(await store.reads.feedStarts == 2)
    }
  }
}

/// An endpoint on `store` with the board events, polling every `pollInterval`.
private func endpoint(
  _ store: CountingStore, pollInterval: Duration, idleTimeout: Duration = .seconds(10)
) -> EventsEndpoint<CountingStore, Reader> {
  var configuration = EventsEndpoint<CountingStore, Reader>.Configuration()
  configuration.pollInterval = pollInterval
  configuration.feedIdleTimeout = idleTimeout
  return EventsEndpoint(
    store: store, catalog: GeneratedEvents.catalog, access: boardAccess, configuration: configuration)
}

/// An `EventLog` that counts the reads made of it: the endpoint's feed and streams read through
/// it; appends and the log's end are not counted. Finding its end takes `endDelay` more.
struct CountingStore: IdempotentEventStore {
  typealias Position = EventLog.Position
  let log: EventLog
  var endDelay = Duration.zero
  let reads = ReadCounter()

  func append(_ envelopes: [EventEnvelope]) async throws { try await log.append(envelopes) }

  func appendOnce(_ envelopes: [EventEnvelope]) async throws -> [AppendedEnvelope<Position>] {
    try await log.appendOnce(envelopes)
  }

  func read(after position: Position?, limit: Int) async throws -> StoredBatch<Position> {
    await reads.count(after: position, limit: limit)
    return try await log.read(after: position, limit: limit)
  }

  func waitForEnvelopes(after position: Position?, timeout: Duration) async throws {
    try await log.waitForEnvelopes(after: position, timeout: timeout)
  }

  func endPosition() async throws -> Position? {
    try await Task.sleep(for: endDelay)
    return try await log.endPosition()
  }
}

/// The reads of a `CountingStore`.
actor ReadCounter {
  private(set) var count = 0
  /// The reads of one event from the beginning: the feed makes one each time it starts on a
  /// store that holds events (to learn whether the beginning is its start); streams read
  /// `readBatchSize` at a time.
  private(set) var feedStarts = 0
  /// The position each read was after, in order.
  private(set) var afters: [EventLog.Position?] = []

  func count(after position: EventLog.Position?, limit: Int) {
    count += 1
    afters.append(position)
    if position == nil && limit == 1 { feedStarts += 1 }
  }
}
