import Dispatch

/// Where and when a nonisolated handler runs.
///
/// Handlers that touch main-actor state take ``MainActorDelivery`` instead
/// (`delivery: .mainActor`): their type is `@MainActor`, so the compiler checks them.
public enum EventDelivery: Sendable {
  /// On the publishing thread, before `publish(_:)` returns, in subscription order — as
  /// `NotificationCenter.post` does. Events from one publishing thread arrive in that thread's
  /// order; see ``EventBus`` for several publishing threads.
  case immediate
  /// Asynchronously on `queue`, one event at a time even on a concurrent queue, in the one order
  /// the bus assigned to its publishes.
  case queue(DispatchQueue)
}

/// Delivery on the main actor, written `delivery: .mainActor`: the subscription forms that take
/// it type their handler `@MainActor`, so a handler may touch main-actor state and the compiler
/// checks that it does so only there.
///
/// Always asynchronous: a publish on the main actor enqueues the event behind those already
/// waiting for the subscriber, so it never overtakes them; the handler runs in a later turn of
/// the main queue, in the one order the bus assigned to its publishes.
public struct MainActorDelivery: Sendable, Hashable {
  /// Delivery on the main actor.
  public static var mainActor: MainActorDelivery { MainActorDelivery() }
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
