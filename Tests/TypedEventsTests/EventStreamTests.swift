import Dispatch
import Synchronization
import Testing
import TypedEvents

@Suite("Event streams")
struct EventStreamTests {
  /// Collects the first `count` elements of `stream`.
  func first<Element: Sendable>(_ count: Int, of stream: EventStream<Element>) async -> [Element] {
    var result: [Element] = []
    for await element in stream {
      result.append(element)
      if result.count == count { break }
    }
    return result
  }

  @Test func unboundedKeepsEveryEventInOrder() async {
    let bus = EventBus()
    let stream = bus.events(Tick.self)
    for count in 0..<100 { bus.publish(Tick(count: count)) }
    #expect(await first(100, of: stream).map(\.count) == Array(0..<100))
  }

  @Test func bufferingNewestDropsTheOldest() async {
    let bus = EventBus()
    let stream = bus.events(Tick.self, bufferingPolicy: .bufferingNewest(3))
    for count in 0..<10 { bus.publish(Tick(count: count)) }
    #expect(await first(3, of: stream).map(\.count) == [7, 8, 9])
  }

  @Test func bufferingOldestDropsTheNewest() async {
    let bus = EventBus()
    let stream = bus.events(Tick.self, bufferingPolicy: .bufferingOldest(3))
    for count in 0..<10 { bus.publish(Tick(count: count)) }
    bus.publish(Tock())
    #expect(await first(3, of: stream).map(\.count) == [0, 1, 2])
  }

  @Test func aWaitingConsumerIsResumedByAPublish() async {
    let bus = EventBus()
    let stream = bus.events(Clock.self, about: "b")
    let consumer = Task { await first(2, of: stream) }
    // Publish until the consumer has both: it may not be waiting yet when the first arrives.
    Task.detached {
      bus.publish(Tick(source: "a", count: 0))
      bus.publish(Tick(source: "b", count: 1))
      bus.publish(Tock(source: "b"))
    }
    #expect(await consumer.value == [.tick(Tick(source: "b", count: 1)), .tock(Tock(source: "b"))])
  }

  @Test func replayStartsWithTheLatestEvent() async {
    let bus = EventBus()
    bus.publish(Tick(count: 41))
    let stream = bus.events(Tick.self, replay: true)
    bus.publish(Tick(count: 42))
    #expect(await first(2, of: stream).map(\.count) == [41, 42])
  }

  @Test func cancellingTheConsumerEndsTheSequence() async {
    let bus = EventBus()
    let stream = bus.events(Tick.self)
    let consumer = Task {
      var count = 0
      for await _ in stream { count += 1 }
      return count
    }
    consumer.cancel()
    #expect(await consumer.value == 0)
  }

  @Test(.timeLimit(.minutes(1)))
  func twoConsumersOfOneStreamShareItsEventsWithoutLosingAny() async {
    let bus = EventBus()
    let stream = bus.events(Tick.self)
    let stop = -1
    // Each consumer stops at the first `stop`; two are published, one for each.
    let consume = { @Sendable () async -> [Int] in
      var seen: [Int] = []
      for await tick in stream {
        if tick.count == stop { break }
        seen.append(tick.count)
      }
      return seen
    }
    let first = Task { await consume() }
    let second = Task { await consume() }
    Task.detached {
      for count in 0..<1_000 { bus.publish(Tick(count: count)) }
      bus.publish(Tick(count: stop))
      bus.publish(Tick(count: stop))
    }
    let (a, b) = (await first.value, await second.value)
    #expect((a + b).sorted() == Array(0..<1_000))
    #expect(a == a.sorted() && b == b.sorted())
  }

  @Test(.timeLimit(.minutes(1)))
  func cancellingOneConsumerEndsOnlyItsOwnIteration() async {
    let bus = EventBus()
    let stream = bus.events(Tick.self)
    let waiting = AsyncStream.makeStream(of: Void.self)
    let cancelled = Task {
      var seen: [Int] = []
      waiting.continuation.yield()
      for await tick in stream { seen.append(tick.count) }
      return seen
    }
    let survivor = Task {
      var seen: [Int] = []
      for await tick in stream {
        seen.append(tick.count)
        if seen.count == 3 { break }
      }
      return seen
    }
    for await _ in waiting.stream { break }
    cancelled.cancel()
    #expect(await cancelled.value.isEmpty)
    for count in 1...3 { bus.publish(Tick(count: count)) }
    #expect(await survivor.value == [1, 2, 3], "the other consumer's iteration ended too")
    // The stream itself goes on: a new consumer reads what comes next.
    bus.publish(Tick(count: 4))
    #expect(await first(1, of: stream).map(\.count) == [4])
  }

  @Test func anIteratorThatStopsEarlyLeavesTheRestToTheNextOne() async {
    let bus = EventBus()
    let stream = bus.events(Tick.self)
    for count in 0..<10 { bus.publish(Tick(count: count)) }
    #expect(await first(3, of: stream).map(\.count) == [0, 1, 2])
    #expect(await first(7, of: stream).map(\.count) == Array(3..<10))
  }

  @Test func releasingTheStreamCancelsItsSubscription() async {
    let bus = EventBus()
    weak var weakState: AnyObject?
    do {
      let stream = bus.events(Tick.self)
      bus.publish(Tick(count: 1))
      weakState = Mirror(reflecting: stream).children.first?.value as AnyObject
      #expect(weakState != nil)
    }
    #expect(weakState == nil)
  }
}

/// Counts the jobs enqueued on an actor, to see whether awaiting a stream's buffered events
/// leaves the actor and comes back.
final class CountingExecutor: SerialExecutor {
  private let queue = DispatchQueue(label: "counting-executor")
  private let count = Mutex(0)

  var enqueued: Int { count.withLock { $0 } }

  func enqueue(_ job: consuming ExecutorJob) {
    count.withLock { $0 += 1 }
    let job = UnownedJob(job)
    let executor = asUnownedSerialExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}

actor StreamConsumer {
  let executor = CountingExecutor()
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  /// The first `count` ticks of `stream`, and the jobs the actor's executor ran meanwhile.
  func take(_ count: Int, of stream: EventStream<Tick>) async -> (ticks: [Int], jobs: Int) {
    let before = executor.enqueued
    var ticks: [Int] = []
    for await tick in stream {
      ticks.append(tick.count)
      if ticks.count == count { break }
    }
    return (ticks, executor.enqueued - before)
  }
}

@Suite("Event streams on the consumer's actor")
struct EventStreamIsolationTests {
  /// Iterating on an actor stays on it: a buffered event costs no hop to the shared pool and
  /// back, so a main-actor consumer of buffered events goes on while blocking work holds every
  /// pool thread.
  @Test func bufferedEventsAreTakenWithoutLeavingTheActor() async {
    let bus = EventBus()
    let stream = bus.events(Tick.self)
    for count in 0..<1_000 { bus.publish(Tick(count: count)) }
    let consumer = StreamConsumer()
    let (ticks, jobs) = await consumer.take(1_000, of: stream)
    #expect(ticks == Array(0..<1_000))
    #expect(jobs < 10, "each hop off the actor and back enqueues a job: \(jobs) for 1,000 events")
  }
}
