import CTypedEventsRuntime
import Dispatch

/// One subscription's handler and delivery state.
///
/// Delivery and cancellation meet in one atomic word: its low bits count the deliveries in
/// flight, its top bit says "cancelled". A delivery adds one before it looks at the bit;
/// `deactivate()` sets the bit and, if deliveries were in flight, waits until the last one
/// leaves. Because both happen on the same word, either the delivery counted itself before the
/// bit was set (and cancel waits for it) or it sees the bit (and does not start). That is what
/// makes "once cancel() returns, no delivery starts" hold, without a lock per delivery.
final class Subscriber<Value: Sendable>: @unchecked Sendable {
  private let handler: @Sendable (Value) -> Void
  private let queue: DispatchQueue?
  /// `words[0]`: cancelled bit and deliveries in flight; `words[1]`: the newest sequence number
  /// delivered, kept only for a subscription that asked for replay.
  private let words = UnsafeMutablePointer<Int>.allocate(capacity: 2)
  private let tracksSequence: Bool
  /// Signalled by the last delivery to leave after cancellation, if `deactivate()` waits.
  private let drained = DispatchSemaphore(value: 0)

  private static var cancelledBit: Int { Int.min }

  init(delivery: EventDelivery, replay: Bool, handler: @escaping @Sendable (Value) -> Void) {
    self.handler = handler
    self.tracksSequence = replay
    words.initialize(repeating: 0, count: 2)
    switch delivery {
    case .immediate:
      queue = nil
    case .queue(let target):
      // A private serial queue keeps this subscriber's events in order even on a concurrent queue.
      queue = DispatchQueue(label: "TypedEvents.subscriber", target: target)
    case .mainActor:
      queue = DispatchQueue.main
    }
  }

  deinit {
    words.deallocate()
  }

  /// The sink that channel entries deliver to.
  var sink: Sink<Value> { Sink(subscriber: self) }

  func receive(_ value: Value, sequence: UInt64, isReplay: Bool) {
    guard let queue else {
      deliver(value, sequence: sequence, isReplay: isReplay)
      return
    }
    queue.async { self.deliver(value, sequence: sequence, isReplay: isReplay) }
  }

  private func deliver(_ value: Value, sequence: UInt64, isReplay: Bool) {
    let state = typed_events_atomic_fetch_add(words, 1)
    defer { leave() }
    guard state & Self.cancelledBit == 0 else { return }
    if tracksSequence && !newest(sequence, isReplay: isReplay) { return }
    let depth = HandlerDepth.current
    HandlerDepth.set(depth + 1)
    handler(value)
    HandlerDepth.set(depth)
  }

  /// Records `sequence` as delivered; false for a replay that something newer already overtook.
  private func newest(_ sequence: UInt64, isReplay: Bool) -> Bool {
    let last = words + 1
    let new = Int(truncatingIfNeeded: sequence)
    var seen = typed_events_atomic_load(last)
    while seen < new {
      if typed_events_atomic_compare_exchange(last, &seen, new) { return true }
    }
    return !isReplay
  }

  private func leave() {
    let state = typed_events_atomic_fetch_add(words, -1)
    if state == Self.cancelledBit | 1 { drained.signal() }
  }

  /// Stops deliveries; waits for those in flight unless called from inside a handler, where
  /// waiting for another handler could deadlock.
  func deactivate() {
    let state = typed_events_atomic_fetch_or(words, Self.cancelledBit)
    guard state & Self.cancelledBit == 0 else { return }
    if state != 0 && HandlerDepth.current == 0 {
      drained.wait()
    }
  }
}

/// Where a channel entry sends a converted event: the subscriber, through its filter if any.
struct Sink<Value: Sendable>: Sendable {
  let subscriber: Subscriber<Value>
  var isIncluded: (@Sendable (Value) -> Bool)?

  func receive(_ value: Value, _ sequence: UInt64, _ isReplay: Bool) {
    if let isIncluded, !isIncluded(value) { return }
    subscriber.receive(value, sequence: sequence, isReplay: isReplay)
  }

  func filtered(_ filter: @escaping @Sendable (Value) -> Bool) -> Sink<Value> {
    var sink = self
    if let first = isIncluded {
      sink.isIncluded = { @Sendable value in first(value) && filter(value) }
    } else {
      sink.isIncluded = filter
    }
    return sink
  }
}
