// Scenarios that a test cannot run inside its own process: one that deadlocked the main thread
// (a blocked main actor cannot time itself out), and one that measures the heap while nothing
// else runs. `RuntimeScenarioTests` runs each in a child process with a time limit.
//
//     runtime-scenarios release-on-main-while-handler-waits-for-main
//     runtime-scenarios replay-memory-per-subject [LIMIT|declared]
//     runtime-scenarios log-appends fsyncEachAppend|operatingSystem PATH
//     runtime-scenarios log-replay-memory MEGABYTES PATH replay|read
import Dispatch
import Foundation
import HeapInUse
import SampleEvents
import TypedEvents

/// A screen as an app writes it: main-actor state, and a subscription it releases when it goes.
@MainActor
final class ListingScreen {
  var subscription: EventSubscription?
  var archived: [ListingID] = []

  init(events: some EventObserving, handlerEntered: DispatchSemaphore) {
    subscription = events.subscribe(ListingArchived.self, delivery: .queue(.global())) { _ in
      handlerEntered.signal()
      // The handler waits for the main thread, which at this moment releases the screen.
      DispatchQueue.main.sync { print("handler reached the main thread") }
      DispatchQueue.main.async {
        print("handler finished")
        exit(0)
      }
    }
  }
}

/// The deadlock of issue 12: the token's `deinit` runs on the main thread while the handler,
/// on a global queue, calls `DispatchQueue.main.sync`. A cancel that waits for the handler never
/// returns; this one must, and the handler then completes on the main thread.
@MainActor
func releaseOnMainWhileHandlerWaitsForMain() {
  let bus = EventBus()
  let entered = DispatchSemaphore(value: 0)
  var screen: ListingScreen? = ListingScreen(events: bus, handlerEntered: entered)
  bus.publish(ListingArchived(id: ListingID("l-1")))
  entered.wait()
  screen = nil  // EventSubscription.deinit → cancel(), on the main thread
  print("released: \(screen == nil)")
  dispatchMain()
}

/// Publishes 1,000,000 events about 1,000,000 subjects to a bus that keeps the latest event per
/// subject for that type, up to `limit` subjects (nil: as the schema declares, with no call),
/// and prints the heap in use after 100,000 and after 1,000,000 events.
func replayMemoryPerSubject(limit: Int?) {
  let bus = EventBus()
  if let limit { bus.keepLatestPerSubject(ListingArchived.self, limit: limit) }
  // The events are made inside the loop and dropped: only what the bus retains stays.
  func publish(_ range: Range<Int>) {
    for index in range {
      bus.publish(ListingArchived(id: ListingID("listing-\(index)")))
    }
  }
  publish(0..<100_000)
  let early = heapInUse()
  publish(100_000..<1_000_000)
  let late = heapInUse()
  let kept = bus.keptSubjectCount(ListingArchived.self)
  let newest = bus.latest(ListingArchived.self, about: ListingID("listing-999999")) != nil
  let evicted = bus.latest(ListingArchived.self, about: ListingID("listing-0")) == nil
  print("heap after 100000: \(early)")
  print("heap after 1000000: \(late)")
  print("kept subjects: \(kept)")
  print("newest replayable: \(newest)")
  print("oldest evicted: \(evicted)")
}

/// Appends 10 events one by one and then a batch of 100 to a new log at `path`. Run under
/// `strace -e trace=fsync`, it shows how many times the log synced.
func logAppends(durability: EventLog.Durability, path: String) throws {
  let log = EventLog(url: URL(fileURLWithPath: path), durability: durability)
  for index in 0..<10 {
    try log.append(ListingArchived(id: ListingID("listing-\(index)")))
  }
  try log.append(contentsOf: (0..<100).map { try EventEnvelope(ListingArchived(id: ListingID("batch-\($0)"))) })
  print("appended: \(try log.read().envelopes.count)")
}

/// Writes a log of about twice `megabytes` MiB at `path` (events of 8 KiB: a 4 KiB id, in the
/// payload and again as the subject), then replays it into a bus (`replay`), or reads it whole
/// into memory (`read`, the control), and prints the largest heap in use seen while doing so,
/// above the heap before.
func logReplayMemory(megabytes: Int, path: String, mode: String) throws {
  let url = URL(fileURLWithPath: path)
  try? FileManager.default.removeItem(at: url)
  do {
    let log = EventLog(url: url, durability: .operatingSystem)
    let padding = String(repeating: "x", count: 4_000)
    let perBatch = 256
    let batches = max(1, megabytes * 1_048_576 / (4_150 * perBatch))
    for batch in 0..<batches {
      try log.append(
        contentsOf: (0..<perBatch).map {
          try EventEnvelope(ListingArchived(id: ListingID("\(batch)-\($0)-\(padding)")))
        })
    }
  }
  let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  let log = EventLog(url: url)
  let before = heapInUse()
  let peak = Locked(0)
  let delivered = Locked(0)
  let bus = EventBus()
  // The schema keeps the latest event of 10,000 listings for replay: 80 MB of these 8 KiB
  // events, which is the bus's retention, not the log's. Measure the log alone.
  bus.keepLatestPerSubject(ListingArchived.self, limit: 1)
  let subscription = bus.subscribe(ListingArchived.self) { _ in
    let count = delivered.increment()
    if count % 1_000 == 0 { peak.raise(to: heapInUse()) }
  }
  switch mode {
  case "read":
    let all = try log.read()
    peak.raise(to: heapInUse())
    print("events: \(all.envelopes.count)")
  default:
    let report = try log.replay(into: bus, using: SampleEvents.GeneratedEvents.catalog)
    print("events: \(report.replayed)")
    print("problems: \(report.problems.count)")
  }
  withExtendedLifetime(subscription) {}
  print("log bytes: \(size)")
  print("peak heap above start: \(max(0, peak.value - before))")
  try? FileManager.default.removeItem(at: url)
}

/// An integer behind a lock, for counters that handlers on other threads touch.
final class Locked: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Int

  init(_ value: Int) {
    stored = value
  }

  var value: Int { lock.withLock { stored } }

  func increment() -> Int {
    lock.withLock {
      stored += 1
      return stored
    }
  }

  func raise(to candidate: Int) {
    lock.withLock { stored = max(stored, candidate) }
  }
}

/// Bytes the allocator has handed out and not taken back (0 where it cannot say).
func heapInUse() -> Int {
  Int(heap_in_use())
}

switch CommandLine.arguments.dropFirst().first {
case "release-on-main-while-handler-waits-for-main":
  releaseOnMainWhileHandlerWaitsForMain()  // top-level code runs on the main actor
case "replay-memory-per-subject":
  let argument = CommandLine.arguments.dropFirst(2).first
  replayMemoryPerSubject(limit: argument == "declared" ? nil : argument.flatMap { Int($0) } ?? 10_000)
case "log-appends":
  let arguments = Array(CommandLine.arguments.dropFirst(2))
  try logAppends(
    durability: arguments.first == "operatingSystem" ? .operatingSystem : .fsyncEachAppend, path: arguments[1])
case "log-replay-memory":
  let arguments = Array(CommandLine.arguments.dropFirst(2))
  try logReplayMemory(megabytes: Int(arguments[0]) ?? 64, path: arguments[1], mode: arguments[2])
default:
  FileHandle.standardError.write(Data("usage: runtime-scenarios SCENARIO\n".utf8))
  exit(2)
}
