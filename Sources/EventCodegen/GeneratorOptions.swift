/// How generated declarations are exposed.
public enum AccessLevel: String, CaseIterable, Sendable {
  /// `public`: for a library of events that other modules import (the default).
  case `public`
  /// `package`: visible to the other modules of the same package.
  case `package`
  /// `internal`: visible to the generating module only.
  case `internal`
}

/// Which of Foundation's typed notification protocols generated events conform to.
public enum NotificationMessage: String, CaseIterable, Sendable {
  /// `NotificationCenter.MainActorMessage`: posted and observed on the main actor.
  case mainActor = "main-actor"
  /// `NotificationCenter.AsyncMessage`: posted from anywhere, observed asynchronously.
  case async
}

/// Options of a generator run.
public struct GeneratorOptions: Sendable, Hashable {
  /// The access level of every generated declaration.
  public var accessLevel: AccessLevel
  /// Foundation's typed notification protocol that every event conforms to, or nil for none.
  public var notificationMessage: NotificationMessage?

  /// Creates options.
  public init(accessLevel: AccessLevel = .public, notificationMessage: NotificationMessage? = nil) {
    self.accessLevel = accessLevel
    self.notificationMessage = notificationMessage
  }
}
