/// A subscription: keep it to keep receiving events, cancel or release it to stop.
///
/// ## Cancelling
/// ``cancel()`` never waits for a handler running on another thread, so it is safe anywhere: on
/// the main thread while a queued handler waits for the main queue, in `deinit`, in async code
/// and inside a handler. Once it returns, no delivery is admitted: no immediate one, no queued,
/// main-actor or stream delivery already enqueued (each checks when it runs), and the
/// subscription's filter is not called again.
///
/// The window that remains: a delivery that had already been admitted on another thread when
/// `cancel()` ran goes on, through the filter and the handler, and may return after `cancel()`
/// does. Admission is one atomic step just before the filter, so at most one such call per
/// thread delivering to the subscription (for queued, main-actor and stream subscribers, at
/// most one in all). ``cancelAndWait()`` waits for them without blocking a thread.
public final class EventSubscription: Sendable, Hashable {
  private let gate: AdmissionGate
  private let removal: Locked<(@Sendable () -> Void)?>

  init(gate: AdmissionGate, removal: @escaping @Sendable () -> Void) {
    self.gate = gate
    self.removal = Locked(removal)
  }

  /// Ends the subscription. Calling it again, from any thread, does nothing more; every call
  /// returns only after deliveries are refused.
  public func cancel() {
    // Closing first and on every call: a second thread cancelling at the same moment must not
    // return before the gate refuses, even though only the first removes the entries.
    gate.close()
    let action = removal.withLock { action -> (@Sendable () -> Void)? in
      defer { action = nil }
      return action
    }
    action?()
  }

  /// Ends the subscription, then suspends until every handler call admitted before it ended has
  /// returned: afterwards nothing of the subscription runs any more. It suspends the task and
  /// blocks no thread. Do not await it from a task that such a handler itself waits for.
  public func cancelAndWait() async {
    cancel()
    await gate.idle()
  }

  /// Whether ``cancel()`` has been called (or the subscription was released).
  public var isCancelled: Bool { gate.isClosed }

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
