import Dispatch

/// A typed, thread-safe, notification-style event bus.
///
/// ```swift
/// let bus = EventBus()
/// let subscription = bus.subscribe(ListingSold.self) { sold in print(sold.id) }
/// bus.publish(ListingSold(id: "l-1", price: price, soldAt: .now))
/// ```
///
/// ## Order
/// Every publish takes the next number of one sequence, under the bus's lock.
/// - **Immediate** subscribers run on the publishing thread, before `publish(_:)` returns, in the
///   order they subscribed (subscribers of the event type and of its groups alike). A subscriber
///   sees each publishing thread's events in that thread's order; events that two threads
///   publish at the same moment may reach it in either order, and its handler may run on both
///   threads at once (as with `NotificationCenter`).
/// - **Queued, main-actor and stream** subscribers receive every event in the bus's one order,
///   whichever threads published: the bus appends to each one's mailbox while it holds the lock
///   that numbers the publish, and hands them over one at a time, outside every lock.
/// - A publish from inside a handler is delivered at once to immediate subscribers, depth first:
///   they run before the outer publish moves on to its next subscriber, as with
///   `NotificationCenter`.
/// - A subscription made inside a handler does not receive the event being delivered (unless
///   it asks for replay, which delivers the latest event: that one); a subscription cancelled
///   inside a handler receives nothing more, even from the publish in progress.
/// - A replayed event comes first for queued, main-actor and stream subscribers. For an
///   immediate one it runs on the subscribing thread, is never delivered twice, and is dropped
///   if a newer event reached the subscriber first; it may overlap a live event that another
///   thread delivers at that moment.
///
/// Locks are never held while a handler or a filter runs, so handlers may publish, subscribe and
/// cancel.
///
/// ## Replay and memory
/// The bus keeps the latest event of each type published, one per type, for `replay: true` and
/// ``latest(_:)``; `EventBus(keepsLatestEvents: false)` keeps none. For a type whose
/// subscribers replay *about one subject* (a screen that shows listing `a` wants listing `a`'s
/// latest state, not the latest listing's), the bus keeps the latest event about each subject,
/// up to a limit, when the schema declares it (`replay: { per-subject: N }` on the event or its
/// group, read from ``SubjectIdentifiable/latestKeptPerSubject``) or the app asks with
/// ``keepLatestPerSubject(_:limit:)``; other types cost nothing more per publish. A replay about
/// a subject of a type that keeps nothing per subject is reported once per type, through
/// ``UnkeptSubjectReplay/handler``.
public final class EventBus: EventPublishing, EventObserving {
  @usableFromInline let channels: Locked<ChannelTable>

  /// Creates an empty bus.
  ///
  /// - Parameter keepsLatestEvents: whether to keep the latest event of each type for replay
  ///   and ``latest(_:)``. With `false`, `replay: true` delivers only what is kept per subject.
  public init(keepsLatestEvents: Bool = true) {
    channels = Locked(ChannelTable(keepsLatest: keepsLatestEvents))
  }

  // Inlinable so that it is specialised for `E` in the caller: unspecialised, every publish
  // looked up the metadata of `Channel<E>` and its tuples at run time, most of its cost.
  @inlinable
  public func publish<E: Event>(_ event: E) {
    let (entries, sequence) = channels.withLock { table in
      table.sequence &+= 1
      let channel = table.channel(for: E.self)
      channel.record(event, table.sequence, keepsLatest: table.keepsLatest)
      // Ordered subscribers get the event under the lock that numbered it: one order for all.
      for entry in channel.orderedEntries { entry.deliver(event, table.sequence) }
      return (channel.entries, table.sequence)
    }
    for entry in entries {
      entry.deliver(event, sequence)
    }
  }

  public func subscribe<Value: Sendable>(
    _ selector: EventSelector<Value>, replay: Bool, _ handler: EventHandler<Value>
  ) -> EventSubscription {
    let subscriber = Subscriber(handler, filter: selector.isIncluded, replay: replay)
    let request: ReplayRequest = replay ? selector.subject.map { .about($0) } ?? .latest : .none
    let (candidates, unkept) = channels.withLock { table in
      let attached = selector.members.map { $0.attach(&table, subscriber, request) }
      // Of a group's members, only the most recently published one is the current value.
      let candidates = attached.compactMap(\.candidate).sorted { $0.sequence > $1.sequence }
      // Under the lock, so that the replay comes before every live event.
      if subscriber.isOrdered && !candidates.isEmpty {
        subscriber.enqueue(.replay(candidates.map(\.value)))
      }
      return (candidates, attached.compactMap(\.unkept))
    }
    for type in unkept { UnkeptSubjectReplay.report(type) }
    if !subscriber.isOrdered && !candidates.isEmpty {
      subscriber.replayNow(candidates)
    }
    subscriber.drainIfIdle()
    let identity = ObjectIdentifier(subscriber)
    let eventTypes = selector.members.map(\.eventType)
    return EventSubscription(gate: subscriber.gate) { [channels] in
      let remove = { @Sendable (table: inout ChannelTable) in
        for type in eventTypes { table.existingChannel(for: type)?.remove(identity) }
      }
      // The gate is closed already, so the entries are inert. A stream released while the bus
      // pushes into it under its lock cancels from that very thread: removing later, on another
      // thread, keeps it from waiting for a lock it holds.
      if !channels.withLockIfAvailable(remove) {
        DispatchQueue.global().async { channels.withLock(remove) }
      }
    }
  }

  /// From now on, keeps the latest event about each subject of `type`, so that
  /// `replay: true` about a subject delivers it (``EventSelector/about(_:)``, the `about:`
  /// forms and the generated filter helpers). A type whose schema declares
  /// `replay: { per-subject: N }` is kept without this call; call it for a hand-written event, or
  /// for another limit.
  ///
  /// Memory is bounded: at most `limit` subjects are kept; when a new subject would exceed it,
  /// the subject published least recently is forgotten, and its events can no longer be
  /// replayed. Each publish of `type` then costs a dictionary update under the bus's lock;
  /// other types are not affected. Call it before publishing: only later events are kept.
  /// Calling it again changes the limit and forgets what was kept. A limit below one counts as one.
  public func keepLatestPerSubject<E: Event & SubjectIdentifiable>(_ type: E.Type, limit: Int = 10_000) {
    channels.withLock { table in
      table.channel(for: type).subjects = LatestBySubject(limit: Swift.max(limit, 1)) { SubjectKey($0.eventSubject) }
    }
  }

  /// The latest event of type `type` published on this bus, if it keeps one.
  public func latest<E: Event>(_ type: E.Type) -> E? {
    channels.withLock { $0.channel(for: type).latestEvent }
  }

  /// The latest event of type `type` about `subject`, if the bus keeps it (see
  /// ``keepLatestPerSubject(_:limit:)``; otherwise the type's latest event if it is about `subject`).
  public func latest<E: Event & SubjectIdentifiable>(_ type: E.Type, about subject: E.EventSubject) -> E? {
    let event = channels.withLock { $0.channel(for: type).replay(about: SubjectKey(subject))?.event }
    return event.flatMap { $0.eventSubject == subject ? $0 : nil }
  }

  /// How many subjects of `type` have a latest event kept: at most the limit given to
  /// ``keepLatestPerSubject(_:limit:)``.
  public func keptSubjectCount<E: Event & SubjectIdentifiable>(_ type: E.Type) -> Int {
    channels.withLock { $0.channel(for: type).subjects?.count ?? 0 }
  }
}
