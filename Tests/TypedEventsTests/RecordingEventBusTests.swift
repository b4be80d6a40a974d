import Testing
import TypedEvents

@Suite("Recording test double")
struct RecordingEventBusTests {
  /// A component that only announces: it depends on the publishing side alone.
  struct Ticker {
    let events: any EventPublishing
    func tick(_ count: Int) { events.publish(Tick(count: count)) }
  }

  @Test func recordsWhatWasPublishedInOrderAndStillDelivers() {
    let bus = RecordingEventBus()
    let delivered = Collected<Int>()
    let subscription = bus.subscribe(Tick.self) { delivered.append($0.count) }
    let ticker = Ticker(events: bus)
    ticker.tick(1)
    bus.publish(Tock(source: "x"))
    ticker.tick(2)
    #expect(bus.published(Tick.self).map(\.count) == [1, 2])
    #expect(bus.published(Tock.self) == [Tock(source: "x")])
    #expect(bus.publishedNames == [Tick.eventName, Tock.eventName, Tick.eventName])
    #expect(bus.published.count == 3)
    #expect(delivered.all == [1, 2])
    bus.reset()
    #expect(bus.published.isEmpty)
    withExtendedLifetime(subscription) {}
  }

  @Test func aGroupPublishIsRecordedAsItsEvent() {
    let bus = RecordingEventBus()
    bus.publish(Clock.tock(Tock(source: "y")))
    #expect(bus.published(Tock.self) == [Tock(source: "y")])
  }
}
