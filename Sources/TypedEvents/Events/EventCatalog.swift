/// A table of event types by wire name, so that an ``EventEnvelope`` or a notification can be
/// decoded by its name.
///
/// `eventgen` generates one per run as `GeneratedEvents.catalog`; catalogs of several modules
/// combine with ``merging(_:)``. A type is found by its ``Event/eventName`` and by every other
/// name of its ``Event/acceptedEventNames``: those listed, then, for a name no type lists, the
/// first type (in the catalog's order) whose pattern matches it.
public struct EventCatalog: Sendable {
  /// The types, in order, each with a wire name of its own.
  private let ordered: [any Event.Type]
  private let types: [String: any Event.Type]
  private let patterns: [(pattern: EventNamePattern, type: any Event.Type)]

  /// Creates a catalog of `types`. When two types have the same ``Event/eventName``, the first
  /// one wins and the second is left out. A type's own name always wins over a name another
  /// type lists; between two types that list one name, or whose patterns match one name, the
  /// first wins.
  public init(_ types: [any Event.Type]) {
    var ordered: [any Event.Type] = []
    var table: [String: any Event.Type] = [:]
    var patterns: [(pattern: EventNamePattern, type: any Event.Type)] = []
    table.reserveCapacity(types.count)
    for type in types where table[type.eventName] == nil {
      ordered.append(type)
      table[type.eventName] = type
    }
    // Other names after every type's own, so that no other name hides a type's own.
    for type in ordered {
      let accepted = type.acceptedEventNames
      for name in accepted.names where table[name] == nil { table[name] = type }
      if let pattern = accepted.pattern.flatMap(EventNamePattern.init) { patterns.append((pattern, type)) }
    }
    self.ordered = ordered
    self.types = table
    self.patterns = patterns
  }

  /// The event type with wire name `name`, if the catalog has it.
  public func type(named name: String) -> (any Event.Type)? {
    if let type = types[name] { return type }
    return patterns.first { $0.pattern.matches(name) }?.type
  }

  /// Every wire name the catalog lists, sorted; names that only a pattern matches are not.
  public var eventNames: [String] { types.keys.sorted() }

  /// How many event types the catalog holds.
  public var count: Int { ordered.count }

  /// A catalog with the types of both, this catalog's first: on a shared ``Event/eventName`` this
  /// catalog's type wins, and a type's own name wins over a name another type lists.
  public func merging(_ other: EventCatalog) -> EventCatalog {
    EventCatalog(ordered + other.ordered)
  }
}
