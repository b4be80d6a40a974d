/// The stored event that a reader of a store is publishing into a bus: its envelope and its
/// position, for the subscribers that run while it publishes.
///
/// A bus hands its subscribers the typed event alone. A subscriber that needs the event's
/// `id`, `source` or time, or its position to save with its own state in one transaction, asks
/// ``of(_:)`` while ``EventConsumer/run(from:into:)`` or
/// `EventsClient.run(from:types:subject:into:)` publishes:
/// ```swift
/// let subscription = bus.subscribe(OrderPlaced.self) { order in
///   guard let delivery = StoreDelivery.of(order) else { return }  // published by this process
///   try? database.transaction { tx in
///     try tx.record(order, eventID: delivery.envelope.id)
///     try tx.savePosition(delivery.position)
///   }
/// }
/// ```
/// It is a task-local value, so only ``EventDelivery/immediate`` subscribers see it: they run
/// inside `publish`. Queued, main-actor and stream subscribers run later, in another task, and
/// see nil; so do, through ``of(_:)``, the subscribers of an event the process publishes
/// itself, even from inside such a subscriber, unless that event is equal to the stored one.
public struct StoreDelivery: Sendable {
  /// The decoded event being published.
  public let event: any Event
  /// The event as stored: its `id`, `source`, time, subject and metadata.
  public let envelope: EventEnvelope
  /// The event's position in its store, as the reader's checkpoint saves it: a `String` token
  /// for `EventsClient`, the store's `Position` for ``EventConsumer``.
  public let position: any Codable & Hashable & Sendable

  /// A delivery, as a reader makes it; public so that a subscriber can be tested alone.
  public init(event: any Event, envelope: EventEnvelope, position: any Codable & Hashable & Sendable) {
    self.event = event
    self.envelope = envelope
    self.position = position
  }

  /// The stored event whose publish runs in this task, or nil. An event that an immediate
  /// subscriber publishes in turn, and a task it starts, inherit it: ``of(_:)`` tells them
  /// apart.
  @TaskLocal public static var current: StoreDelivery?

  /// The delivery of `event`: ``current`` when it is `event`'s (an equal event), nil otherwise,
  /// such as for an event a subscriber publishes while a stored one is being delivered.
  public static func of<E: Event>(_ event: E) -> StoreDelivery? {
    guard let current, let delivered = current.event as? E, delivered == event else { return nil }
    return current
  }
}
