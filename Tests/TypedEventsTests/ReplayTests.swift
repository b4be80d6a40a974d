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

  @Test func aTypeThatDeclaresPerSubjectReplayIsKeptWithoutACall() {
    let bus = EventBus()
    for (vehicle, kilometre) in [("a", 1), ("b", 2), ("a", 3), ("c", 4)] {
      bus.publish(Position(vehicle: vehicle, kilometre: kilometre))
    }
    let log = Collected<String>()
    let subscriptions = ["a", "b", "c"].map { vehicle in
      bus.subscribe(Position.self, about: vehicle, replay: true) { log.append("\($0.vehicle)\($0.kilometre)") }
    }
    // The declared limit is two subjects: `b`, published least recently, was forgotten.
    #expect(log.all == ["a3", "c4"])
    #expect(bus.keptSubjectCount(Position.self) == 2)
    // The override still wins: another limit, and what was kept is forgotten.
    bus.keepLatestPerSubject(Position.self, limit: 10)
    #expect(bus.keptSubjectCount(Position.self) == 0)
    withExtendedLifetime(subscriptions) {}
  }

  @Test func aReplayAboutASubjectThatNothingKeepsIsReportedOncePerType() {
    let reports = Collected<String>()
    let previous = UnkeptSubjectReplay.handler
    UnkeptSubjectReplay.handler = { report in
      if report.eventType == Unkept.self { reports.append(report.description) }
    }
    defer { UnkeptSubjectReplay.handler = previous }
    let bus = EventBus()
    bus.publish(Unkept(id: "a"))
    bus.publish(Unkept(id: "b"))
    let log = Collected<String>()
    let first = bus.subscribe(Unkept.self, about: "a", replay: true) { log.append($0.id) }
    let second = bus.subscribe(Unkept.self, about: "b", replay: true) { log.append($0.id) }
    // Without replay, or without a subject, there is nothing to report.
    let third = bus.subscribe(Unkept.self, about: "a") { log.append($0.id) }
    let fourth = bus.subscribe(Unkept.self, replay: true) { log.append($0.id) }
    #expect(
      reports.all == [
        "replay: true about a subject of Test.Unkept found no latest event per subject: the bus keeps none for Unkept; declare `replay: { per-subject: 10000 }` for the event in its schema, or call bus.keepLatestPerSubject(Unkept.self) before publishing"
      ])
    // What the replays found: the type's latest event, where it is about the subject.
    #expect(log.all == ["b", "b"])
    withExtendedLifetime([first, second, third, fourth]) {}
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
