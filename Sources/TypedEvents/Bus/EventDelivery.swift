import Dispatch

/// Where and when a subscriber's handler runs. Every mode delivers a subscriber's events in
/// the order they were published (FIFO per subscriber).
public enum EventDelivery: Sendable {
  /// On the publishing thread, before `publish(_:)` returns, in subscription order — as
  /// `NotificationCenter.post` does.
  case immediate
  /// Asynchronously on `queue`. A concurrent queue is used through a private serial queue that
  /// targets it, so a subscriber still sees its events one at a time and in order.
  case queue(DispatchQueue)
  /// Asynchronously on the main actor (the main queue), in order.
  case mainActor
}

/// How an ``EventStream`` buffers events that arrive faster than they are consumed.
public enum EventBufferingPolicy: Sendable, Hashable {
  /// Keeps every event. The default: no event is lost, memory grows with a slow consumer.
  case unbounded
  /// Keeps the oldest `limit` events and drops newer ones while the buffer is full.
  case bufferingOldest(Int)
  /// Keeps the newest `limit` events, dropping the oldest when the buffer is full.
  case bufferingNewest(Int)
}
