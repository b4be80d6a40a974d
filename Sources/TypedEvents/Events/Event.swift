/// A typed domain event: a value with a stable wire name and version that travels through an
/// ``EventBus``, a `NotificationCenter` (as `userInfo`) and JSON (as `Codable`).
///
/// `eventgen` generates conforming structs from YAML schemas; you may also conform your own.
public protocol Event: Sendable, Hashable, Codable, UserInfoCodable {
  /// The name on the wire, such as `Listings.ListingSold`: the notification name, and the
  /// name an ``EventEnvelope`` records.
  static var eventName: String { get }
  /// The schema version the event type was generated from.
  static var eventVersion: Int { get }
  /// Every wire name the type is known by when it comes in; by default ``eventName`` alone.
  /// An ``EventCatalog`` decodes each of them as this type.
  static var acceptedEventNames: EventNames { get }
}

extension Event {
  /// The event as a `NotificationCenter` `userInfo` dictionary of property-list values only
  /// (strings, numbers, booleans, dates, data, arrays and `[String: Any]` dictionaries), so that
  /// `PropertyListSerialization` accepts it and an Objective-C observer can read it.
  public var userInfo: [AnyHashable: Any] {
    var writer = UserInfoWriter()
    write(to: &writer)
    return writer.userInfo
  }

  /// Decodes the event from a `userInfo` dictionary, the inverse of ``userInfo``.
  ///
  /// It never traps: a missing key or a value of the wrong type throws a
  /// ``UserInfoDecodingError`` that names the key path. Unknown keys are ignored.
  public init(userInfo: [AnyHashable: Any]) throws(UserInfoDecodingError) {
    try self.init(reading: UserInfoReader(userInfo))
  }
}

/// An event that is about one entity, such as a listing: the bus can deliver only the events
/// about one subject.
public protocol SubjectIdentifiable {
  /// The type of the identity, usually a strong identifier such as `ListingID`.
  ///
  /// Not `Subject`: Foundation's `NotificationCenter.MainActorMessage` and `AsyncMessage` have an
  /// associated type of that name for the object that posts, and a generated event may conform
  /// to both.
  associatedtype EventSubject: Hashable & Sendable
  /// The identity this event is about.
  var eventSubject: EventSubject { get }
  /// How many subjects' latest events every ``EventBus`` keeps for `replay: true` about a
  /// subject, from the schema's `replay: { per-subject: N }`; nil (the default) for none.
  ///
  /// A bus reads it when it first meets the type, so a subscription about a subject replays
  /// with no app-side call; ``EventBus/keepLatestPerSubject(_:limit:)`` overrides it.
  static var latestKeptPerSubject: Int? { get }
}

extension SubjectIdentifiable {
  /// None: a bus keeps no latest event per subject unless asked.
  public static var latestKeptPerSubject: Int? { nil }
}
