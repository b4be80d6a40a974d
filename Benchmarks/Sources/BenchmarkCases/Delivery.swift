import BenchmarkEvents
import Foundation
import OpenCombine
import TypedEvents

/// Immediate delivery to `subscribers` handlers, against what an app would use instead.
/// Reported per delivery: total time / (publishes × subscribers).
func deliveryBenchmarks(subscribers: Int, publishes: Int) -> [Measurement] {
  let event = Tick(count: 1)
  let deliveries = publishes * subscribers
  var results: [Measurement] = []

  do {
    let bus = EventBus()
    let counter = Counter()
    let subscriptions = (0..<subscribers).map { _ in bus.subscribe(Tick.self) { counter.value &+= $0.count } }
    results.append(Harness.measure("TypedEvents EventBus", operations: deliveries) {
      for _ in 0..<publishes { bus.publish(event) }
    })
    blackHole((subscriptions, counter.value))
  }

  do {
    let closures = LockedClosures()
    let counter = Counter()
    for _ in 0..<subscribers { closures.add { counter.value &+= $0.count } }
    results.append(Harness.measure("array of closures behind NSLock (floor)", operations: deliveries) {
      for _ in 0..<publishes { closures.publish(event) }
    })
    blackHole(counter.value)
  }

  do {
    let center = NotificationCenter()
    let counter = Counter()
    let name = Notification.Name("Bench.Tick")
    let observers = (0..<subscribers).map { _ in
      center.addObserver(forName: name, object: nil, queue: nil) { notification in
        guard let count = notification.userInfo?["count"] as? Int, let source = notification.userInfo?["source"] as? String else { return }
        counter.value &+= count + source.utf8.count
      }
    }
    results.append(Harness.measure("NotificationCenter, 2-entry userInfo, as? casts", operations: deliveries) {
      for _ in 0..<publishes { center.post(name: name, object: nil, userInfo: ["count": 1, "source": "a"]) }
    })
    observers.forEach(center.removeObserver)
    blackHole(counter.value)
  }

  do {
    let subject = PassthroughSubject<Tick, Never>()
    let counter = Counter()
    let sinks = (0..<subscribers).map { _ in subject.sink { counter.value &+= $0.count } }
    results.append(Harness.measure("OpenCombine PassthroughSubject", operations: deliveries) {
      for _ in 0..<publishes { subject.send(event) }
    })
    blackHole((sinks, counter.value))
  }
  return results
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

/// Asynchronous delivery to one consumer: `events(_:)` against one `AsyncStream` per subscriber.
func asyncBenchmarks(events count: Int) async -> [Measurement] {
  var results: [Measurement] = []
  results.append(await Harness.measure("TypedEvents events(_:)", operations: count) {
    let bus = EventBus()
    let stream = bus.events(Tick.self)
    let consumer = Task {
      var received = 0
      for await _ in stream {
        received += 1
        if received == count { break }
      }
      return received
    }
    for index in 0..<count { bus.publish(Tick(count: index)) }
    blackHole(await consumer.value)
  })
  results.append(await Harness.measure("AsyncStream per subscriber", operations: count) {
    let (stream, continuation) = AsyncStream.makeStream(of: Tick.self)
    let consumer = Task {
      var received = 0
      for await _ in stream {
        received += 1
        if received == count { break }
      }
      return received
    }
    for index in 0..<count { continuation.yield(Tick(count: index)) }
    blackHole(await consumer.value)
    continuation.finish()
  })
  return results
}

/// Foundation's typed notifications (SE-0438's `NotificationCenter.MainActorMessage`), posted and
/// observed on the main actor, as an app that adopts them would.
final class MainActorSource: Sendable {}

struct TickMessage: NotificationCenter.MainActorMessage {
  typealias Subject = MainActorSource
  var count: Int
}

@MainActor
func mainActorMessageBenchmark(subscribers: Int, publishes: Int) -> Measurement {
  let center = NotificationCenter()
  let source = MainActorSource()
  let counter = Counter()
  let tokens = (0..<subscribers).map { _ in
    center.addObserver(of: source, for: TickMessage.self) { message in counter.value &+= message.count }
  }
  let measurement = Harness.measure("Foundation NotificationCenter.MainActorMessage", operations: publishes * subscribers) {
    for _ in 0..<publishes { center.post(TickMessage(count: 1), subject: source) }
  }
  blackHole((tokens, counter.value))
  return measurement
}
