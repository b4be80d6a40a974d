/// An event as a reader of a store delivers it: the typed event, its envelope, and its position.
///
/// The position is what to save to go on after the event: in an ``EventCheckpoint``, or in a
/// table of your own, in the same transaction as the state the event changed, which is how an
/// effect is made exactly once. It is `Codable`: store it as JSON, or, for `EventsClient`'s
/// `String` token, as text.
public struct StoredEvent<Position: Hashable & Sendable & Codable>: Sendable {
  /// The decoded event.
  public let event: any Event
  /// The event as stored: its `id`, `source`, time, subject and metadata.
  public let envelope: EventEnvelope
  /// The event's place in its store: reading after it gives the events that follow.
  public let position: Position

  /// A delivery, as a reader makes it; public so that a handler can be tested alone.
  public init(event: any Event, envelope: EventEnvelope, position: Position) {
    self.event = event
    self.envelope = envelope
    self.position = position
  }

  /// Runs `body` with this event as ``StoreDelivery/current``, for the immediate subscribers of
  /// a bus it publishes to.
  public func withStoreDelivery<Result>(_ body: () throws -> Result) rethrows -> Result {
    try StoreDelivery.$current.withValue(
      StoreDelivery(event: event, envelope: envelope, position: position), operation: body)
  }
}

/// A checkpoint held in memory: it starts at the position it is given and keeps what is saved
/// until the process ends. For a reader that starts from a position the app keeps itself, and
/// for tests.
public final class MemoryCheckpoint<Position: Hashable & Sendable & Codable>: EventCheckpoint {
  private let position: Locked<Position?>

  /// A checkpoint whose ``load()`` gives `position` (nil: the store's beginning) until a save.
  public init(_ position: Position? = nil) {
    self.position = Locked(position)
  }

  public func load() async throws -> Position? {
    position.withLock { $0 }
  }

  public func save(_ position: Position) async throws {
    self.position.withLock { $0 = position }
  }

  /// Keeps `position`, as ``save(_:)`` does: memory costs nothing to write.
  public func noteHandled(_ position: Position) async throws {
    try await save(position)
  }
}
