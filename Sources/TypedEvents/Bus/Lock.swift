import CTypedEventsRuntime
import Foundation

/// State guarded by an `NSLock`, available on every platform the runtime supports (the
/// `Synchronization` module's `Mutex` needs macOS 15 and iOS 18).
@usableFromInline
final class Locked<State>: @unchecked Sendable {
  @usableFromInline let lock = NSLock()
  // Only touched inside the lock: the lock, not a dynamic exclusivity check, keeps it exclusive.
  @exclusivity(unchecked) @usableFromInline var state: State

  @usableFromInline
  init(_ state: State) {
    self.state = state
  }

  /// Runs `body` with exclusive access to the state. `body` must not call out to user code.
  @inlinable
  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }
}

/// How many handlers the current thread is running, so that `cancel()` from inside a handler
/// never waits for another handler (which could wait for this one: a deadlock).
enum HandlerDepth {
  static var current: Int {
    typed_events_handler_depth()
  }

  @inline(__always)
  static func set(_ depth: Int) {
    typed_events_set_handler_depth(depth)
  }
}
