/// A subscription: keep it to keep receiving events, cancel or release it to stop.
///
/// Once ``cancel()`` returns, no new delivery to the subscription starts, and none is running —
/// except when `cancel()` is called from inside a handler while this subscription's handler
/// runs on another thread: waiting for it could deadlock, so then only the "no new delivery"
/// half holds.
public final class EventSubscription: Sendable, Hashable {
  private let onCancel: Locked<(@Sendable () -> Void)?>

  init(onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = Locked(onCancel)
  }

  /// Ends the subscription. Calling it again does nothing.
  public func cancel() {
    let action = onCancel.withLock { action -> (@Sendable () -> Void)? in
      defer { action = nil }
      return action
    }
    action?()
  }

  /// Whether ``cancel()`` has been called (or the subscription was released).
  public var isCancelled: Bool { onCancel.withLock { $0 == nil } }

  deinit {
    cancel()
  }

  /// Keeps the subscription alive as long as `set`, as Combine's `AnyCancellable.store(in:)` does.
  public func store(in set: inout Set<EventSubscription>) {
    set.insert(self)
  }

  public static func == (lhs: EventSubscription, rhs: EventSubscription) -> Bool { lhs === rhs }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
