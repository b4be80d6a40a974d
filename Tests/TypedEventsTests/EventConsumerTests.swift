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

  @Test func aHandlerThatThrowsGetsItsBatchAgainOnTheNextRun() async throws {
    try await withStore { log, checkpoint in
      try await log.append(contentsOf: (1...5).map { try EventEnvelope(Tick(count: $0)) })
      let consumer = EventConsumer(store: log, catalog: catalog, batchSize: 2, pollInterval: .milliseconds(50))
      struct Failure: Error {}
      var first: [Int] = []
      await #expect(throws: Failure.self) {
        try await consumer.run(from: checkpoint) { event, _ in
          first.append((event as? Tick)?.count ?? -1)
          if first.last == 4 { throw Failure() }
        }
      }
      #expect(first == [1, 2, 3, 4])
      // Batches [1, 2] and [3, 4]: only the first was checkpointed, so 3 and 4 come again.
      var second: [(Int, String)] = []
      let secondRun = Task {
        var seen: [(Int, String)] = []
        for try await (event, envelope) in consumer.events(from: checkpoint) {
          seen.append(((event as? Tick)?.count ?? -1, envelope.id))
          if seen.count == 3 { break }
        }
        return seen
      }
      second = try await secondRun.value
      #expect(second.map(\.0) == [3, 4, 5])
      let ids = try log.read().envelopes.map(\.id)
      #expect(second.map(\.1) == Array(ids[2...]))  // the same envelopes, recognisable by id
    }
  }

  @Test func aLoopThatLeavesEarlySavesNothingForItsBatch() async throws {
    try await withStore { log, checkpoint in
      try await log.append(contentsOf: (1...4).map { try EventEnvelope(Tick(count: $0)) })
      let consumer = EventConsumer(store: log, catalog: catalog, batchSize: 10)
      for try await _ in consumer.events(from: checkpoint) { break }
      #expect(try await checkpoint.load() == nil)
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
      for try await (event, _) in consumer.events(from: checkpoint) {
        delivered.append((event as? Tick)?.count ?? -1)
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
        for try await (event, _) in EventConsumer(store: log, catalog: EventCatalog([Tick.self])).events(
          from: checkpoint)
        {
          delivered.append((event as? Tick)?.count ?? -1)
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
        for try await (event, _) in consumer.events(from: checkpoint) {
          received.append((event as? Tick)?.count ?? -1)
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
