import Foundation
import Testing
import TypedEvents

@Suite("NotificationCenter bridge")
struct NotificationCenterBridgeTests {
  @Test func aPostedEventIsANotificationNamedByItsWireName() {
    let center = NotificationCenter()
    let received = Collected<String>()
    let token = center.addObserver(forName: Notification.Name("Test.Tick"), object: nil, queue: nil) { notification in
      received.append(
        "\(notification.userInfo?["source"] as? String ?? "?") \(notification.userInfo?["count"] as? Int ?? -1)")
    }
    center.post(Tick(source: "x", count: 3))
    #expect(received.all == ["x 3"])
    center.removeObserver(token)
  }

  @Test func observingDecodesTypedEvents() {
    let center = NotificationCenter()
    let ticks = Collected<Tick>()
    let failures = Collected<String>()
    let observation = center.observe(Tick.self, onFailure: { failures.append($0.description) }) { ticks.append($0) }
    center.post(Tick(count: 1))
    center.post(
      name: Notification.Name("Test.Tick"), object: nil, userInfo: ["source": "objc", "count": NSNumber(value: 2)])
    #expect(ticks.all == [Tick(count: 1), Tick(source: "objc", count: 2)])
    #expect(failures.all.isEmpty)
    withExtendedLifetime(observation) {}
  }

  @Test func malformedUserInfoGoesToTheFailureHandler() {
    let center = NotificationCenter()
    let ticks = Collected<Tick>()
    let failures = Collected<String>()
    let observation = center.observe(Tick.self, onFailure: { failures.append($0.description) }) { ticks.append($0) }
    center.post(name: Notification.Name("Test.Tick"), object: nil, userInfo: ["source": "x", "count": "three"])
    center.post(name: Notification.Name("Test.Tick"), object: nil, userInfo: nil)
    #expect(ticks.all.isEmpty)
    #expect(
      failures.all == [
        "notification Test.Tick: userInfo key `count`: expected Int, found String",
        "notification Test.Tick: userInfo key `source`: missing",
      ])
    withExtendedLifetime(observation) {}
  }

  @Test func cancellingStopsObserving() {
    let center = NotificationCenter()
    let ticks = Collected<Tick>()
    let observation = center.observe(Tick.self, onFailure: { _ in }) { ticks.append($0) }
    observation.cancel()
    center.post(Tick(count: 1))
    #expect(ticks.all.isEmpty)
  }

  @Test func theBusForwardsToACenter() {
    let bus = EventBus()
    let center = NotificationCenter()
    let ticks = Collected<Tick>()
    let observation = center.observe(Tick.self, onFailure: { _ in }) { ticks.append($0) }
    let forwarding = bus.forward(Tick.self, to: center)
    bus.publish(Tick(count: 9))
    #expect(ticks.all == [Tick(count: 9)])
    withExtendedLifetime([observation, forwarding]) {}
  }
}
