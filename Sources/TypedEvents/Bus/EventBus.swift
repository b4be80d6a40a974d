/// A typed, thread-safe, notification-style event bus.
///
/// ```swift
/// let bus = EventBus()
/// let subscription = bus.subscribe(ListingSold.self) { sold in print(sold.id) }
/// bus.publish(ListingSold(id: "l-1", price: price, soldAt: .now))
/// ```
///
/// ## Order
/// - Immediate subscribers run on the publishing thread, before `publish(_:)` returns, in the
///   order they subscribed (subscribers of the event type and of its groups alike).
/// - A publish from inside a handler is delivered at once, depth first: its subscribers run
///   before the outer publish moves on to its next subscriber, as with `NotificationCenter`.
/// - A subscription made inside a handler does not receive the event being delivered (unless
///   it asks for replay, which delivers the latest event: that one); a subscription cancelled
///   inside a handler receives nothing more, even from the publish in progress.
/// - Every subscriber receives its events in publish order (FIFO), in every delivery mode.
/// - A replayed event is never delivered twice, and is dropped if a newer event reached the
///   subscriber first. With immediate delivery it runs on the subscribing thread, so it may
///   overlap a live event that a publisher delivers on its own thread at that moment.
///
/// Locks are never held while a handler runs, so handlers may publish, subscribe and cancel.
public final class EventBus: EventPublishing, EventObserving {
  @usableFromInline let channels = Locked(ChannelTable())

  /// Creates an empty bus.
  public init() {}

  // Inlinable so that it is specialised for `E` in the caller: unspecialised, every publish
  // looked up the metadata of `Channel<E>` and its tuples at run time, most of its cost.
  @inlinable
  public func publish<E: Event>(_ event: E) {
    let (entries, sequence) = channels.withLock { table in
      table.sequence &+= 1
      let channel = table.channel(for: E.self)
      channel.latestEvent = event
      channel.latestSequence = table.sequence
      return (channel.entries, table.sequence)
    }
    for entry in entries {
      entry.deliver(event, sequence)
    }
  }

  public func subscribe<Value: Sendable>(
    _ selector: EventSelector<Value>, delivery: EventDelivery, replay: Bool,
    _ handler: @escaping @Sendable (Value) -> Void
  ) -> EventSubscription {
    let subscriber = Subscriber(delivery: delivery, replay: replay, handler: handler)
    let identity = ObjectIdentifier(subscriber)
    let sink = subscriber.sink
    let replays = channels.withLock { table in
      selector.members.compactMap { $0.attach(&table, identity, sink, replay) }
    }
    // Of a group's members, only the most recently published one is the current value.
    replays.max { $0.sequence < $1.sequence }?.deliver()
    let eventTypes = selector.members.map(\.eventType)
    return EventSubscription { [channels] in
      channels.withLock { table in
        for type in eventTypes { table.existingChannel(for: type)?.remove(identity) }
      }
      subscriber.deactivate()
    }
  }

  /// The latest event of type `type` published on this bus, if any.
  public func latest<E: Event>(_ type: E.Type) -> E? {
    channels.withLock { $0.channel(for: type).latest?.event }
  }
}
