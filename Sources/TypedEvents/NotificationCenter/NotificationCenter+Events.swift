import Foundation

extension Notification.Name {
  /// The notification name of event type `type`: its wire name.
  public init<E: Event>(_ type: E.Type) {
    self.init(rawValue: E.eventName)
  }
}

/// A notification whose `userInfo` did not decode as the event its name announced.
public struct NotificationDecodingFailure: Error, Sendable, CustomStringConvertible {
  /// The notification's name.
  public var name: Notification.Name
  /// Why it did not decode.
  public var error: UserInfoDecodingError

  public var description: String { "notification \(name.rawValue): \(error)" }

  /// Creates a failure report.
  public init(name: Notification.Name, error: UserInfoDecodingError) {
    self.name = name
    self.error = error
  }

  private static let reporter = Locked<@Sendable (NotificationDecodingFailure) -> Void>(printToStandardError)

  /// Receives each notification that a generated event's `makeMessage(_:)` could not decode.
  ///
  /// Foundation's typed-message API (`NotificationCenter.MainActorMessage` and `AsyncMessage`)
  /// lets `makeMessage(_:)` return only the message or nil, and drops a nil silently; generated
  /// events report the reason here first. The default prints the failure to standard error; set
  /// your own to log it or to fail a test. It is called on the thread that posted.
  public static var handler: @Sendable (NotificationDecodingFailure) -> Void {
    get { reporter.withLock { $0 } }
    set { reporter.withLock { $0 = newValue } }
  }

  /// The default ``handler``.
  public static func printToStandardError(_ failure: NotificationDecodingFailure) {
    FileHandle.standardError.write(Data("TypedEvents: \(failure) (NotificationDecodingFailure.handler)\n".utf8))
  }
}

extension Event {
  /// The event as a notification named by its wire name, with its ``userInfo``: what
  /// `NotificationCenter.post(_:object:)` posts, and what a generated event's
  /// `makeNotification(_:)` returns.
  public func notification(object: Any? = nil) -> Notification {
    Notification(name: Notification.Name(Self.self), object: object, userInfo: userInfo)
  }

  /// Decodes the event from a notification's `userInfo`; a notification without one decodes
  /// as an empty dictionary, so an event with required fields throws.
  public init(notification: Notification) throws(NotificationDecodingFailure) {
    do throws(UserInfoDecodingError) {
      try self.init(userInfo: notification.userInfo ?? [:])
    } catch {
      throw NotificationDecodingFailure(name: notification.name, error: error)
    }
  }
}

@_spi(Generated)
extension Event {
  /// The body of a generated `makeMessage(_:)`: the event, or nil once the reason has gone to
  /// ``NotificationDecodingFailure/handler``.
  public static func _message(from notification: Notification) -> Self? {
    do throws(NotificationDecodingFailure) {
      return try Self(notification: notification)
    } catch {
      NotificationDecodingFailure.handler(error)
      return nil
    }
  }
}

extension NotificationCenter {
  /// Posts `event` as a notification named by its wire name, with its `userInfo`.
  public func post<E: Event>(_ event: E, object: Any? = nil) {
    post(event.notification(object: object))
  }

  /// Observes notifications of event type `type` and calls `handler` with each decoded event.
  ///
  /// A notification whose `userInfo` does not decode goes to `onFailure`: never a crash, never
  /// silently dropped.
  ///
  /// - Parameters:
  ///   - type: the event type; its wire name is the notification name.
  ///   - object: only notifications from this sender, or all when nil.
  ///   - queue: the operation queue for the handler, or the posting thread when nil.
  ///   - onFailure: called for each notification that does not decode.
  ///   - handler: called with each decoded event.
  /// - Returns: the observation; it ends when cancelled or released.
  public func observe<E: Event>(
    _ type: E.Type, object: AnyObject? = nil, queue: OperationQueue? = nil,
    onFailure: @escaping @Sendable (NotificationDecodingFailure) -> Void,
    _ handler: @escaping @Sendable (E) -> Void
  ) -> EventSubscription {
    let name = Notification.Name(E.self)
    // The same admission as the bus's: once cancel() returns, no handler call starts, even one
    // that an operation queue already holds.
    let gate = AdmissionGate()
    let token = addObserver(forName: name, object: object, queue: queue) { notification in
      guard gate.enter() else { return }
      defer { gate.leave() }
      do throws(UserInfoDecodingError) {
        handler(try E(userInfo: notification.userInfo ?? [:]))
      } catch {
        onFailure(NotificationDecodingFailure(name: name, error: error))
      }
    }
    let box = ObserverToken(token)
    return EventSubscription(gate: gate) { [weak self] in
      self?.removeObserver(box.token)
    }
  }
}

/// Carries `addObserver`'s token into the `Sendable` cancel closure; it is only passed back to
/// `removeObserver`, which is thread-safe.
private final class ObserverToken: @unchecked Sendable {
  let token: NSObjectProtocol
  init(_ token: NSObjectProtocol) { self.token = token }
}

extension EventBus {
  /// Forwards every event of type `type` published on this bus to `center` as a notification,
  /// for observers that still listen to `NotificationCenter` (Objective-C code, for example).
  public func forward<E: Event>(_ type: E.Type, to center: NotificationCenter) -> EventSubscription {
    let center = UncheckedSendable(center)
    return subscribe(type) { event in center.value.post(event) }
  }
}

/// `NotificationCenter` is thread-safe but not `Sendable` on every platform.
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
