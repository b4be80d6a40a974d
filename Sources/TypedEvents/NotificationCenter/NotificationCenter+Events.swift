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
}

extension NotificationCenter {
  /// Posts `event` as a notification named by its wire name, with its `userInfo`.
  public func post<E: Event>(_ event: E, object: Any? = nil) {
    post(name: Notification.Name(E.self), object: object, userInfo: event.userInfo)
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
    let token = addObserver(forName: name, object: object, queue: queue) { notification in
      do throws(UserInfoDecodingError) {
        handler(try E(userInfo: notification.userInfo ?? [:]))
      } catch {
        onFailure(NotificationDecodingFailure(name: name, error: error))
      }
    }
    let box = ObserverToken(token)
    return EventSubscription { [weak self] in
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
