import Dispatch
import Foundation

/// One subscription's handler and delivery state.
///
/// Every delivery checks, under the subscriber's own lock, that the subscription is active and
/// counts itself in flight; `deactivate()` clears the flag under the same lock and waits for
/// deliveries in flight. That is what makes "once cancel() returns, no delivery starts" hold.
final class Subscriber<Value: Sendable>: @unchecked Sendable {
  private let handler: @Sendable (Value) -> Void
  private let queue: DispatchQueue?
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var active = true
  private var inFlight = 0
  private var lastSequence: UInt64 = 0

  init(delivery: EventDelivery, handler: @escaping @Sendable (Value) -> Void) {
    self.handler = handler
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

  var sink: Sink<Value> {
    Sink { [self] value, sequence, isReplay in receive(value, sequence: sequence, isReplay: isReplay) }
  }

  func receive(_ value: Value, sequence: UInt64, isReplay: Bool) {
    guard let queue else {
      deliver(value, sequence: sequence, isReplay: isReplay)
      return
    }
    queue.async { self.deliver(value, sequence: sequence, isReplay: isReplay) }
  }

  private func deliver(_ value: Value, sequence: UInt64, isReplay: Bool) {
    condition.lock()
    // A replayed event is skipped when something newer already reached the subscriber.
    guard active, !(isReplay && lastSequence >= sequence) else {
      condition.unlock()
      return
    }
    inFlight += 1
    lastSequence = max(lastSequence, sequence)
    condition.unlock()

    HandlerDepth.enter()
    handler(value)
    HandlerDepth.leave()

    condition.lock()
    inFlight -= 1
    if inFlight == 0 { condition.broadcast() }
    condition.unlock()
  }

  /// Stops deliveries; waits for those in flight unless called from inside a handler.
  func deactivate() {
    condition.lock()
    active = false
    if HandlerDepth.current == 0 {
      while inFlight > 0 { condition.wait() }
    }
    condition.unlock()
  }
}
