import Dispatch
import Foundation
import Testing
import TypedEvents

/// Many threads publishing, subscribing, cancelling and replaying at once. Run it under Thread
/// Sanitizer too: `cd Integration/Sanitizers && swift test --sanitize=thread --filter Stress`.
///
/// Serialized: each test starts seven threads that spin until its publishers finish, so two at
/// once on two cores starve each other's publishers (under Thread Sanitizer, the suite's 3 s
/// became minutes and held every other test's completion with it).
@Suite("Stress", .serialized)
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

    // Churning subscriptions: once cancel() has returned, each may finish only calls admitted
    // before it: at most one per publishing thread.
    let lateDeliveries = Collected<Int>()
    let liveDeliveries = Collected<Int>()
    let finished = Locked(0)
    let churners = 3
    onThreads(publishers + churners) { worker in
      if worker < publishers {
        publishTicks(on: bus, worker: worker, count: perPublisher, tockEvery: 100)
        finished.modify { $0 += 1 }
      } else {
        var round = 0
        while round < 300 || finished.value < publishers {
          round += 1
          let cancelled = Locked(false)
          let lateInRound = Locked(0)
          let subscription = bus.subscribe(Tick.self, replay: round % 2 == 0) { tick in
            if cancelled.value { lateInRound.modify { $0 += 1 } } else { liveDeliveries.append(tick.count) }
          }
          let filtered = bus.subscribe(
            Clock.self, about: "p0", delivery: round % 3 == 0 ? .queue(.global()) : .immediate
          ) { _ in }
          subscription.cancel()
          cancelled.value = true
          // Let a call admitted just before cancel() finish, then count those that ran late.
          Thread.sleep(forTimeInterval: 0.0001)
          if lateInRound.value > 0 { lateDeliveries.append(lateInRound.value) }
          filtered.cancel()
        }
      }
    }

    let expected = Array(0..<(publishers * perPublisher))
    for log in steady {
      #expect(log.all.sorted() == expected)
    }
    #expect(groupCount.all.count == publishers * perPublisher)
    #expect(
      lateDeliveries.all.allSatisfy { $0 <= publishers },
      "calls after cancel() returned, per round: \(lateDeliveries.all)")
    #expect(!liveDeliveries.all.isEmpty, "churning subscriptions never overlapped a publish")
    withExtendedLifetime((steadySubscriptions, groupSubscription)) {}
  }

  /// Publishing on four threads while four more subscribe — with and without replay, delivered
  /// immediately or on a queue — and cancel or drop their tokens; a queued subscriber, a
  /// subject filter, a group and an event stream stay throughout. Then everything is released.
  @Test func replayQueuesStreamsAndReleaseUnderLoad() async throws {
    weak var weakBus: EventBus?
    weak var weakProbe: Probe?
    let publishers = 4
    let perPublisher = 2_500
    let total = publishers * perPublisher
    let churners = 4
    let rounds = 400
    let late = Collected<Int>()
    let disordered = Collected<String>()
    let subscriptions = Locked(0)
    let released = Locked(0)
    let overlapping = Locked(0)
    do {
      let bus = EventBus()
      let probe = Probe()
      weakBus = bus
      weakProbe = probe

      let immediate = Collected<Int>()
      let queued = Collected<Int>()
      let aboutP1 = Collected<Int>()
      let groups = Collected<Int>()
      let queue = DispatchQueue(label: "steady subscriber")
      let steady = [
        bus.subscribe(Tick.self) { [probe] in
          probe.touch(); immediate.append($0.count)
        },
        bus.subscribe(Tick.self, delivery: .queue(queue)) { queued.append($0.count) },
        bus.subscribe(Tick.self, about: "p1") { aboutP1.append($0.count) },
        bus.subscribe(Clock.self) { if case .tick(let tick) = $0 { groups.append(tick.count) } },
      ]
      let stream = bus.events(Tick.self)
      let consumer = Task {
        var seen = 0
        for await _ in stream {
          seen += 1
          if seen == total { break }
        }
        return seen
      }

      let finished = Locked(0)
      // Publishing starts once the first churner's first subscription is live, and that
      // subscription stays until a live event reaches it: at least one churning subscription
      // overlaps a publish however the two cores schedule the threads.
      let churnerListening = Locked(false)
      onThreads(publishers + churners) { worker in
        if worker < publishers {
          while !churnerListening.value { Thread.sleep(forTimeInterval: 0.0001) }
          publishTicks(on: bus, worker: worker, count: perPublisher, tockEvery: 50)
          finished.modify { $0 += 1 }
          return
        }
        var round = 0
        while round < rounds || finished.value < publishers {
          round += 1
          subscriptions.modify { $0 += 1 }
          let cancelled = Locked(false)
          let lateInRound = Locked(0)
          // Each delivery, and whether it ran on this (the subscribing) thread: a replay does,
          // live events never do, since this thread does not publish.
          let received = Collected<(tick: Tick, replayed: Bool)>()
          let subscribingThread = pthread_self()
          let queued = round % 3 == 0
          var subscription: EventSubscription? = bus.subscribe(
            Tick.self, delivery: queued ? .queue(.global()) : .immediate, replay: round % 2 == 0
          ) { [probe] tick in
            probe.touch()
            if cancelled.value { lateInRound.modify { $0 += 1 } }
            received.append((tick, !queued && pthread_equal(pthread_self(), subscribingThread) != 0))
          }
          if worker == publishers && round == 1 {
            churnerListening.value = true
            let deadline = Date().addingTimeInterval(10)
            while !received.all.contains(where: { !$0.replayed }) && Date() < deadline {
              Thread.sleep(forTimeInterval: 0.0001)
            }
          }
          if round % 4 == 3 {
            // Released rather than cancelled: dropping the last reference ends it the same way.
            // (Set to nil, not left to the end of the scope, which a debug build waits for.)
            subscription = nil
            released.modify { $0 += 1 }
          } else {
            subscription?.cancel()
          }
          cancelled.value = true
          // Let a call admitted just before cancel() finish, then count those that ran late.
          Thread.sleep(forTimeInterval: 0.0001)
          if lateInRound.value > 0 { late.append(lateInRound.value) }
          // A replayed event is never delivered again live. Each source's events come in order;
          // except that an immediate replay runs on the subscribing thread and may overlap a
          // live event running on the publisher's, so it is left out of the order check there.
          let all = received.all
          if all.contains(where: { !$0.replayed }) { overlapping.modify { $0 += 1 } }
          if Set(all.map(\.tick.count)).count != all.count {
            disordered.append("an event delivered twice: \(all.map(\.tick.count))")
          }
          var last: [String: Int] = [:]
          for (tick, replayed) in all where !replayed {
            if let previous = last[tick.source], previous >= tick.count {
              disordered.append("\(tick.source): \(tick.count) after \(previous)")
            }
            last[tick.source] = tick.count
          }
        }
      }
      queue.sync {}

      let expected = Array(0..<total)
      #expect(immediate.all.sorted() == expected)
      #expect(queued.all.sorted() == expected)
      #expect(groups.all.sorted() == expected)
      #expect(aboutP1.all == Array(perPublisher..<(2 * perPublisher)), "one source, in its order")
      #expect(await consumer.value == total)
      for subscription in steady { subscription.cancel() }
    }
    // cancel() does not wait: a call admitted just before it may run after it returns, at most
    // one per thread delivering (four publishers here; a queue delivers on one). A subscription
    // that kept receiving after cancel() would show many more.
    #expect(late.all.allSatisfy { $0 <= publishers }, "calls after cancel() returned, per round: \(late.all)")
    #expect(disordered.all.isEmpty, "\(disordered.all.prefix(5))")
    #expect(overlapping.value > 0, "churning subscriptions never overlapped a publish")
    print(
      "stress: \(total + total / 50) publishes on \(publishers) threads; on \(churners) more, \(subscriptions.value) subscriptions "
        + "(half with replay), \(subscriptions.value - released.value) cancelled, \(released.value) released, "
        + "\(overlapping.value) of them receiving live events")

    // Everything released: the bus, its subscribers and what their handlers captured are freed
    // (queued deliveries still pending on the global queue hold the probe for a moment; up to
    // 60 s, since CI runs this under Thread Sanitizer on a loaded machine).
    let deadline = Date().addingTimeInterval(60)
    while (weakBus != nil || weakProbe != nil) && Date() < deadline {
      try await Task.sleep(nanoseconds: 10_000_000)
    }
    #expect(weakBus == nil, "the bus outlived every reference to it")
    #expect(weakProbe == nil, "a handler's capture outlived its subscription")
  }

  @Test func aSubscriptionDroppedWithoutCancelFreesItsHandler() {
    let bus = EventBus()
    weak var weakProbe: Probe?
    do {
      let probe = Probe()
      weakProbe = probe
      let subscription = bus.subscribe(Tick.self) { [probe] _ in probe.touch() }
      bus.publish(Tick(source: "a", count: 1))
      withExtendedLifetime(subscription) {}
    }
    #expect(weakProbe == nil)
    bus.publish(Tick(source: "a", count: 2))
  }

  @Test func eachPublisherOrderIsKeptPerSubscriber() {
    let bus = EventBus()
    let log = Collected<Tick>()
    let subscription = bus.subscribe(Tick.self) { log.append($0) }
    onThreads(4) { worker in
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

  /// Changes the value under the lock: `value += 1` would read and write in two steps.
  func modify(_ body: (inout Value) -> Void) {
    lock.lock()
    body(&stored)
    lock.unlock()
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

/// Something for handlers to capture, to see when they are freed.
final class Probe: Sendable {
  func touch() {}
}

/// Publishes publisher `worker`'s ticks, numbered `worker * count` onwards so that counts are
/// unique across publishers, with a tock every `tockEvery` ticks (another type on the bus).
func publishTicks(on bus: EventBus, worker: Int, count: Int, tockEvery: Int) {
  for index in 0..<count {
    bus.publish(Tick(source: "p\(worker)", count: worker * count + index))
    if index % tockEvery == 0 { bus.publish(Tock(source: "p\(worker)")) }
  }
}

/// Runs `body(0)`…`body(count - 1)` on threads of their own, released together. Unlike
/// `DispatchQueue.concurrentPerform`, which runs one iteration per core and starts them in order
/// (on two cores, the publishers would all be done before a churner started), every worker
/// here is running at once.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let ready = DispatchSemaphore(value: 0)
  let start = DispatchSemaphore(value: 0)
  let done = DispatchGroup()
  for index in 0..<count {
    done.enter()
    Thread {
      ready.signal()
      start.wait()
      body(index)
      done.leave()
    }.start()
  }
  for _ in 0..<count { ready.wait() }
  for _ in 0..<count { start.signal() }
  done.wait()
}
