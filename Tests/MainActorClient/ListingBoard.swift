import Foundation
import SampleEvents
import TypedEvents

/// A screen of an app target whose default isolation is `MainActor` (see Package.swift: warnings
/// are errors here). It subscribes through every form, the generated helpers included, and its
/// handlers touch its main-actor state directly: no `MainActor.assumeIsolated`, no `await`.
public final class ListingBoard {
  /// What the handlers saw, in order, each tagged with the form that delivered it.
  public private(set) var seen: [String] = []
  public private(set) var nonisolatedDeliveries = 0
  private var subscriptions: Set<EventSubscription> = []
  private var streamTasks: [Task<Void, Never>] = []

  public init() {}

  private func record(_ form: String, _ event: any Event) {
    seen.append("\(form) \(type(of: event).eventName)")
  }

  /// Subscribes to `listing` and to everything else, through every form.
  public func bind(to events: some EventObserving, listing: ListingID) {
    events.subscribe(ListingSold.self, delivery: .mainActor) { self.record("type", $0) }
      .store(in: &subscriptions)
    events.subscribe(ListingEvent.self, delivery: .mainActor) { self.record("group", $0.event) }
      .store(in: &subscriptions)
    events.subscribe(ListingSold.self, about: listing, delivery: .mainActor, replay: true) {
      self.record("about", $0)
    }
    .store(in: &subscriptions)
    events.subscribe(ListingChange.self, about: listing, delivery: .mainActor) { self.record("group about", $0.event) }
      .store(in: &subscriptions)
    events.subscribe(EventSelector.event(ListingSold.self).filter { $0.price.amount > 0 }, delivery: .mainActor) {
      self.record("selector", $0)
    }
    .store(in: &subscriptions)
    events.subscribe(.listingSoldEvents(listing: listing), delivery: .mainActor) { self.record("helper", $0) }
      .store(in: &subscriptions)
    events.subscribe(.listingChangeEvents(listing: listing), delivery: .mainActor, replay: true) {
      self.record("group helper", $0.event)
    }
    .store(in: &subscriptions)
    // A nonisolated handler keeps immediate delivery; it may not touch the board.
    let counter = DeliveryCounter()
    events.subscribe(ListingSold.self) { _ in counter.increment() }.store(in: &subscriptions)
    nonisolatedCounter = counter
    // Streams, iterated by main-actor tasks.
    let stream = events.events(.listingSoldEvents(listing: listing), replay: true)
    streamTasks.append(
      Task {
        for await sold in stream { self.record("stream helper", sold) }
      })
  }

  private var nonisolatedCounter: DeliveryCounter?

  /// Immediate deliveries that the nonisolated handler counted.
  public var immediateCount: Int { nonisolatedCounter?.value ?? 0 }

  /// Ends every subscription and stream.
  public func unbind() {
    subscriptions.removeAll()
    for task in streamTasks { task.cancel() }
    streamTasks.removeAll()
  }
}

/// Counted from any thread: nonisolated in this main-actor module.
nonisolated final class DeliveryCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func increment() {
    lock.withLock { count += 1 }
  }

  var value: Int { lock.withLock { count } }
}
