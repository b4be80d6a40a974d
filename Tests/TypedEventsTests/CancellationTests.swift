import Dispatch
import Foundation
import Testing
import TypedEvents

private let heldQueueKey = DispatchSpecificKey<Bool>()

/// "Once `cancel()` returns, no delivery is admitted", in every delivery mode, and cancel never
/// waits for a handler on another thread.
@Suite("Cancellation")
struct CancellationTests {
  @Test func eventsQueuedBeforeCancelAreNotDeliveredAfterIt() {
    let bus = EventBus()
    let queue = DispatchQueue(label: "held")
    let log = Collected<Int>()
    let subscription = bus.subscribe(Tick.self, delivery: .queue(queue)) { log.append($0.count) }
    // Hold the queue so that the deliveries are still queued when cancel() returns.
    let release = DispatchSemaphore(value: 0)
    queue.async { release.wait() }
    for count in 0..<10 { bus.publish(Tick(count: count)) }
    subscription.cancel()
    release.signal()
    queue.sync {}  // everything queued has run (or been dropped) by now
    #expect(log.all.isEmpty)
  }

  @Test @MainActor func mainActorDeliveriesQueuedBeforeCancelAreDropped() async {
    let bus = EventBus()
    let log = Collected<Int>()
    let subscription = bus.subscribe(Tick.self, delivery: .mainActor) { log.append($0.count) }
    // The main actor is busy with this test, so these deliveries wait on the main queue.
    for count in 0..<10 { bus.publish(Tick(count: count)) }
    subscription.cancel()
    // Let the main queue drain: a block enqueued now runs after the cancelled deliveries.
    await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
    #expect(log.all.isEmpty)
  }

  @Test func cancelReturnsWhileAHandlerRunsElsewhereAndCancelAndWaitWaitsForIt() async {
    let bus = EventBus()
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let log = Collected<String>()
    let subscription = bus.subscribe(Tick.self) { _ in
      entered.signal()
      proceed.wait()
      log.append("handler finished")
    }
    let publisher = Thread { bus.publish(Tick(count: 1)) }
    publisher.start()
    entered.wait()
    // The handler is blocked until we signal: a cancel that waited for it would never return.
    subscription.cancel()
    log.append("cancel returned")
    let waiter = Task {
      await subscription.cancelAndWait()
      log.append("waited")
    }
    try? await Task.sleep(for: .milliseconds(50))
    #expect(log.all == ["cancel returned"], "cancelAndWait returned while the admitted handler still ran")
    proceed.signal()
    await waiter.value
    #expect(log.all == ["cancel returned", "handler finished", "waited"])
  }

  @Test func cancelAndWaitReturnsAtOnceWhenNothingRuns() async {
    let bus = EventBus()
    let subscription = bus.subscribe(Tick.self) { _ in }
    bus.publish(Tick(count: 1))
    await subscription.cancelAndWait()
    #expect(subscription.isCancelled)
  }

  @Test func theFilterOfAQueuedSubscriberRunsOnItsQueueAndNotAfterCancel() {
    let bus = EventBus()
    let queue = DispatchQueue(label: "held")
    let filtered = Collected<Bool>()
    let subscription = bus.subscribe(
      EventSelector.event(Tick.self).filter { _ in
        filtered.append(DispatchQueue.getSpecific(key: heldQueueKey) == true)
        return true
      }, delivery: .queue(queue)
    ) { _ in }
    queue.setSpecific(key: heldQueueKey, value: true)
    bus.publish(Tick(count: 0))
    queue.sync {}
    #expect(filtered.all == [true], "the filter ran on the publishing thread")
    let release = DispatchSemaphore(value: 0)
    queue.async { release.wait() }
    for count in 1..<10 { bus.publish(Tick(count: count)) }
    subscription.cancel()
    release.signal()
    queue.sync {}
    #expect(filtered.all == [true], "the filter ran after cancel() returned")
  }

  /// Two threads cancel at once while a third publishes: a publish that starts after either
  /// `cancel()` has returned must deliver nothing.
  @Test func twoThreadsCancellingAtOnceBothReturnOnlyOnceDeliveryIsRefused() {
    let violations = Collected<Int>()
    for round in 0..<300 {
      let bus = EventBus()
      let delivered = Collected<Int>()
      let subscription = bus.subscribe(Tick.self) { delivered.append($0.count) }
      let returned = Collected<Int>()
      let start = DispatchSemaphore(value: 0)
      let group = DispatchGroup()
      for canceller in 0..<2 {
        group.enter()
        Thread {
          start.wait()
          subscription.cancel()
          returned.append(canceller)
          group.leave()
        }.start()
      }
      group.enter()
      Thread {
        start.wait()
        for count in 0..<200 {
          let cancelledBefore = !returned.all.isEmpty
          let before = delivered.all.count
          bus.publish(Tick(count: count))
          if cancelledBefore && delivered.all.count != before {
            violations.append(round)
            break
          }
        }
        group.leave()
      }.start()
      for _ in 0..<3 { start.signal() }
      group.wait()
    }
    #expect(violations.all.isEmpty, "deliveries after a cancel() returned in \(violations.all.count) of 300 rounds")
  }

  @Test func aQueuedReplayComesBeforeTheEventsPublishedAfterIt() {
    let bus = EventBus()
    bus.publish(Tick(count: 1))
    let queue = DispatchQueue(label: "replay")
    let log = Collected<Int>()
    // Hold the queue so that the replay and the next delivery are both waiting in it.
    let release = DispatchSemaphore(value: 0)
    queue.async { release.wait() }
    let subscription = bus.subscribe(Tick.self, delivery: .queue(queue), replay: true) { log.append($0.count) }
    bus.publish(Tick(count: 2))
    release.signal()
    queue.sync {}
    #expect(log.all == [1, 2])
    withExtendedLifetime(subscription) {}
  }
}
