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
  private let types: [String: EventDecoding]
  private let patterns: [(pattern: EventNamePattern, decoding: EventDecoding)]

  /// Creates a catalog of `types`. When two types have the same ``Event/eventName``, the first
  /// one wins and the second is left out. A type's own name always wins over a name another
  /// type lists; between two types that list one name, or whose patterns match one name, the
  /// first wins.
  public init(_ types: [any Event.Type]) {
    var ordered: [EventDecoding] = []
    var table: [String: EventDecoding] = [:]
    var patterns: [(pattern: EventNamePattern, decoding: EventDecoding)] = []
    table.reserveCapacity(types.count)
    for type in types where table[type.eventName] == nil {
      let decoding = EventDecoding(type)
      ordered.append(decoding)
      table[type.eventName] = decoding
    }
    // Other names after every type's own, so that no other name hides a type's own.
    for decoding in ordered {
      let accepted = decoding.type.acceptedEventNames
      for name in accepted.names where table[name] == nil { table[name] = decoding }
      if let pattern = accepted.pattern.flatMap(EventNamePattern.init) { patterns.append((pattern, decoding)) }
    }
    self.ordered = ordered.map(\.type)
    self.types = table
    self.patterns = patterns
  }

  /// The event type with wire name `name`, if the catalog has it.
  public func type(named name: String) -> (any Event.Type)? {
    decoding(named: name)?.type
  }

  /// How to read the data of the type with wire name `name`, if the catalog has it.
  package func decoding(named name: String) -> EventDecoding? {
    if let decoding = types[name] { return decoding }
    return patterns.first { $0.pattern.matches(name) }?.decoding
  }

  /// Every wire name the catalog lists, sorted; names that only a pattern matches are not.
  public var eventNames: [String] { types.keys.sorted() }

  /// Whether a name that ``eventNames`` does not list may still find a type, by a pattern of
  /// ``Event/acceptedEventNames``: then ``eventNames`` is not every name the catalog reads.
  package var matchesUnlistedNames: Bool { !patterns.isEmpty }

  /// How many event types the catalog holds.
  public var count: Int { ordered.count }

  /// A catalog with the types of both, this catalog's first: on a shared ``Event/eventName`` this
  /// catalog's type wins, and a type's own name wins over a name another type lists.
  public func merging(_ other: EventCatalog) -> EventCatalog {
    EventCatalog(ordered + other.ordered)
  }
}
