import Foundation

/// State guarded by an `NSLock`, available on every platform the runtime supports (the
/// `Synchronization` module's `Mutex` needs macOS 15 and iOS 18). `package`, for the PostgreSQL
/// store's own state.
@usableFromInline
package final class Locked<State>: @unchecked Sendable {
  @usableFromInline let lock = NSLock()
  // Only touched inside the lock: the lock, not a dynamic exclusivity check, keeps it exclusive.
  @exclusivity(unchecked) @usableFromInline var state: State

  @usableFromInline
  package init(_ state: State) {
    self.state = state
  }

  /// Runs `body` with exclusive access to the state. `body` must not call out to user code.
  @inlinable
  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }

  /// Runs `body` if the lock is free now; returns false without running it otherwise.
  func withLockIfAvailable(_ body: (inout State) -> Void) -> Bool {
    guard lock.try() else { return false }
    defer { lock.unlock() }
    body(&state)
    return true
  }
}
