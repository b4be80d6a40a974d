import BenchmarkEvents
import Foundation
import OpenCombine
import TypedEvents

/// Immediate delivery to `subscribers` handlers, against what an app would use instead. Every row
/// delivers the same payload, `Tick`'s one field `count`, and its handlers do the same work: add
/// it to a counter. Reported per delivery: time / (publishes × subscribers).
@MainActor
func deliveryCases(subscribers: Int) -> [BenchmarkCase] {
  let section = "Immediate delivery, \(subscribers) subscriber\(subscribers == 1 ? "" : "s") (ns per delivery)"
  let publishes = 200_000 / subscribers
  func delivery(_ id: String, _ name: String, _ make: @escaping @MainActor (Int) -> BenchmarkCase.Body) -> BenchmarkCase
  {
    BenchmarkCase(
      id: "delivery\(subscribers).\(id)", section: section, name: name, iterations: publishes,
      operationsPerIteration: subscribers, make: make)
  }
  /// Checks after each body that every handler ran for every publish, synchronously.
  func checked(_ counter: Counter, _ publishes: Int, _ body: @escaping () -> Void) -> BenchmarkCase.Body {
    .sync {
      let before = counter.value
      body()
      precondition(counter.value - before == publishes * subscribers, "a delivery row did not deliver every event")
    }
  }
  return [
    delivery("bus", "TypedEvents EventBus") { publishes in
      let bus = EventBus()
      let counter = Counter()
      let subscriptions = (0..<subscribers).map { _ in bus.subscribe(Tick.self) { counter.value &+= $0.count } }
      let event = Tick(count: 1)
      return checked(counter, publishes) {
        for _ in 0..<publishes { bus.publish(event) }
        blackHole(subscriptions)
      }
    },
    delivery("lockedArray", "array of closures behind NSLock (floor)") { publishes in
      let closures = LockedClosures()
      let counter = Counter()
      for _ in 0..<subscribers { closures.add { counter.value &+= $0.count } }
      let event = Tick(count: 1)
      return checked(counter, publishes) {
        for _ in 0..<publishes { closures.publish(event) }
      }
    },
    delivery("notificationCenter", "NotificationCenter, userInfo [\"count\"], as? cast") { publishes in
      let center = NotificationCenter()
      let counter = Counter()
      let name = Notification.Name("Bench.Tick")
      let observers = (0..<subscribers).map { _ in
        center.addObserver(forName: name, object: nil, queue: nil) { notification in
          guard let count = notification.userInfo?["count"] as? Int else { return }
          counter.value &+= count
        }
      }
      return checked(counter, publishes) {
        for _ in 0..<publishes { center.post(name: name, object: nil, userInfo: ["count": 1]) }
        blackHole(observers)
      }
    },
    delivery("openCombine", "OpenCombine PassthroughSubject") { publishes in
      let subject = PassthroughSubject<Tick, Never>()
      let counter = Counter()
      let sinks = (0..<subscribers).map { _ in subject.sink { counter.value &+= $0.count } }
      let event = Tick(count: 1)
      return checked(counter, publishes) {
        for _ in 0..<publishes { subject.send(event) }
        blackHole(sinks)
      }
    },
    delivery("mainActorMessage", "Foundation NotificationCenter.MainActorMessage") { publishes in
      // Foundation's typed notifications, posted and observed on the main actor, as an app that
      // adopts them would.
      let center = NotificationCenter()
      let source = MainActorSource()
      let counter = Counter()
      let tokens = (0..<subscribers).map { _ in
        center.addObserver(of: source, for: TickMessage.self) { message in counter.value &+= message.count }
      }
      return checked(counter, publishes) {
        for _ in 0..<publishes { center.post(TickMessage(count: 1), subject: source) }
        blackHole(tokens)
      }
    },
  ]
}

/// The floor: what a hand-rolled, thread-safe list of handlers costs.
final class LockedClosures: @unchecked Sendable {
  private let lock = NSLock()
  private var handlers: [(Tick) -> Void] = []

  func add(_ handler: @escaping (Tick) -> Void) {
    lock.lock()
    handlers.append(handler)
    lock.unlock()
  }

  @inline(never)
  func publish(_ event: Tick) {
    lock.lock()
    let current = handlers
    lock.unlock()
    for handler in current { handler(event) }
  }
}

final class MainActorSource: Sendable {}

struct TickMessage: NotificationCenter.MainActorMessage {
  typealias Subject = MainActorSource
  var count: Int
}

/// Asynchronous delivery to one consumer: `events(_:)` against one `AsyncStream` per subscriber.
/// The consumer runs on the cooperative pool, so these rows have no instruction counts.
@MainActor
func asyncCases() -> [BenchmarkCase] {
  let section = "Asynchronous delivery to one consumer (ns per event)"
  return [
    BenchmarkCase(
      id: "async.events", section: section, name: "TypedEvents events(_:)", iterations: 100_000, isSingleThreaded: false
    ) { count in
      .async {
        let bus = EventBus()
        let consumer = consume(bus.events(Tick.self), count: count)
        for index in 0..<count { bus.publish(Tick(count: index)) }
        blackHole(await consumer.value)
      }
    },
    BenchmarkCase(
      id: "async.asyncStream", section: section, name: "AsyncStream per subscriber", iterations: 100_000,
      isSingleThreaded: false
    ) { count in
      .async {
        let (stream, continuation) = AsyncStream.makeStream(of: Tick.self)
        let consumer = consume(stream, count: count)
        for index in 0..<count { continuation.yield(Tick(count: index)) }
        blackHole(await consumer.value)
        continuation.finish()
      }
    },
  ]
}

/// A task that reads `count` elements of `stream`, then stops.
private func consume<S: AsyncSequence & Sendable>(_ stream: S, count: Int) -> Task<Int, Never>
where S.Failure == Never {
  Task {
    var received = 0
    for await _ in stream {
      received += 1
      if received == count { break }
    }
    return received
  }
}
