import Foundation
import Testing
import TypedEvents

/// What happens when handlers publish, subscribe and cancel: the order `EventBus` documents.
@Suite("Reentrancy")
struct ReentrancyTests {
  @Test func aPublishInsideAHandlerIsDeliveredDepthFirst() {
    let bus = EventBus()
    let log = Collected<String>()
    let first = bus.subscribe(Tick.self) { tick in
      log.append("first \(tick.count)")
      if tick.count == 1 { bus.publish(Tick(count: 2)) }
    }
    let second = bus.subscribe(Tick.self) { log.append("second \($0.count)") }
    bus.publish(Tick(count: 1))
    #expect(log.all == ["first 1", "first 2", "second 2", "second 1"])
    withExtendedLifetime([first, second]) {}
  }

  @Test func aSubscriptionMadeInsideAHandlerMissesTheCurrentEvent() {
    let bus = EventBus()
    let log = Collected<String>()
    let late = Collected<EventSubscription>()
    let first = bus.subscribe(Tick.self) { tick in
      log.append("first \(tick.count)")
      if tick.count == 1 { late.append(bus.subscribe(Tick.self) { log.append("late \($0.count)") }) }
    }
    bus.publish(Tick(count: 1))
    bus.publish(Tick(count: 2))
    #expect(log.all == ["first 1", "first 2", "late 2"])
    withExtendedLifetime(first) {}
  }

  @Test func aReplaySubscriptionMadeInsideAHandlerGetsTheCurrentEvent() {
    let bus = EventBus()
    let log = Collected<String>()
    let late = Collected<EventSubscription>()
    let first = bus.subscribe(Tick.self) { tick in
      if tick.count == 1 { late.append(bus.subscribe(Tick.self, replay: true) { log.append("late \($0.count)") }) }
    }
    bus.publish(Tick(count: 1))
    #expect(log.all == ["late 1"])
    withExtendedLifetime(first) {}
  }

  @Test func aSubscriptionCancelledInsideAHandlerReceivesNothingMore() {
    let bus = EventBus()
    let log = Collected<String>()
    let victim = Collected<EventSubscription>()
    let first = bus.subscribe(Tick.self) { _ in victim.all.first?.cancel() }
    victim.append(bus.subscribe(Tick.self) { log.append("victim \($0.count)") })
    bus.publish(Tick(count: 1))
    #expect(log.all.isEmpty)
    withExtendedLifetime(first) {}
  }

  @Test func aHandlerMayCancelItsOwnSubscription() {
    let bus = EventBus()
    let log = Collected<Int>()
    let own = Collected<EventSubscription>()
    own.append(
      bus.subscribe(Tick.self) { tick in
        log.append(tick.count)
        own.all.first?.cancel()
      })
    bus.publish(Tick(count: 1))
    bus.publish(Tick(count: 2))
    #expect(log.all == [1])
  }
}
