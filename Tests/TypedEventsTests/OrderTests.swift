import Dispatch
import Foundation
import Testing
import TypedEvents

/// The order statement of `EventBus`, under load: four threads publish at once.
/// - immediate subscribers see each publisher's own order;
/// - queued, main-actor and stream subscribers all see one and the same order (the bus's), which
///   keeps each publisher's order too.
@Suite("Order with four publishing threads")
struct OrderTests {
  static let publishers = 4
  static let perPublisher = 2_000
  static var total: Int { publishers * perPublisher }

  /// Publishes from four threads at once: publisher `p` sends `Tick(source: "p\(p)", count: 0…)`.
  func publishFromFourThreads(_ bus: EventBus) {
    onThreads(Self.publishers) { worker in
      for index in 0..<Self.perPublisher { bus.publish(Tick(source: "p\(worker)", count: index)) }
    }
  }

  func expectEachPublishersOrder(_ log: [Tick], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(log.count == Self.total, sourceLocation: sourceLocation)
    for worker in 0..<Self.publishers {
      let counts = log.filter { $0.source == "p\(worker)" }.map(\.count)
      #expect(firstDifference(counts, Array(0..<Self.perPublisher)) == nil, sourceLocation: sourceLocation)
    }
  }

  @Test func immediateSubscribersSeeEachPublishersOrder() {
    let bus = EventBus()
    let logs = (0..<2).map { _ in Collected<Tick>() }
    let subscriptions = logs.map { log in bus.subscribe(Tick.self) { log.append($0) } }
    publishFromFourThreads(bus)
    for log in logs { expectEachPublishersOrder(log.all) }
    withExtendedLifetime(subscriptions) {}
  }

  @Test func queuedSubscribersAllSeeTheBusOrder() {
    let bus = EventBus()
    let serial = DispatchQueue(label: "serial")
    let concurrent = DispatchQueue(label: "concurrent", attributes: .concurrent)
    let logs = (0..<3).map { _ in Collected<Tick>() }
    let subscriptions = [
      bus.subscribe(Tick.self, delivery: .queue(serial)) { logs[0].append($0) },
      bus.subscribe(Tick.self, delivery: .queue(concurrent)) { logs[1].append($0) },
      bus.subscribe(Tick.self, delivery: .queue(.global())) { logs[2].append($0) },
    ]
    publishFromFourThreads(bus)
    waitUntil { logs.allSatisfy { $0.all.count == Self.total } }
    expectEachPublishersOrder(logs[0].all)
    #expect(firstDifference(logs[1].all, logs[0].all) == nil, "two queued subscribers saw different orders")
    #expect(firstDifference(logs[2].all, logs[0].all) == nil, "two queued subscribers saw different orders")
    withExtendedLifetime(subscriptions) {}
  }

  @Test func streamsSeeTheBusOrderAndSoDoQueuedSubscribers() async {
    let bus = EventBus()
    let streams = [bus.events(Tick.self), bus.events(Tick.self)]
    let queued = Collected<Tick>()
    let subscription = bus.subscribe(Tick.self, delivery: .queue(DispatchQueue(label: "q"))) { queued.append($0) }
    let consumers = streams.map { stream in
      Task {
        var received: [Tick] = []
        for await tick in stream {
          received.append(tick)
          if received.count == Self.total { break }
        }
        return received
      }
    }
    await Task.detached { self.publishFromFourThreads(bus) }.value
    let first = await consumers[0].value
    let second = await consumers[1].value
    waitUntil { queued.all.count == Self.total }
    expectEachPublishersOrder(first)
    #expect(firstDifference(second, first) == nil, "two streams saw different orders")
    #expect(firstDifference(queued.all, first) == nil, "a stream and a queued subscriber saw different orders")
    withExtendedLifetime(subscription) {}
  }

  @Test @MainActor func mainActorSubscribersSeeTheBusOrder() async {
    let bus = EventBus()
    let onMain = MainActorLog<Tick>()  // main-actor state, touched by the handler without a cast
    let queued = Collected<Tick>()
    let finished = AsyncStream.makeStream(of: Void.self)
    let subscriptions = [
      bus.subscribe(Tick.self, delivery: .mainActor) { tick in
        onMain.items.append(tick)
        if onMain.items.count == Self.total { finished.continuation.yield() }
      },
      bus.subscribe(Tick.self, delivery: .queue(DispatchQueue(label: "q"))) { queued.append($0) },
    ]
    await Task.detached { self.publishFromFourThreads(bus) }.value
    for await _ in finished.stream { break }
    await Task.detached { waitUntil { queued.all.count == Self.total } }.value
    expectEachPublishersOrder(onMain.items)
    #expect(firstDifference(queued.all, onMain.items) == nil, "the main actor and a queue saw different orders")
    withExtendedLifetime(subscriptions) {}
  }

  @Test @MainActor func aPublishOnTheMainActorNeverOvertakesEventsQueuedForTheMainActor() async {
    let bus = EventBus()
    let received = MainActorLog<Int>()
    let subscription = bus.subscribe(Tick.self, delivery: .mainActor) { received.items.append($0.count) }
    // Published on another thread while the main actor is busy with this test, so the delivery
    // waits on the main queue when the main actor publishes the next event.
    let published = DispatchSemaphore(value: 0)
    Thread {
      bus.publish(Tick(count: 1))
      published.signal()
    }.start()
    published.wait()
    bus.publish(Tick(count: 2))
    #expect(received.items.isEmpty, "main-actor delivery ran synchronously inside publish")
    await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
    #expect(received.items == [1, 2])
    withExtendedLifetime(subscription) {}
  }
}

/// Where two logs first differ, as a short description (nil when they are equal): the logs
/// themselves are too long for a failure message.
func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> String? {
  if a == b { return nil }
  let index = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? Swift.min(a.count, b.count)
  let left = index < a.count ? "\(a[index])" : "end"
  let right = index < b.count ? "\(b[index])" : "end"
  return "at \(index) of \(a.count)/\(b.count): \(left) vs \(right)"
}

/// Polls `condition` every millisecond, for at most a minute.
func waitUntil(_ condition: () -> Bool) {
  let deadline = Date().addingTimeInterval(60)
  while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
}

/// Main-actor state for handlers typed `@MainActor` to touch.
@MainActor
final class MainActorLog<Element> {
  var items: [Element] = []
}
