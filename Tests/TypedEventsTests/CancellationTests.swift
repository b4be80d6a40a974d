import Dispatch
import Foundation
import Testing
import TypedEvents

/// "Once `cancel()` returns, no new delivery starts", in every delivery mode.
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
    let subscription = bus.subscribeOnMainActor(Tick.self) { log.append($0.count) }
    // The main actor is busy with this test, so these deliveries wait on the main queue.
    for count in 0..<10 { bus.publish(Tick(count: count)) }
    subscription.cancel()
    // Let the main queue drain: a block enqueued now runs after the cancelled deliveries.
    await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
    #expect(log.all.isEmpty)
  }

  @Test func cancelWaitsForADeliveryInFlightOnAnotherThread() async {
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
    // Let the handler finish a little later, on its own thread.
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { proceed.signal() }
    subscription.cancel()
    log.append("cancel returned")
    #expect(log.all == ["handler finished", "cancel returned"])
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
