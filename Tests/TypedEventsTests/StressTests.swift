import Dispatch
import Foundation
import Testing
import TypedEvents

/// Many threads publishing, subscribing, cancelling and replaying at once. Run it under Thread
/// Sanitizer too: `swift test --sanitize=thread --scratch-path .build-tsan --filter Stress`.
@Suite("Stress")
struct StressTests {
  @Test func concurrentPublishersSubscribersAndCancellations() {
    let bus = EventBus()
    let publishers = 4
    let perPublisher = 2_000
    // Subscriptions alive throughout must see every event exactly once.
    let steady = (0..<3).map { _ in Collected<Int>() }
    let steadySubscriptions = steady.map { log in bus.subscribe(Tick.self) { log.append($0.count) } }
    let groupCount = Collected<Int>()
    let groupSubscription = bus.subscribe(Clock.self) { if case .tick = $0 { groupCount.append(1) } }

    // Churning subscriptions: each must receive nothing once its cancel() has returned.
    let lateDeliveries = Collected<Int>()
    let churners = 3
    DispatchQueue.concurrentPerform(iterations: publishers + churners) { worker in
      if worker < publishers {
        for index in 0..<perPublisher {
          bus.publish(Tick(source: "p\(worker)", count: worker * perPublisher + index))
          if index % 100 == 0 { bus.publish(Tock(source: "p\(worker)")) }
        }
      } else {
        for round in 0..<300 {
          let cancelled = Locked(false)
          let subscription = bus.subscribe(Tick.self, replay: round % 2 == 0) { tick in
            if cancelled.value { lateDeliveries.append(tick.count) }
          }
          let filtered = bus.subscribe(Clock.self, about: "p0", delivery: round % 3 == 0 ? .queue(.global()) : .immediate) { _ in }
          subscription.cancel()
          cancelled.value = true
          filtered.cancel()
        }
      }
    }

    let expected = Array(0..<(publishers * perPublisher))
    for log in steady {
      #expect(log.all.sorted() == expected)
    }
    #expect(groupCount.all.count == publishers * perPublisher)
    #expect(lateDeliveries.all.isEmpty, "deliveries after cancel() returned: \(lateDeliveries.all.count)")
    withExtendedLifetime((steadySubscriptions, groupSubscription)) {}
  }

  @Test func eachPublisherOrderIsKeptPerSubscriber() {
    let bus = EventBus()
    let log = Collected<Tick>()
    let subscription = bus.subscribe(Tick.self) { log.append($0) }
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for index in 0..<1_000 { bus.publish(Tick(source: "p\(worker)", count: index)) }
    }
    for worker in 0..<4 {
      #expect(log.all.filter { $0.source == "p\(worker)" }.map(\.count) == Array(0..<1_000))
    }
    withExtendedLifetime(subscription) {}
  }
}

/// A value behind a lock, for flags shared with handlers.
final class Locked<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  init(_ value: Value) {
    stored = value
  }

  var value: Value {
    get {
      lock.lock()
      defer { lock.unlock() }
      return stored
    }
    set {
      lock.lock()
      stored = newValue
      lock.unlock()
    }
  }
}
