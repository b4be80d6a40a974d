import EventSchema

/// The readers that must keep working when a schema changes, as in Confluent Schema Registry.
public enum CompatibilityMode: String, CaseIterable, Sendable {
  /// Apps on the new schema read what apps on the old one wrote (event logs, older senders).
  case backward
  /// Apps on the old schema read what apps on the new one write (older receivers).
  case forward
  /// Both.
  case full
  /// Neither is checked; versions must still go up with breaking changes.
  case none

  /// The directions this mode refuses to break.
  public var checked: Directions {
    switch self {
    case .backward: return .backward
    case .forward: return .forward
    case .full: return .both
    case .none: return []
    }
  }
}

/// The directions in which a change breaks readers.
public struct Directions: OptionSet, Hashable, Sendable {
  public let rawValue: Int

  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// New readers of old data.
  public static let backward = Directions(rawValue: 1)
  /// Old readers of new data.
  public static let forward = Directions(rawValue: 2)
  /// Both directions.
  public static let both: Directions = [.backward, .forward]
}

/// One difference between two versions of a schema set, and whom it breaks.
public struct SchemaChange: Hashable, Sendable {
  /// Where it is: in the new schema, or in the old one for something removed.
  public var location: SourceLocation
  /// What changed and why it matters, in one sentence.
  public var message: String
  /// The readers it breaks; empty for a safe change.
  public var breaks: Directions
  /// What the change is inside of: an event (by wire name) or a declared type (by name); nil
  /// for a change to an event or type as a whole, or to a group.
  public var owner: Owner?

  /// What a change is inside of.
  public enum Owner: Hashable, Sendable {
    /// The event with this wire name.
    case event(String)
    /// The declared type with this name.
    case type(String)
  }

  /// Creates a change.
  public init(at location: SourceLocation, _ message: String, breaks: Directions, owner: Owner? = nil) {
    self.location = location
    self.message = message
    self.breaks = breaks
    self.owner = owner
  }
}
