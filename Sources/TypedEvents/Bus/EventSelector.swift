/// What a subscription receives: a set of event types and how each becomes the value a handler
/// takes. One event type selects itself; a group selects its members, wrapped in their cases.
///
/// Members stay typed (`(E) -> Value?`), so delivering an event neither boxes it in an
/// existential nor casts it.
public struct EventSelector<Value: Sendable>: Sendable {
  let members: [SelectorMember<Value>]

  /// Only the values for which `isIncluded` returns true.
  public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> EventSelector<Value> {
    EventSelector(members: members.map { $0.filter(isIncluded) })
  }
}

extension EventSelector where Value: Event {
  /// Events of type `type`.
  public static func event(_ type: Value.Type) -> EventSelector<Value> {
    EventSelector(members: [SelectorMember(type) { $0 }])
  }
}

extension EventSelector where Value: EventGroup {
  /// Every member event of group `type`, wrapped in its case.
  public static func group(_ type: Value.Type) -> EventSelector<Value> {
    EventSelector(members: Value.members.map(\.selectorMember))
  }
}

/// One event type of a selector, with its typed conversion, able to attach itself to the bus's
/// channel for that type.
struct SelectorMember<Value: Sendable>: Sendable {
  let eventType: ObjectIdentifier
  /// Adds an entry to the event type's channel; returns the replay delivery, if asked for and
  /// the channel has a latest event.
  let attach:
    @Sendable (_ channels: inout ChannelTable, _ entry: EntryIdentity, _ sink: Sink<Value>, _ replay: Bool) -> Replay?

  init<E: Event>(_ type: E.Type, _ convert: @escaping @Sendable (E) -> Value) {
    eventType = ObjectIdentifier(type)
    attach = { channels, identity, sink, replay in
      let channel = channels.channel(for: E.self)
      channel.entries.append(
        Channel<E>.Entry(identity: identity) { event, sequence in
          sink.receive(convert(event), sequence, false)
        })
      guard replay, let latest = channel.latest else { return nil }
      return Replay(sequence: latest.sequence) {
        sink.receive(convert(latest.event), latest.sequence, true)
      }
    }
  }

  private init(
    eventType: ObjectIdentifier,
    attach: @escaping @Sendable (inout ChannelTable, EntryIdentity, Sink<Value>, Bool) -> Replay?
  ) {
    self.eventType = eventType
    self.attach = attach
  }

  func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> SelectorMember<Value> {
    let attach = self.attach
    return SelectorMember(eventType: eventType) { channels, identity, sink, replay in
      attach(&channels, identity, sink.filtered(isIncluded), replay)
    }
  }
}

/// A latest event to deliver first, and when it was published.
struct Replay: Sendable {
  let sequence: UInt64
  let deliver: @Sendable () -> Void
}
