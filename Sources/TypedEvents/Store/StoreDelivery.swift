/// The stored event that a reader of a store is publishing into a bus: its envelope and its
/// position, for the subscribers that run while it publishes.
///
/// A bus hands its subscribers the typed event alone. A subscriber that needs the event's
/// `id`, `source` or time, or its position to save with its own state in one transaction, reads
/// ``current`` while ``EventConsumer/run(from:into:)`` or `EventsClient.run(from:types:subject:into:)`
/// publishes:
/// ```swift
/// bus.subscribe(OrderPlaced.self) { order in
///   guard let delivery = StoreDelivery.current else { return }  // published by this process
///   try? database.transaction { tx in
///     tx.record(order, eventID: delivery.envelope.id)
///     tx.savePosition(delivery.position as? String)
///   }
/// }
/// ```
/// It is a task-local value, so only ``EventDelivery/immediate`` subscribers see it: they run
/// inside `publish`. Queued, main-actor and stream subscribers run later, in another task, and
/// see nil; so does every subscriber of an event published by the process itself.
public struct StoreDelivery: Sendable {
  /// The event as stored: its `id`, `source`, time, subject and metadata.
  public let envelope: EventEnvelope
  /// The event's position in its store, as the reader's checkpoint saves it: a `String` token
  /// for `EventsClient`, the store's `Position` for ``EventConsumer``.
  public let position: any Codable & Hashable & Sendable

  /// A delivery, as a reader makes it; public so that a subscriber can be tested alone.
  public init(envelope: EventEnvelope, position: any Codable & Hashable & Sendable) {
    self.envelope = envelope
    self.position = position
  }

  /// The stored event being published in this task, or nil.
  @TaskLocal public static var current: StoreDelivery?
}
