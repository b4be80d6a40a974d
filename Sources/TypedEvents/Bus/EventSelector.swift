/// What a subscription receives: a set of event types and how each becomes the value a handler
/// takes. One event type selects itself; a group selects its members, wrapped in their cases.
///
/// Members stay typed (`(E) -> Value?`), so delivering an event neither boxes it in an
/// existential nor casts it.
public struct EventSelector<Value: Sendable>: Sendable {
  @usableFromInline let members: [SelectorMember<Value>]
  /// Applied when a delivery is admitted, never under the bus's lock.
  @usableFromInline let isIncluded: (@Sendable (Value) -> Bool)?
  /// The subject an `about(_:)` selector is limited to: replay looks up its latest event.
  @usableFromInline let subject: SubjectKey?

  @usableFromInline
  init(members: [SelectorMember<Value>], isIncluded: (@Sendable (Value) -> Bool)? = nil, subject: SubjectKey? = nil) {
    self.members = members
    self.isIncluded = isIncluded
    self.subject = subject
  }

  /// Only the values for which `isIncluded` returns true.
  ///
  /// The filter runs where the handler does, just before it and only for a delivery that was
  /// admitted (see ``EventSubscription/cancel()``): on the publishing thread for immediate
  /// delivery, on the queue or the main actor otherwise.
  public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> EventSelector<Value> {
    let combined: @Sendable (Value) -> Bool
    if let first = self.isIncluded {
      combined = { value in first(value) && isIncluded(value) }
    } else {
      combined = isIncluded
    }
    return EventSelector(members: members, isIncluded: combined, subject: subject)
  }
}

extension EventSelector where Value: Event {
  /// Events of type `type`.
  // Inlinable, with the member it makes, so that the delivery path is specialised for the
  // event type in the subscriber's module: unspecialised, it copied events through value
  // witnesses.
  @inlinable
  public static func event(_ type: Value.Type) -> EventSelector<Value> {
    EventSelector(members: [SelectorMember(type) { $0 }])
  }
}

extension EventSelector where Value: Event & SubjectIdentifiable {
  /// Events of type `Value` about `subject` only: `.event(Value.self).about(subject)`, for the
  /// generated filter helpers.
  // Kept out of the generated module, unlike `event(_:)`: every subject-bearing event type gets
  // a generated helper, and a body the optimizer can see there (release builds serialise small
  // public functions on their own) specialises the delivery path for each of them, used or not:
  // a clean release build of 300 events took a third longer.
  @_spi(Generated)
  @_semantics("optimize.no.crossmodule")
  public static func _event(about subject: Value.EventSubject) -> EventSelector<Value> {
    event(Value.self).about(subject)
  }
}

extension EventSelector where Value: EventGroup {
  /// Every member event of group `type`, wrapped in its case.
  public static func group(_ type: Value.Type) -> EventSelector<Value> {
    EventSelector(members: Value.members.map(\.selectorMember))
  }
}

extension EventSelector where Value: SubjectIdentifiable {
  /// Only the values about `subject`. Replay delivers the latest event about `subject`: kept
  /// per subject for the types an ``EventBus`` keeps that for
  /// (``EventBus/keepLatestPerSubject(_:limit:)``), otherwise the type's latest event if it is
  /// about `subject`.
  public func about(_ subject: Value.EventSubject) -> EventSelector<Value> {
    let selector = filter { $0.eventSubject == subject }
    return EventSelector(members: selector.members, isIncluded: selector.isIncluded, subject: SubjectKey(subject))
  }
}

/// How far back a new subscription reaches.
@usableFromInline
enum ReplayRequest {
  case none
  case latest
  case about(SubjectKey)
}

/// One event type of a selector, with its typed conversion, able to attach a subscriber to the
/// bus's channel for that type.
@usableFromInline
struct SelectorMember<Value: Sendable>: Sendable {
  @usableFromInline let eventType: ObjectIdentifier
  /// Adds the subscriber's entries to the event type's channel; returns the channel's replay
  /// candidate, if asked for and there is one, and the event type when the replay is about a
  /// subject the channel keeps nothing per subject for.
  @usableFromInline let attach:
    @Sendable (_ channels: inout ChannelTable, _ subscriber: Subscriber<Value>, _ replay: ReplayRequest) ->
      (candidate: ReplayCandidate<Value>?, unkept: (any Event.Type)?)

  @inlinable
  init<E: Event>(_ type: E.Type, _ convert: @escaping @Sendable (E) -> Value) {
    eventType = ObjectIdentifier(type)
    attach = { channels, subscriber, replay in
      let channel = channels.channel(for: E.self)
      let identity = ObjectIdentifier(subscriber)
      if subscriber.isOrdered {
        channel.orderedEntries.append(
          Channel<E>.Entry(identity: identity) { event, _ in subscriber.enqueue(.live(convert(event))) })
        if subscriber.drainsOnPublishingThread {
          channel.entries.append(Channel<E>.Entry(identity: identity) { _, _ in subscriber.drainIfIdle() })
        }
      } else {
        channel.entries.append(
          Channel<E>.Entry(identity: identity) { event, sequence in
            subscriber.deliverNow(convert(event), sequence: sequence)
          })
      }
      let latest: (event: E, sequence: UInt64)?
      var unkept: (any Event.Type)?
      switch replay {
      case .none: latest = nil
      case .latest: latest = channel.replay(about: nil)
      case .about(let subject):
        latest = channel.replay(about: subject)
        if channel.subjects == nil { unkept = E.self }
      }
      return (latest.map { ReplayCandidate(value: convert($0.event), sequence: $0.sequence) }, unkept)
    }
  }
}
