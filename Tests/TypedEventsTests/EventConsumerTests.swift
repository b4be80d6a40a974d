import Foundation
import Testing
import TypedEvents

@Suite("Consuming a store from a checkpoint")
struct EventConsumerTests {
  let catalog = EventCatalog([Tick.self, Tock.self])

  /// A log and a checkpoint in a fresh folder, removed after `body`.
  func withStore(_ body: (EventLog, FileCheckpoint<EventLog.Position>) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await body(
      EventLog(url: folder.appendingPathComponent("events.jsonl")),
      FileCheckpoint(url: folder.appendingPathComponent("checkpoint.json")))
  }

  /// Waits until `condition` holds, up to 30 s (a bound on a hang, not a timing assertion).
  func eventually(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while !condition() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
  }

  func counts(_ events: [any Event]) -> [Int] { events.compactMap { ($0 as? Tick)?.count } }

  @Test func catchesUpThenDeliversNewEventsIntoABusAndCheckpoints() async throws {
    try await withStore { log, checkpoint in
      try await log.append(contentsOf: (1...3).map { try EventEnvelope(Tick(count: $0)) })
      let bus = EventBus()
      let received = Collected<Int>()
      let subscription = bus.subscribe(Tick.self) { received.append($0.count) }
      let consumer = EventConsumer(store: log, catalog: catalog, batchSize: 2, pollInterval: .milliseconds(100))
      let running = Task { try await consumer.run(from: checkpoint, into: bus) }
      try await eventually { received.all.count == 3 }
      try await log.append(Tick(count: 4))
      try await log.append([try EventEnvelope(Tick(count: 5))])
      try await eventually { received.all.count == 5 }
      running.cancel()
      try await running.value
      #expect(received.all == [1, 2, 3, 4, 5])
      // The checkpoint is the end of the log: a new consumer has nothing to deliver.
      let end = try log.read().envelopes.count
      #expect(end == 5)
      #expect(try await checkpoint.load() == (try log.read(after: nil).next))
      withExtendedLifetime(subscription) {}
    }
  }

  /// A checkpoint that keeps nothing between saves: the protocol's default `noteHandled`.
  struct SavesOnly<Position: Hashable & Sendable & Codable>: EventCheckpoint {
    let file: FileCheckpoint<Position>
    func load() async throws -> Position? { try await file.load() }
    func save(_ position: Position) async throws { try await file.save(position) }
  }

  struct Failure: Error {}

  /// Runs a consumer whose handler throws at Tick 4, then a second run of three events.
  func throwAtFourThenRunAgain(
    _ log: EventLog, _ checkpoint: some EventCheckpoint<EventLog.Position>
  ) async throws -> (first: [Int], second: [(Int, String)]) {
    try await log.append(contentsOf: (1...5).map { try EventEnvelope(Tick(count: $0)) })
    let consumer = EventConsumer(store: log, catalog: catalog, batchSize: 2, pollInterval: .milliseconds(50))
    var first: [Int] = []
    await #expect(throws: Failure.self) {
      try await consumer.run(from: checkpoint) { delivery in
        first.append((delivery.event as? Tick)?.count ?? -1)
        if first.last == 4 { throw Failure() }
      }
    }
    var second: [(Int, String)] = []
    for try await delivery in consumer.events(from: checkpoint) {
      second.append(((delivery.event as? Tick)?.count ?? -1, delivery.envelope.id))
      if second.count == 3 || second.last?.0 == 5 { break }
    }
    return (first, second)
  }

  @Test func aHandlerThatThrowsGetsItsEventAgainOnTheNextRunAndNoEventItHandled() async throws {
    try await withStore { log, checkpoint in
      let (first, second) = try await throwAtFourThenRunAgain(log, checkpoint)
      #expect(first == [1, 2, 3, 4])
      // Batches [1, 2] and [3, 4]: the first was saved, 3 noted as handled, 4 was not handled.
      #expect(second.map(\.0) == [4, 5])
      let ids = try log.read().envelopes.map(\.id)
      #expect(second.map(\.1) == Array(ids[3...]))
    }
  }

  @Test func withACheckpointThatKeepsNothingBetweenSavesTheBatchComesAgain() async throws {
    try await withStore { log, checkpoint in
      let (first, second) = try await throwAtFourThenRunAgain(log, SavesOnly(file: checkpoint))
      #expect(first == [1, 2, 3, 4])
      // Only the first batch was saved, so 3 and 4 come again, recognisable by id.
      #expect(second.map(\.0) == [3, 4, 5])
      let ids = try log.read().envelopes.map(\.id)
      #expect(second.map(\.1) == Array(ids[2...]))
    }
  }

  @Test func aLoopThatLeavesEarlyGetsItsLastEventAgain() async throws {
    try await withStore { log, checkpoint in
      try await log.append(contentsOf: (1...5).map { try EventEnvelope(Tick(count: $0)) })
      let consumer = EventConsumer(store: log, catalog: catalog, batchSize: 2)
      for try await _ in consumer.events(from: checkpoint) { break }
      #expect(try await checkpoint.load() == nil)
      // Batches [1, 2] and [3, 4]: asking for 3 saved the first; asking for 4 noted 3 as
      // handled. Left at 4, the loop gets 4 again, and nothing before it.
      var positions: [EventLog.Position] = []
      for try await delivery in consumer.events(from: checkpoint) {
        positions.append(delivery.position)
        if positions.count == 4 { break }
      }
      #expect(try await checkpoint.load() == positions[2])
      var next: [Int] = []
      for try await delivery in consumer.events(from: checkpoint) {
        next.append((delivery.event as? Tick)?.count ?? -1)
        break
      }
      #expect(next == [4])
    }
  }

  @Test func runIntoABusShowsImmediateSubscribersTheEnvelopeAndPosition() async throws {
    try await withStore { log, checkpoint in
      try await log.append(contentsOf: (1...3).map { try EventEnvelope(Tick(count: $0), id: "t\($0)") })
      let bus = EventBus()
      let immediate = Collected<String>()
      let queued = Collected<Bool>()
      let subscriptions = [
        bus.subscribe(Tick.self) { _ in
          let delivery = StoreDelivery.current
          immediate.append("\(delivery?.envelope.id ?? "-") \(delivery?.position as? EventLog.Position == nil)")
        },
        bus.subscribe(Tick.self, delivery: .queue(DispatchQueue(label: "queued"))) { _ in
          queued.append(StoreDelivery.current == nil)
        },
      ]
      let onMain = Collected<Bool>()
      let mainActor = bus.subscribe(Tick.self, delivery: .mainActor) { _ in onMain.append(StoreDelivery.current == nil)
      }
      let streamed = Collected<Bool>()
      let stream = bus.events(Tick.self)
      let streaming = Task {
        for await _ in stream {
          streamed.append(StoreDelivery.current == nil)
          if streamed.all.count == 3 { break }
        }
      }
      let consumer = EventConsumer(store: log, catalog: catalog, pollInterval: .milliseconds(50))
      let running = Task { try await consumer.run(from: checkpoint, into: bus) }
      try await eventually { immediate.all.count == 3 && queued.all.count == 3 && onMain.all.count == 3 }
      await streaming.value
      // Main-actor and stream subscribers run later, in another task: they see none either.
      #expect(onMain.all == [true, true, true])
      #expect(streamed.all == [true, true, true])
      withExtendedLifetime(mainActor) {}
      running.cancel()
      try await running.value
      #expect(immediate.all == ["t1 false", "t2 false", "t3 false"])
      // Queued subscribers run in another task: they see none.
      #expect(queued.all == [true, true, true])
      // Published by the process itself: none either.
      bus.publish(Tick(count: 9))
      #expect(immediate.all.last == "- true")
      // An event a subscriber publishes while a stored one is delivered: `of` tells them apart.
      let nested = Collected<String>()
      let relay = bus.subscribe(Tick.self) { tick in
        if tick.count == 1 { bus.publish(Tock(source: "relayed")) }
      }
      let tocks = bus.subscribe(Tock.self) { tock in
        nested.append("\(StoreDelivery.of(tock) == nil) \(StoreDelivery.current?.envelope.id ?? "-")")
      }
      let ticks = bus.subscribe(Tick.self) { tick in
        if tick.count == 1 { nested.append("tick \(StoreDelivery.of(tick)?.envelope.id ?? "-")") }
      }
      let positions = try await log.read(after: nil, limit: 10).envelopes.map(\.position)
      let seen = Collected<EventLog.Position>()
      let one = bus.subscribe(Tick.self) { _ in
        if let position = StoreDelivery.current?.position as? EventLog.Position { seen.append(position) }
      }
      // A handler of one's own publishes with the same context.
      struct Done: Error {}
      await #expect(throws: Done.self) {
        try await consumer.run(from: MemoryCheckpoint<EventLog.Position>()) { delivery in
          delivery.withStoreDelivery { bus.publish(delivery.event) }
          if delivery.position == positions.last { throw Done() }
        }
      }
      withExtendedLifetime((subscriptions, one, relay, tocks, ticks)) {}
      #expect(seen.all == positions)
      // The relayed Tock inherits the task-local, which `of` does not give it; the Tick's own
      // subscriber gets its delivery.
      #expect(nested.all == ["true t1", "tick t1"])
    }
  }

  @Test func unknownWireNamesAndNewerVersionsAreSkippedAndReportedAndTheRestDelivered() async throws {
    try await withStore { log, checkpoint in
      var newer = try EventEnvelope(Tick(count: 2))
      newer.version = 9
      try await log.append(contentsOf: [
        try EventEnvelope(Tick(count: 1)), try EventEnvelope(Tock(source: "other build")), newer,
        try EventEnvelope(Tick(count: 3)),
      ])
      let skipped = Collected<String>()
      let consumer = EventConsumer(
        store: log, catalog: EventCatalog([Tick.self]), onSkipped: { skipped.append($0.description) })
      var delivered: [Int] = []
      for try await delivery in consumer.events(from: checkpoint) {
        delivered.append((delivery.event as? Tick)?.count ?? -1)
        if delivered.count == 2 { break }
      }
      #expect(delivered == [1, 3])
      #expect(skipped.all.count == 2)
      #expect(skipped.all.first?.contains("no event type named Test.Tock") == true)
      #expect(skipped.all.last?.contains("version 9 is newer") == true)
    }
  }

  /// Without a handler of one's own, a skip is a line on standard error, not silence. Standard
  /// error goes to a file for the test (a pipe could fill and block other tests' writes).
  @Test func theDefaultSkipHandlerPrintsALineToStandardError() async throws {
    try await withStore { log, checkpoint in
      try await log.append(contentsOf: [
        try EventEnvelope(Tock(source: "other build")), try EventEnvelope(Tick(count: 1)),
      ])
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: file) }
      try #require(FileManager.default.createFile(atPath: file.path, contents: nil))
      let output = try FileHandle(forWritingTo: file)
      let saved = dup(FileHandle.standardError.fileDescriptor)
      try #require(saved >= 0)
      dup2(output.fileDescriptor, FileHandle.standardError.fileDescriptor)
      var delivered: [Int] = []
      do {
        for try await delivery in EventConsumer(store: log, catalog: EventCatalog([Tick.self])).events(
          from: checkpoint)
        {
          delivered.append((delivery.event as? Tick)?.count ?? -1)
          break
        }
      } catch {
        dup2(saved, FileHandle.standardError.fileDescriptor)
        throw error
      }
      dup2(saved, FileHandle.standardError.fileDescriptor)
      close(saved)
      try output.close()
      let printed = String(decoding: try Data(contentsOf: file), as: UTF8.self).split(separator: "\n")
      #expect(delivered == [1])
      #expect(
        printed.contains { $0.hasPrefix("skipped ") && $0.contains("no event type named Test.Tock") },
        "standard error: \(printed)")
    }
  }

  @Test func aLineStillBeingWrittenIsDeliveredOnceItIsWhole() async throws {
    try await withStore { log, checkpoint in
      try await log.append(Tick(count: 1))
      let other = EventLog(url: log.url.deletingLastPathComponent().appendingPathComponent("other.jsonl"))
      try await other.append(Tick(count: 2))
      let line = try Data(contentsOf: other.url)
      let handle = try FileHandle(forWritingTo: log.url)
      try handle.seekToEnd()
      try handle.write(contentsOf: line.prefix(30))

      let received = Collected<Int>()
      let consumer = EventConsumer(store: log, catalog: catalog, pollInterval: .milliseconds(50))
      let running = Task {
        for try await delivery in consumer.events(from: checkpoint) {
          received.append((delivery.event as? Tick)?.count ?? -1)
        }
      }
      try await eventually { received.all.count == 1 }
      try await Task.sleep(for: .milliseconds(200))
      #expect(received.all == [1])  // half a line is not an event, nor a skipped one
      try handle.write(contentsOf: line.dropFirst(30))
      try handle.close()
      try await eventually { received.all.count == 2 }
      running.cancel()
      try await running.value
      #expect(received.all == [1, 2])
    }
  }

  @Test func aHandledEventIsLoadedOnlyWhileItFollowsTheSavedPosition() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("handled-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("checkpoint.json")
    /// What a new object reads, as after a crash of the process.
    func loaded() async throws -> Int64? { try await FileCheckpoint<EventLog.Position>(url: url).load()?.offset }
    /// The checkpoint file deleted to start over, and a new object on it, which loads nothing.
    func startedOver() async throws -> FileCheckpoint<EventLog.Position> {
      try FileManager.default.removeItem(at: url)
      let checkpoint = FileCheckpoint<EventLog.Position>(url: url)
      #expect(try await checkpoint.load() == nil)
      return checkpoint
    }
    let checkpoint = FileCheckpoint<EventLog.Position>(url: url)
    try await checkpoint.save(EventLog.Position(offset: 10))
    try await checkpoint.noteHandled(EventLog.Position(offset: 20))
    try await checkpoint.noteHandled(EventLog.Position(offset: 30))
    // A new object, as after a crash of the process: the last handled event.
    #expect(try await loaded() == 30)
    // A save after it makes the record stale.
    try await checkpoint.save(EventLog.Position(offset: 25))
    #expect(try await loaded() == 25)
    // A record cut short (a crash of the machine) is passed over.
    try await checkpoint.noteHandled(EventLog.Position(offset: 40))
    let handled = folder.appendingPathComponent(".checkpoint.json.handled")
    let record = try Data(contentsOf: handled)
    try record.prefix(record.count - 3).write(to: handled)
    #expect(try await loaded() == 25)
    try Data().write(to: handled)
    #expect(try await loaded() == 25)
    // A checkpoint deleted to start over: the record names a save that is gone.
    try await checkpoint.noteHandled(EventLog.Position(offset: 50))
    let fresh = try await startedOver()
    // Before the first save, a note is the first save: the checkpoint file holds it, and the
    // record of the deleted checkpoint's notes is passed over.
    try await fresh.noteHandled(EventLog.Position(offset: 60))
    #expect(FileManager.default.fileExists(atPath: url.path))
    #expect(try await loaded() == 60)
    try await fresh.noteHandled(EventLog.Position(offset: 70))
    #expect(try await loaded() == 70)
    // Deleted again, and saved anew at the position the old notes go on from (a reader's first
    // event is always the same): the old record does not come back, whichever way the save comes.
    let again = try await startedOver()
    try await again.noteHandled(EventLog.Position(offset: 60))
    #expect(try await loaded() == 60)
    try await again.noteHandled(EventLog.Position(offset: 80))
    let third = try await startedOver()
    try await third.save(EventLog.Position(offset: 60))
    #expect(try await loaded() == 60)
  }

  @Test func notedPositionsOfEveryKindComeBackAsTheyWere() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("noted-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // A String token (written directly), with what JSON must escape, and shorter after longer.
    let tokens = FileCheckpoint<String>(url: folder.appendingPathComponent("tokens"))
    try await tokens.save("saved")
    for token in ["a\"quoted\\token/é\u{1}\n", "eyJvZmZzZXQiOjE3N30", "x"] {
      try await tokens.noteHandled(token)
      #expect(try await FileCheckpoint<String>(url: tokens.url).load() == token)
      // Saved the same way.
      try await tokens.save(token + "!")
      #expect(try await FileCheckpoint<String>(url: tokens.url).load() == token + "!")
    }
    // A position of the app's own type (written by JSONEncoder).
    struct Place: Hashable, Codable, Sendable {
      var shard: Int
      var sequence: String
    }
    let places = FileCheckpoint<Place>(url: folder.appendingPathComponent("places"))
    try await places.save(Place(shard: 1, sequence: "a"))
    try await places.noteHandled(Place(shard: 1, sequence: "b\"c"))
    #expect(try await FileCheckpoint<Place>(url: places.url).load() == Place(shard: 1, sequence: "b\"c"))
  }

  @Test func aMemoryCheckpointStartsWhereItIsToldAndKeepsWhatIsSaved() async throws {
    let checkpoint = MemoryCheckpoint(EventLog.Position(offset: 7))
    #expect(try await checkpoint.load() == EventLog.Position(offset: 7))
    try await checkpoint.noteHandled(EventLog.Position(offset: 9))
    #expect(try await checkpoint.load() == EventLog.Position(offset: 9))
    try await checkpoint.save(EventLog.Position(offset: 12))
    #expect(try await checkpoint.load() == EventLog.Position(offset: 12))
    #expect(try await MemoryCheckpoint<EventLog.Position>().load() == nil)
  }

  @Test func aCheckpointSurvivesANewInstanceAndRefusesAFileThatIsNotOne() async throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("checkpoint-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: url) }
    #expect(try await FileCheckpoint<EventLog.Position>(url: url).load() == nil)
    try await FileCheckpoint<EventLog.Position>(url: url).save(EventLog.Position(offset: 42))
    #expect(try await FileCheckpoint<EventLog.Position>(url: url).load() == EventLog.Position(offset: 42))
    try Data("garbage".utf8).write(to: url)
    await #expect(throws: EventLogError.self) { try await FileCheckpoint<EventLog.Position>(url: url).load() }
  }
}
