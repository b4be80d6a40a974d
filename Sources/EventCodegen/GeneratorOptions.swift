/// How generated declarations are exposed.
public enum AccessLevel: String, CaseIterable, Sendable {
  /// `public`: for a library of events that other modules import (the default).
  case `public`
  /// `package`: visible to the other modules of the same package.
  case `package`
  /// `internal`: visible to the generating module only.
  case `internal`

  /// The modifier with a trailing space, or nothing for `internal`, which is Swift's default.
  var modifier: String { self == .internal ? "" : "\(rawValue) " }
}

/// Options of a generator run.
public struct GeneratorOptions: Sendable, Hashable {
  /// The access level of every generated declaration.
  public var accessLevel: AccessLevel

  /// Creates options.
  public init(accessLevel: AccessLevel = .public) {
    self.accessLevel = accessLevel
  }
}
