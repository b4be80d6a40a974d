import Dispatch
import Testing
import TypedEvents

/// Replay about one subject: a screen that shows listing `a` gets listing `a`'s latest state.
@Suite("Replay about a subject")
struct ReplayTests {
  /// `Tick(a, 1)` then `Tick(b, 7)`, on a bus that keeps the latest tick per subject.
  func busWithTwoSubjects() -> EventBus {
    let bus = EventBus()
    bus.keepLatestPerSubject(Tick.self)
    bus.publish(Tick(source: "a", count: 1))
    bus.publish(Tick(source: "b", count: 7))
    return bus
  }

  @Test func aTypeReplaysTheLatestEventAboutItsSubject() {
    let bus = busWithTwoSubjects()
    let log = Collected<String>()
    let subscriptions = ["a", "b", "c"].map { subject in
      bus.subscribe(Tick.self, about: subject, replay: true) { log.append("\($0.source)\($0.count)") }
    }
    #expect(log.all == ["a1", "b7"])
    #expect(bus.latest(Tick.self, about: "a")?.count == 1)
    #expect(bus.latest(Tick.self, about: "c") == nil)
    withExtendedLifetime(subscriptions) {}
  }

  @Test func withoutPerSubjectStateOnlyTheTypesLatestEventCanBeReplayed() {
    let bus = EventBus()
    bus.publish(Tick(source: "a", count: 1))
    bus.publish(Tick(source: "b", count: 7))
    let log = Collected<String>()
    let subscriptions = ["a", "b"].map { subject in
      bus.subscribe(Tick.self, about: subject, replay: true) { log.append("\($0.source)\($0.count)") }
    }
    #expect(log.all == ["b7"])
    withExtendedLifetime(subscriptions) {}
  }

  @Test func aGroupReplaysItsNewestMemberAboutTheSubject() {
    let bus = EventBus()
    bus.keepLatestPerSubject(Tick.self)
    bus.keepLatestPerSubject(Tock.self)
    bus.publish(Tick(source: "a", count: 1))
    bus.publish(Tick(source: "b", count: 2))
    bus.publish(Tock(source: "b"))
    let log = Collected<Clock>()
    let first = bus.subscribe(Clock.self, about: "a", replay: true) { log.append($0) }
    #expect(log.all == [.tick(Tick(source: "a", count: 1))])
    bus.publish(Tock(source: "a"))
    let second = bus.subscribe(Clock.self, about: "a", replay: true) { log.append($0) }
    #expect(log.all == [.tick(Tick(source: "a", count: 1)), .tock(Tock(source: "a")), .tock(Tock(source: "a"))])
    withExtendedLifetime([first, second]) {}
  }

  @Test func aStreamAboutASubjectStartsWithItsLatestEvent() async {
    let bus = busWithTwoSubjects()
    let stream = bus.events(Tick.self, about: "a", replay: true)
    bus.publish(Tick(source: "b", count: 8))
    bus.publish(Tick(source: "a", count: 2))
    var received: [Int] = []
    for await tick in stream {
      received.append(tick.count)
      if received.count == 2 { break }
    }
    #expect(received == [1, 2])
  }

  @Test func queuedAndMainActorSubscribersReplayAboutTheirSubjectFirst() async {
    let bus = busWithTwoSubjects()
    let queue = DispatchQueue(label: "replay")
    let queued = Collected<Int>()
    let onMain = Collected<Int>()
    let first = bus.subscribe(Tick.self, about: "a", delivery: .queue(queue), replay: true) { queued.append($0.count) }
    let second = bus.subscribe(Tick.self, about: "a", delivery: .mainActor, replay: true) { onMain.append($0.count) }
    bus.publish(Tick(source: "a", count: 2))
    queue.sync {}
    await MainActor.run {}  // a main-actor job enqueued after the deliveries runs after them
    #expect(queued.all == [1, 2])
    #expect(onMain.all == [1, 2])
    withExtendedLifetime([first, second]) {}
  }

  @Test func theLimitForgetsTheSubjectPublishedLeastRecently() {
    let bus = EventBus()
    bus.keepLatestPerSubject(Tick.self, limit: 2)
    bus.publish(Tick(source: "a", count: 1))
    bus.publish(Tick(source: "b", count: 2))
    bus.publish(Tick(source: "a", count: 3))  // a is now the most recent
    bus.publish(Tick(source: "c", count: 4))  // b goes
    #expect(bus.keptSubjectCount(Tick.self) == 2)
    #expect(bus.latest(Tick.self, about: "a")?.count == 3)
    #expect(bus.latest(Tick.self, about: "b") == nil)
    #expect(bus.latest(Tick.self, about: "c")?.count == 4)
    for index in 0..<10_000 { bus.publish(Tick(source: "a", count: index)) }
    #expect(bus.keptSubjectCount(Tick.self) == 2)
    #expect(bus.latest(Tick.self, about: "c")?.count == 4)
  }

  @Test func aBusThatKeepsNoLatestEventsReplaysOnlyWhatItKeepsPerSubject() {
    let bus = EventBus(keepsLatestEvents: false)
    bus.keepLatestPerSubject(Tick.self)
    bus.publish(Tick(source: "a", count: 1))
    bus.publish(Tock(source: "a"))
    #expect(bus.latest(Tick.self) == nil)
    #expect(bus.latest(Tock.self) == nil)
    #expect(bus.latest(Tick.self, about: "a")?.count == 1)
    let log = Collected<String>()
    let subscriptions = [
      bus.subscribe(Tock.self, replay: true) { _ in log.append("tock") },
      bus.subscribe(Tick.self, about: "a", replay: true) { log.append("tick \($0.count)") },
    ]
    #expect(log.all == ["tick 1"])
    withExtendedLifetime(subscriptions) {}
  }
}
