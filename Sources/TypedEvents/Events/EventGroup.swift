/// An enum with one case per member event, published and subscribed to as a whole.
///
/// Subscribing to a group delivers every member event, wrapped in its case; publishing a group
/// value publishes the event it holds, which reaches the subscribers of that event type too.
public protocol EventGroup: Sendable, Hashable {
  /// The cases of the group: each member event type and the case that wraps it.
  static var members: [EventGroupMember<Self>] { get }
  /// The event this value holds.
  var event: any Event { get }
}

extension EventGroup {
  /// Wraps `event` in its case, or returns nil when it is not a member of the group.
  public init?(_ event: any Event) {
    let type = ObjectIdentifier(Swift.type(of: event))
    for member in Self.members where member.eventType == type {
      if let value = member.wrap(event) {
        self = value
        return
      }
    }
    return nil
  }
}

/// One case of an ``EventGroup``: an event type and the case constructor that wraps it.
public struct EventGroupMember<Group: EventGroup>: Sendable {
  /// The identity of the member event's type.
  public let eventType: ObjectIdentifier
  /// The member event's metatype.
  public let type: any Event.Type
  let wrap: @Sendable (any Event) -> Group?
  let selectorMember: SelectorMember<Group>

  /// Creates a member from an event type and the case that wraps it, as in
  /// `.init(ListingSold.self, ListingEvent.listingSold)`.
  public init<E: Event>(_ type: E.Type, _ wrap: @escaping @Sendable (E) -> Group) {
    self.eventType = ObjectIdentifier(type)
    self.type = type
    self.wrap = { event in (event as? E).map(wrap) }
    self.selectorMember = SelectorMember(type) { wrap($0) }
  }
}
