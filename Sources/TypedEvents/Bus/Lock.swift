import Foundation

/// State guarded by an `NSLock`, available on every platform the runtime supports (the
/// `Synchronization` module's `Mutex` needs macOS 15 and iOS 18).
final class Locked<State>: @unchecked Sendable {
  private let lock = NSLock()
  private var state: State

  init(_ state: State) {
    self.state = state
  }

  /// Runs `body` with exclusive access to the state. `body` must not call out to user code.
  @inline(__always)
  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }
}

/// How many handlers the current thread is running, so that `cancel()` from inside a handler
/// never waits for another handler (which could wait for this one: a deadlock).
enum HandlerDepth {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  static var current: Int {
    Int(bitPattern: pthread_getspecific(key))
  }

  @inline(__always)
  static func enter() {
    pthread_setspecific(key, UnsafeRawPointer(bitPattern: current + 1))
  }

  @inline(__always)
  static func leave() {
    pthread_setspecific(key, UnsafeRawPointer(bitPattern: current - 1))
  }
}
