/// A table of event types by wire name, so that an ``EventEnvelope`` or a notification can be
/// decoded by its name.
///
/// `eventgen` generates one per run as `GeneratedEvents.catalog`; catalogs of several modules
/// combine with ``merging(_:)``.
public struct EventCatalog: Sendable {
  private let types: [String: any Event.Type]

  /// Creates a catalog of `types`. When two types share a wire name, the first one wins.
  public init(_ types: [any Event.Type]) {
    var table: [String: any Event.Type] = [:]
    table.reserveCapacity(types.count)
    for type in types where table[type.eventName] == nil {
      table[type.eventName] = type
    }
    self.types = table
  }

  /// The event type with wire name `name`, if the catalog has it.
  public func type(named name: String) -> (any Event.Type)? {
    types[name]
  }

  /// Every wire name of the catalog, sorted.
  public var eventNames: [String] { types.keys.sorted() }

  /// How many event types the catalog holds.
  public var count: Int { types.count }

  /// A catalog with the types of both; on a shared wire name this catalog's type wins.
  public func merging(_ other: EventCatalog) -> EventCatalog {
    EventCatalog(Array(types.values) + Array(other.types.values.filter { types[$0.eventName] == nil }))
  }
}
