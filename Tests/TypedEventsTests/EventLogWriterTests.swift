import Dispatch
import Foundation
import TestSupport
import Testing
@_spi(Testing) import TypedEvents

#if canImport(Glibc)
  import Glibc
#endif

/// `await`ed appends to an `EventLog`: their I/O on the log's writer thread, appends that arrive
/// during an `fsync` sharing the next one, each answered only after an `fsync` covering its lines.
@Suite("EventLog's writer thread")
struct EventLogWriterTests {
  /// A disk whose `fsync` the test controls, and what it saw.
  final class Disk: @unchecked Sendable {
    private let lock = NSLock()
    private var syncs = 0
    private var synced: Int64 = 0
    private var entered = 0
    /// Each `fsync` waits for this, at most `holdLimit`; nil: it does not wait.
    let hold: DispatchSemaphore?
    let holdLimit: DispatchTimeInterval
    private var heldTooLong = false
    private var threads: [pthread_t] = []

    init(holding: Bool = false, delay: DispatchTimeInterval = .seconds(10)) {
      hold = holding ? DispatchSemaphore(value: 0) : nil
      holdLimit = delay
    }

    /// The stand-in for `fsync`: counts, waits when asked to, syncs, and notes the size synced.
    func sync(_ descriptor: Int32) -> Int32 {
      lock.withLock { entered += 1 }
      if let hold, hold.wait(timeout: .now() + holdLimit) == .timedOut { lock.withLock { heldTooLong = true } }
      let result = fsync(descriptor)
      var info = stat()
      _ = fstat(descriptor, &info)
      lock.withLock {
        syncs += 1
        synced = Int64(info.st_size)
        if !threads.contains(where: { pthread_equal($0, pthread_self()) != 0 }) { threads.append(pthread_self()) }
      }
      return result
    }

    /// The threads that called `fsync`.
    var syncThreads: [pthread_t] { lock.withLock { threads } }

    var syncCount: Int { lock.withLock { syncs } }
    var syncedSize: Int64 { lock.withLock { synced } }
    var enteredCount: Int { lock.withLock { entered } }
    var timedOut: Bool { lock.withLock { heldTooLong } }
  }

  func lineCount(_ url: URL) throws -> Int {
    try Data(contentsOf: url).count { $0 == UInt8(ascii: "\n") }
  }

  func temporaryURL() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString).jsonl")
  }

  @Test func whileAnFsyncIsHeldOtherTasksRunAndWaitingAppendsShareTheNextOne() async throws {
    let disk = Disk(holding: true)
    let log = EventLog(url: temporaryURL(), durability: .fsyncEachAppend, syncFile: disk.sync)
    defer { try? FileManager.default.removeItem(at: log.url) }
    // More appends than the cooperative pool has threads: had each synced on its caller's
    // thread, every thread of the pool would wait in the held `fsync`.
    let appends = Task {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for count in 0..<8 { group.addTask { try await log.append(Tick(count: count)) } }
        try await group.waitForAll()
      }
    }
    while disk.enteredCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
    // Wait for the other appends to reach the writer's queue: those the held group wrote plus
    // those queued are all eight.
    while try lineCount(log.url) + log.writer.queuedCount < 8 { try await Task.sleep(for: .milliseconds(1)) }

    // The fsync is held: the process's tasks still run.
    let clock = ContinuousClock()
    let started = clock.now
    let sum = await withTaskGroup(of: Int.self) { group in
      for value in 1...200 { group.addTask { value } }
      return await group.reduce(0, +)
    }
    let elapsed = clock.now - started
    let heldMeanwhile = disk.syncCount == 0 && !disk.timedOut
    for _ in 0..<8 { disk.hold?.signal() }
    try await appends.value

    #expect(sum == 20_100)
    // They ran while the fsync was held (it waits up to 10 s): under the old code the appends'
    // fsyncs held every pool thread, and no task ran until they timed out. No bound on their
    // time: a sanitizer and the tests beside them make it vary.
    #expect(heldMeanwhile, "200 tasks could not run while one fsync was held (they took \(elapsed))")
    // The first group's fsync (one append, or all eight when they queued before the writer
    // started), then at most one for those that waited for it.
    #expect((1...2).contains(disk.syncCount))
    #expect(try log.read().envelopes.count == 8)
  }

  @Test func everyAppendReturnsAfterAnFsyncThatCoversItsLinesAndBatchesStayWholeAndInOrder() async throws {
    let disk = Disk()
    let log = EventLog(url: temporaryURL(), durability: .fsyncEachAppend, syncFile: disk.sync)
    defer { try? FileManager.default.removeItem(at: log.url) }
    let writers = 16
    let batches = 20
    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in 0..<writers {
        group.addTask {
          for batch in 0..<batches {
            let envelopes = try (0..<3).map {
              try EventEnvelope(Tick(count: $0), id: "w\(writer)-b\(batch)-\($0)", source: "/writer/\(writer)")
            }
            try await log.append(contentsOf: envelopes)
            // Covered: the last line of the batch ends within what was synced by now.
            let synced = disk.syncedSize
            // A store's position is the one after its envelope's line.
            let stored = try await log.read(after: nil, limit: .max).envelopes
            let end = try #require(stored.first { $0.envelope.id == envelopes[2].id }?.position)
            #expect(end.offset <= synced, "an append returned before an fsync covered its lines")
          }
        }
      }
      try await group.waitForAll()
    }
    let envelopes = try log.read().envelopes
    #expect(envelopes.count == writers * batches * 3)
    // Each batch is three lines in a row, in its order; each writer's batches in its order.
    for start in stride(from: 0, to: envelopes.count, by: 3) {
      let ids = envelopes[start..<start + 3].map(\.id)
      let prefix = ids[0].dropLast()
      #expect(ids == ["\(prefix)0", "\(prefix)1", "\(prefix)2"])
    }
    for writer in 0..<writers {
      let mine = envelopes.filter { $0.source == "/writer/\(writer)" }.map(\.id)
      #expect(mine == (0..<batches).flatMap { batch in (0..<3).map { "w\(writer)-b\(batch)-\($0)" } })
    }
    #expect(disk.syncCount <= writers * batches)
  }

  @Test func concurrentIdempotentAppendsShareFsyncsAndStoreEachPairOnce() async throws {
    let disk = Disk()
    let log = EventLog(url: temporaryURL(), durability: .fsyncEachAppend, syncFile: disk.sync)
    defer { try? FileManager.default.removeItem(at: log.url) }
    // Every caller appends the same ten events: each pair is stored once, whoever wins.
    let results = try await withThrowingTaskGroup(of: [AppendedEnvelope<EventLog.Position>].self) { group in
      for _ in 0..<12 {
        group.addTask {
          try await log.appendOnce(try (0..<10).map { try EventEnvelope(Tick(count: $0), id: "e\($0)", source: "/s") })
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(try log.read().envelopes.map(\.id) == (0..<10).map { "e\($0)" })
    for index in 0..<10 {
      #expect(results.filter { !$0[index].wasStored }.count == 1)
      #expect(Set(results.map { $0[index].position }).count == 1)
    }
  }

  @Test func anAppendOnceGroupedWithAPlainAppendOfItsEventStoresItOnce() async throws {
    let disk = Disk(holding: true)
    let log = EventLog(url: temporaryURL(), durability: .fsyncEachAppend, syncFile: disk.sync)
    defer { try? FileManager.default.removeItem(at: log.url) }
    let first = try EventEnvelope(Tick(count: 0), id: "first", source: "/s")
    let event = try EventEnvelope(Tick(count: 1), id: "e", source: "/s")
    let holding = Task { try await log.append(first) }
    while disk.enteredCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
    // Both wait for the held fsync, and are the next group, the plain append first.
    let plain = Task { try await log.append(event) }
    while log.writer.queuedCount < 1 { try await Task.sleep(for: .milliseconds(1)) }
    let once = Task { try await log.appendOnce([event]) }
    while log.writer.queuedCount < 2 { try await Task.sleep(for: .milliseconds(1)) }
    for _ in 0..<4 { disk.hold?.signal() }
    try await holding.value
    try await plain.value
    let answer = try await once.value
    #expect(disk.syncCount == 2)
    #expect(try log.read().envelopes.map(\.id) == ["first", "e"])
    #expect(answer.map(\.wasStored) == [true])
  }

  @Test func theEndOfALogThatEndsWithABlankLineIsWhereReadingEnds() async throws {
    let log = EventLog(url: temporaryURL())
    defer { try? FileManager.default.removeItem(at: log.url) }
    #expect(try await log.endPosition() == .start)
    try await log.append(Tick(count: 1))
    let whole = try await log.read(after: nil, limit: 10).next
    #expect(try await log.endPosition() == whole)
    // A blank line after it (an edit by hand): no reader's position gets past it.
    let handle = try FileHandle(forWritingTo: log.url)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("\n".utf8))
    try handle.close()
    #expect(try await log.endPosition() == whole)
  }

  @Test func theWriterThreadEndsWithTheLog() async throws {
    let url = temporaryURL()
    defer { try? FileManager.default.removeItem(at: url) }
    var log: EventLog? = EventLog(url: url)
    try await log?.append(Tick(count: 1))
    // The writer's queue is kept by the log and by its running thread, and by nothing else.
    weak let writer = log?.writer
    #expect(writer != nil)
    log = nil
    let deadline = ContinuousClock.now + .seconds(10)
    while writer != nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
    #expect(writer == nil, "the writer thread still runs after its log was released")
  }

  @Test func aTaskThatPrefersTheWriterThreadIsResumedWhereItsAppendsWereSynced() async throws {
    let disk = Disk()
    let log = EventLog(url: temporaryURL(), durability: .fsyncEachAppend, syncFile: disk.sync)
    defer { try? FileManager.default.removeItem(at: log.url) }
    let own = 40
    let others = 4
    let perOther = 20
    let ownThreads = try await withThrowingTaskGroup(of: [pthread_t].self) { group in
      // The log's first append comes from the writer thread: a job starts it as an append does.
      group.addTask(executorPreference: log.writerExecutor) {
        var threads: [pthread_t] = []
        for index in 0..<own {
          try await log.append(try EventEnvelope(Tick(count: index), id: "own-\(index)", source: "/own"))
          threads.append(pthread_self())
        }
        return threads
      }
      for other in 0..<others {
        group.addTask {
          for index in 0..<perOther {
            try await log.append(
              try EventEnvelope(Tick(count: index), id: "o\(other)-\(index)", source: "/other/\(other)"))
          }
          return []
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    // Every append of the preferring task resumed it on the one thread that synced its lines.
    let syncThreads = disk.syncThreads
    #expect(syncThreads.count == 1)
    #expect(ownThreads.count == own)
    #expect(ownThreads.allSatisfy { thread in syncThreads.contains { pthread_equal($0, thread) != 0 } })
    // Every event stored once, each task's in its order.
    let envelopes = try log.read().envelopes
    #expect(envelopes.count == own + others * perOther)
    #expect(envelopes.filter { $0.source == "/own" }.map(\.id) == (0..<own).map { "own-\($0)" })
    for other in 0..<others {
      #expect(
        envelopes.filter { $0.source == "/other/\(other)" }.map(\.id) == (0..<perOther).map { "o\(other)-\($0)" })
    }
  }

  @Test func anAppendFromTheWriterThreadSharesAnFsyncWithAnAppendQueuedMeanwhile() async throws {
    let disk = Disk(holding: true)
    let log = EventLog(url: temporaryURL(), durability: .fsyncEachAppend, syncFile: disk.sync)
    defer { try? FileManager.default.removeItem(at: log.url) }
    let first = Task { try await log.append(try EventEnvelope(Tick(count: 0), id: "first")) }
    while disk.enteredCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
    // While that fsync is held: an append from the pool, and a task that prefers the writer
    // thread, whose job waits for the thread.
    let queued = Task { try await log.append(try EventEnvelope(Tick(count: 1), id: "queued")) }
    while log.writer.queuedCount < 1 { try await Task.sleep(for: .milliseconds(1)) }
    let onWriter = Task(executorPreference: log.writerExecutor) {
      try await log.append(try EventEnvelope(Tick(count: 2), id: "on-writer"))
    }
    while log.writer.queuedJobCount < 1 { try await Task.sleep(for: .milliseconds(1)) }
    // The job runs before the next group is written, and its append joins the queued one: one
    // more fsync, not two.
    for _ in 0..<3 { disk.hold?.signal() }
    try await first.value
    try await queued.value
    try await onWriter.value
    #expect(disk.syncCount == 2)
    #expect(try log.read().envelopes.map(\.id) == ["first", "queued", "on-writer"])
  }

  @Test func aTaskThatPrefersTheWriterThreadOfAReleasedLogGoesOnInThePool() async throws {
    let url = temporaryURL()
    defer { try? FileManager.default.removeItem(at: url) }
    var log: EventLog? = EventLog(url: url)
    try await log?.append(Tick(count: 1))
    let executor = try #require(log?.writerExecutor)
    let writer = try #require(log?.writer)
    log = nil
    let deadline = ContinuousClock.now + .seconds(10)
    while !writer.threadEnded, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
    #expect(writer.threadEnded)
    // The thread is gone: a task that prefers it runs anyway, and appends to another log.
    let other = EventLog(url: temporaryURL())
    defer { try? FileManager.default.removeItem(at: other.url) }
    let count = try await withTaskExecutorPreference(executor) {
      try await other.append(Tick(count: 2))
      return try other.read().envelopes.count
    }
    #expect(count == 1)
  }

  @Test func aRefusedEnvelopeWritesNothingAndTheWriterGoesOn() async throws {
    let log = EventLog(url: temporaryURL())
    defer { try? FileManager.default.removeItem(at: log.url) }
    let good = try EventEnvelope(Tick(count: 1))
    var bad = good
    bad.payload = Data("{\"count\":1,}".utf8)
    await #expect(throws: EventLogError.self) { try await log.append(contentsOf: [good, bad]) }
    #expect(try log.read().envelopes.isEmpty)
    try await log.append(good)
    #expect(try log.read().envelopes.map(\.id) == [good.id])
  }
}
