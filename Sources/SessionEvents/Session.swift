import Foundation
import TypedEvents

/// Whether someone is signed in, kept current from the bus: the sample of the build-tool plugin.
public final class SessionState: Sendable {
  private let subscription: EventSubscription
  private let current = Mutex<AccountID?>(nil)

  /// Follows the session events of `events`, starting from the latest one.
  public init(events: some EventObserving) {
    let current = self.current
    subscription = events.subscribe(SessionChange.self, replay: true) { change in
      switch change {
      case .signedIn(let signedIn): current.set(signedIn.account)
      case .signedOut: current.set(nil)
      }
    }
  }

  /// The account signed in, if any.
  public var account: AccountID? { current.get() }
}

/// A tiny lock box; the runtime's is internal.
final class Mutex<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func get() -> Value {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
  func set(_ newValue: Value) {
    lock.lock()
    value = newValue
    lock.unlock()
  }
}
