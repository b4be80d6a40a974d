import BoardEvents
import Foundation
import Logging
import Testing
import TypedEvents

@testable import TypedEventsHTTPServer

@Suite("EventFeed")
struct EventFeedTests {
  @Test("Sequence numbers go on past a gap when the feed starts again: a stream holding an old one is behind")
  func oldSequenceNumbersAreBehindAfterARestart() async throws {
    let log = try temporaryLog()
    let feed = EventFeed<EventLog>(capacity: 100)
    let running = run(feed, on: log, idleTimeout: .milliseconds(100))
    defer { running.cancel() }

    // A stream opens: the feed starts on the empty log, where the beginning is its start.
    await feed.open(timeout: .seconds(10))
    let start = try #require(feed.join(after: nil))
    try await log.append(contentsOf: notes(1...3))
    let (first, next) = try await take(3, from: feed, at: start)
    #expect(first.map(\.stored.envelope.id) == ["n1", "n2", "n3"])
    #expect(next == start + 3)

    // The stream closes; once the idle timeout is over the feed rests, and the next stream
    // starts it again at the log's end.
    feed.close()
    let position = try #require(first.last?.stored.position)
    // Resting, the feed forgets every position: then none joins. (Waited for, not slept on:
    // under the load of the other tests the feed's loop may take longer than its timeout.)
    let deadline = ContinuousClock.now + .seconds(30)
    while feed.join(after: position) != nil, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(feed.join(after: position) == nil)
    await feed.open(timeout: .seconds(10))
    defer { feed.close() }

    // A number from the first run is behind, even the one the first run would have given next:
    // the new run's numbers follow a gap, so no old number names a new event.
    #expect(isBehind(feed.take(from: next, limit: 10)))
    #expect(isBehind(feed.take(from: start, limit: 10)))

    // The last position read before joins the new run (it is the log's end, where the feed
    // started), past the gap, and gets exactly what is appended next.
    let joined = try #require(feed.join(after: position))
    #expect(joined > next)
    try await log.append(contentsOf: notes(4...4))
    let (later, _) = try await take(1, from: feed, at: joined)
    #expect(later.map(\.stored.envelope.id) == ["n4"])
    running.cancel()
    await running.value
  }

  @Test("The feed holds at most its capacity, and a quarter of it dropped, however much it reads")
  func theFeedKeepsItsCapacity() async throws {
    let log = try temporaryLog()
    let feed = EventFeed<EventLog>(capacity: 16)
    let running = run(feed, on: log, idleTimeout: .seconds(60))
    defer { running.cancel() }
    await feed.open(timeout: .seconds(10))
    // One event at a time, then ten: the feed's reads hold one to ten events.
    let batches = (1...40).map { $0...$0 } + stride(from: 41, to: 200, by: 10).map { $0...$0 + 9 }
    for batch in batches {
      try await log.append(contentsOf: notes(batch))
      // Once the feed has read the batch (its last position joins), what it keeps is bounded.
      let last = try #require(try await log.read(after: nil, limit: 1_000).envelopes.last?.position)
      let deadline = ContinuousClock.now + .seconds(20)
      while feed.join(after: last) == nil, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(2))
      }
      #expect(feed.join(after: last) != nil, "the feed never read up to n\(batch.upperBound)")
      let holdings = feed.holdings
      #expect(holdings.events <= 16, "after n\(batch.upperBound)")
      #expect(holdings.dropped <= 16 / 4, "after n\(batch.upperBound)")
      // One per event held, and the places before the first (the log's start, the end of a
      // read that held no event).
      #expect(holdings.positions <= 16 + 3, "after n\(batch.upperBound)")
    }
    // The newest are the ones held; the older are gone.
    let stored = try await log.read(after: nil, limit: 1_000).envelopes
    #expect(stored.count == 200)
    let (items, _) = try await take(16, from: feed, at: try #require(feed.join(after: stored[183].position)))
    #expect(items.map(\.stored.envelope.id) == (185...200).map { "n\($0)" })
    #expect(feed.join(after: stored[100].position) == nil)
    feed.close()
    running.cancel()
    await running.value
  }

  @Test("The feed holds at most its byte budget, dropped events counted, however much it reads")
  func theFeedKeepsItsByteBudget() async throws {
    let log = try temporaryLog()
    // Events of about 10 KB of data, held as about 20 KB with their frames: the budget holds 2
    // of them, well under the capacity of 1,000. (The feed drops every event it holds when a
    // read takes it past its budget, as dropping moves an event's bytes from held to dropped:
    // so streams that still send slices of the dropped reads are closed then, which bounds
    // what idle streams hold. Keeping the newest events instead took idle streams to 262 MiB
    // against the documented 192.)
    let budget = 50_000
    let feed = EventFeed<EventLog>(capacity: 1_000, byteBudget: budget)
    let running = Task {
      await feed.run(
        store: log, batchSize: 10, byteBudget: 25_000, pollInterval: .milliseconds(20), idleTimeout: .seconds(60),
        defaultSource: "/", identity: { nil }, logger: Logger(label: "EventFeedTests"))
    }
    defer { running.cancel() }
    await feed.open(timeout: .seconds(10))
    let start = try #require(feed.join(after: nil))
    for batch in stride(from: 1, to: 60, by: 6).map({ $0...$0 + 5 }) {
      try await log.append(contentsOf: notes(batch, text: String(repeating: "x", count: 10_000)))
      let last = try #require(try await log.read(after: nil, limit: 1_000).envelopes.last?.position)
      let deadline = ContinuousClock.now + .seconds(20)
      while feed.join(after: last) == nil, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(2))
      }
      let held = feed.heldBytes
      #expect(held.events + held.dropped <= budget, "after n\(batch.upperBound)")
      #expect(feed.holdings.events <= 2, "after n\(batch.upperBound)")
    }
    _ = start
    feed.close()
    running.cancel()
    await running.value
  }

  /// Runs `feed` on `log`, reading 10 events at a time and every 20 ms at the latest.
  private func run(_ feed: EventFeed<EventLog>, on log: EventLog, idleTimeout: Duration) -> Task<Void, Never> {
    Task {
      await feed.run(
        store: log, batchSize: 10, pollInterval: .milliseconds(20), idleTimeout: idleTimeout,
        defaultSource: "/", identity: { nil }, logger: Logger(label: "EventFeedTests"))
    }
  }

  /// `count` events of `feed` from sequence number `sequence` on, waiting for them; and the
  /// sequence number after them.
  private func take(
    _ count: Int, from feed: EventFeed<EventLog>, at sequence: Int
  ) async throws -> ([EventFeed<EventLog>.Item], Int) {
    var items: [EventFeed<EventLog>.Item] = []
    var next = sequence
    while items.count < count {
      switch feed.take(from: next, limit: count - items.count) {
      case .items(let taken, let after):
        items += taken
        next = after
      case .upToDate:
        await feed.waitForEvents(from: next)
      case .behind, .stopped:
        throw FeedTestFailure(description: "the feed answered \(feed.take(from: next, limit: 1)) at \(next)")
      }
    }
    return (items, next)
  }

  private func isBehind(_ taken: EventFeed<EventLog>.Taken) -> Bool {
    if case .behind = taken { return true }
    return false
  }

  private func notes(_ ids: ClosedRange<Int>, text: String = "") throws -> [EventEnvelope] {
    try ids.map {
      try EventEnvelope(
        NoteAdded(board: BoardID("b1"), text: "\($0)" + text, author: "me"), id: "n\($0)", source: "/tests")
    }
  }
}

struct FeedTestFailure: Error, CustomStringConvertible {
  var description: String
}
