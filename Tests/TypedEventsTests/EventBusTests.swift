import Dispatch
import Foundation
import Testing
import TypedEvents

@Suite("Event bus")
struct EventBusTests {
  @Test func publishReachesSubscribersOfTheTypeInSubscriptionOrder() {
    let bus = EventBus()
    let log = Collected<String>()
    let first = bus.subscribe(Tick.self) { log.append("first \($0.count)") }
    let group = bus.subscribe(Clock.self) { clock in
      if case .tick(let tick) = clock { log.append("group \(tick.count)") }
    }
    let second = bus.subscribe(Tick.self) { log.append("second \($0.count)") }
    let other = bus.subscribe(Tock.self) { _ in log.append("tock") }
    bus.publish(Tick(count: 1))
    #expect(log.all == ["first 1", "group 1", "second 1"])
    withExtendedLifetime([first, group, second, other]) {}
  }

  @Test func publishingAGroupPublishesItsEvent() {
    let bus = EventBus()
    let ticks = Collected<Int>()
    let subscription = bus.subscribe(Tick.self) { ticks.append($0.count) }
    bus.publish(Clock.tick(Tick(count: 7)))
    #expect(ticks.all == [7])
    withExtendedLifetime(subscription) {}
  }

  @Test func cancelAndReleaseEndSubscriptions() {
    let bus = EventBus()
    let log = Collected<Int>()
    let cancelled = bus.subscribe(Tick.self) { log.append($0.count) }
    var released: EventSubscription? = bus.subscribe(Tick.self) { log.append(-$0.count) }
    bus.publish(Tick(count: 1))
    cancelled.cancel()
    #expect(cancelled.isCancelled)
    released = nil
    bus.publish(Tick(count: 2))
    #expect(log.all == [1, -1])
    #expect(released == nil)
  }

  @Test func aReleasedSubscriptionReleasesWhatItsHandlerCaptured() {
    final class Screen: Sendable {}
    let bus = EventBus()
    weak var weakScreen: Screen?
    var subscription: EventSubscription?
    do {
      let screen = Screen()
      weakScreen = screen
      subscription = bus.subscribe(Tick.self) { _ in _ = screen }
    }
    #expect(weakScreen != nil)
    subscription = nil
    #expect(weakScreen == nil)
    #expect(subscription == nil)
  }

  @Test func replayDeliversTheLatestEventFirst() {
    let bus = EventBus()
    bus.publish(Tick(count: 1))
    bus.publish(Tick(count: 2))
    let log = Collected<Int>()
    let subscription = bus.subscribe(Tick.self, replay: true) { log.append($0.count) }
    bus.publish(Tick(count: 3))
    #expect(log.all == [2, 3])
    #expect(bus.latest(Tick.self)?.count == 3)
    let noReplay = Collected<Int>()
    let plain = bus.subscribe(Tick.self) { noReplay.append($0.count) }
    #expect(noReplay.all.isEmpty)
    withExtendedLifetime([subscription, plain]) {}
  }

  @Test func groupReplayDeliversTheMostRecentMember() {
    let bus = EventBus()
    bus.publish(Tock())
    bus.publish(Tick(count: 5))
    let log = Collected<Clock>()
    let subscription = bus.subscribe(Clock.self, replay: true) { log.append($0) }
    #expect(log.all == [.tick(Tick(count: 5))])
    withExtendedLifetime(subscription) {}
  }

  @Test func subjectFiltersDeliverOnlyEventsAboutOneEntity() {
    let bus = EventBus()
    let log = Collected<String>()
    let events = bus.subscribe(Tick.self, about: "b") { log.append("tick \($0.source)") }
    let groups = bus.subscribe(Clock.self, about: "b") { log.append("clock \($0.eventSubject)") }
    bus.publish(Tick(source: "a", count: 1))
    bus.publish(Tick(source: "b", count: 2))
    bus.publish(Tock(source: "a"))
    bus.publish(Tock(source: "b"))
    #expect(log.all == ["tick b", "clock b", "clock b"])
    withExtendedLifetime([events, groups]) {}
  }

  @Test func queueDeliveryIsFIFOPerSubscriberEvenOnAConcurrentQueue() async {
    let bus = EventBus()
    let log = Collected<Int>()
    let concurrent = DispatchQueue(label: "test", attributes: .concurrent)
    let done = DispatchSemaphore(value: 0)
    let subscription = bus.subscribe(Tick.self, delivery: .queue(concurrent)) { tick in
      log.append(tick.count)
      if tick.count == 999 { done.signal() }
    }
    for count in 0..<1000 { bus.publish(Tick(count: count)) }
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        done.wait()
        continuation.resume()
      }
    }
    #expect(log.all == Array(0..<1000))
    withExtendedLifetime(subscription) {}
  }

  @Test @MainActor func mainActorDeliveryRunsOnTheMainActorInOrder() async {
    let bus = EventBus()
    let log = Collected<Int>()
    let finished = AsyncStream.makeStream(of: Void.self)
    let subscription = bus.subscribe(Tick.self, delivery: .mainActor) { tick in
      MainActor.assertIsolated()
      log.append(tick.count)
      if tick.count == 99 { finished.continuation.yield() }
    }
    let publisher = Task.detached {
      for count in 0..<100 { bus.publish(Tick(count: count)) }
    }
    await publisher.value
    for await _ in finished.stream { break }
    #expect(log.all == Array(0..<100))
    withExtendedLifetime(subscription) {}
  }
}
