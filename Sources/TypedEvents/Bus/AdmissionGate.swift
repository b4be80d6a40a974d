import CTypedEventsRuntime

/// Where a subscription's deliveries meet its cancellation, without a lock per delivery and
/// without ever waiting.
///
/// One atomic word: its top bit says "closed", its low bits count the handler calls admitted and
/// not yet returned. A delivery adds one and looks at the bit in the same operation: either it
/// counted itself before the bit was set (it was admitted, and may still run after `close()`
/// returns), or it sees the bit and does not start. `close()` sets the bit and returns at once,
/// so it is safe on the main thread, in `deinit` and in async code; ``idle()`` is the way to know
/// that the admitted calls have returned, and it suspends instead of blocking a thread.
@usableFromInline
final class AdmissionGate: @unchecked Sendable {
  @usableFromInline let word = UnsafeMutablePointer<Int>.allocate(capacity: 1)
  /// Tasks waiting in `idle()`, and whether the last admitted call has left since closing.
  private let waiters = Locked<(continuations: [CheckedContinuation<Void, Never>], drained: Bool)>(([], false))

  @usableFromInline static var closedBit: Int { Int.min }

  init() {
    word.initialize(to: 0)
  }

  deinit {
    word.deallocate()
  }

  /// Admits one handler call unless the gate is closed; an admitted call must `leave()`.
  @inlinable
  func enter() -> Bool {
    let state = typed_events_atomic_fetch_add(word, 1)
    if state & Self.closedBit == 0 { return true }
    leave()
    return false
  }

  @inlinable
  func leave() {
    let state = typed_events_atomic_fetch_add(word, -1)
    if state == Self.closedBit | 1 { resumeWaiters() }
  }

  /// Refuses every later `enter()`. Returns at once, whatever is running elsewhere.
  func close() {
    _ = typed_events_atomic_fetch_or(word, Self.closedBit)
  }

  var isClosed: Bool {
    typed_events_atomic_load(word) & Self.closedBit != 0
  }

  /// Returns once the gate is closed and no admitted handler call is still running.
  /// Call it after `close()`; it suspends the task, never a thread.
  func idle() async {
    if typed_events_atomic_load(word) == Self.closedBit { return }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = waiters.withLock { state -> Bool in
        // `drained` covers a call that left between the load above and this lock.
        if state.drained || typed_events_atomic_load(word) == Self.closedBit { return true }
        state.continuations.append(continuation)
        return false
      }
      if ready { continuation.resume() }
    }
  }

  @usableFromInline
  func resumeWaiters() {
    let continuations = waiters.withLock { state in
      state.drained = true
      defer { state.continuations = [] }
      return state.continuations
    }
    for continuation in continuations { continuation.resume() }
  }
}
