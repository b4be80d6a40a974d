/// Identifies the entries that one subscription added, so that cancelling removes them all.
@usableFromInline typealias EntryIdentity = ObjectIdentifier

/// The subscribers of one event type, in subscription order, and what it keeps for replay.
/// Guarded by the bus's lock.
@usableFromInline
class AnyChannel {
  @usableFromInline init() {}
  func remove(_ identity: EntryIdentity) {}
}

@usableFromInline
final class Channel<E: Event>: AnyChannel {
  @usableFromInline
  struct Entry {
    @usableFromInline let identity: EntryIdentity
    @usableFromInline let deliver: @Sendable (E, UInt64) -> Void

    @usableFromInline
    init(identity: EntryIdentity, deliver: @escaping @Sendable (E, UInt64) -> Void) {
      self.identity = identity
      self.deliver = deliver
    }
  }

  // Guarded by the bus's lock, which makes dynamic exclusivity checks redundant on this hot path.
  /// Called after the lock is released, on the publishing thread: immediate subscribers, and the
  /// drains of stream subscribers.
  @exclusivity(unchecked) @usableFromInline var entries: ContiguousArray<Entry> = []
  /// Called under the lock: they only append to an ordered subscriber's mailbox.
  @exclusivity(unchecked) @usableFromInline var orderedEntries: ContiguousArray<Entry> = []
  /// The latest event published and its sequence number (0: none yet), if the bus keeps it.
  @exclusivity(unchecked) @usableFromInline var latestEvent: E?
  @exclusivity(unchecked) @usableFromInline var latestSequence: UInt64 = 0
  /// The latest event about each subject, for the types the app asked it for.
  @exclusivity(unchecked) @usableFromInline var subjects: LatestBySubject<E>?

  @usableFromInline override init() {}

  /// A channel that keeps what the event type declares: the latest event per subject, for a
  /// type whose schema says `replay: { per-subject: N }`. Once per type and bus, so the dynamic
  /// cast stays off the publishing path.
  @usableFromInline
  static func declared() -> Channel<E> {
    let channel = Channel<E>()
    if let identifiable = E.self as? any (Event & SubjectIdentifiable).Type {
      channel.subjects = Self.latestBySubject(identifiable)
    }
    return channel
  }

  private static func latestBySubject<T: Event & SubjectIdentifiable>(_ type: T.Type) -> LatestBySubject<E>? {
    guard let limit = T.latestKeptPerSubject else { return nil }
    return LatestBySubject<T>(limit: Swift.max(limit, 1)) { SubjectKey($0.eventSubject) } as? LatestBySubject<E>
  }

  @inlinable
  func record(_ event: E, _ sequence: UInt64, keepsLatest: Bool) {
    if keepsLatest {
      latestEvent = event
      latestSequence = sequence
    }
    if let subjects {
      subjects.record(event, sequence)
    }
  }

  /// The event a replay about `subject` (or about anything, if nil) starts from.
  @usableFromInline
  func replay(about subject: SubjectKey?) -> (event: E, sequence: UInt64)? {
    if let subject, let subjects, let latest = subjects.latest(about: subject) {
      return latest
    }
    // Without per-subject state, the type's latest event is still right when it is about the
    // subject: the subscription's filter decides.
    return latestEvent.map { ($0, latestSequence) }
  }

  override func remove(_ identity: EntryIdentity) {
    entries.removeAll { $0.identity == identity }
    orderedEntries.removeAll { $0.identity == identity }
  }
}

/// Channels by event type.
@usableFromInline
struct ChannelTable {
  @usableFromInline var channels: [ObjectIdentifier: AnyChannel] = [:]
  /// Increases with every publish: the bus's one order, and how a replay tells it is stale.
  @usableFromInline var sequence: UInt64 = 0
  @usableFromInline let keepsLatest: Bool

  @usableFromInline init(keepsLatest: Bool) {
    self.keepsLatest = keepsLatest
  }

  @inlinable
  mutating func channel<E: Event>(for type: E.Type) -> Channel<E> {
    let key = ObjectIdentifier(type)
    if let existing = channels[key] {
      // Only `Channel<E>` is ever stored under `E`'s identifier.
      return unsafeDowncast(existing, to: Channel<E>.self)
    }
    let channel = Channel<E>.declared()
    channels[key] = channel
    return channel
  }

  func existingChannel(for key: ObjectIdentifier) -> AnyChannel? {
    channels[key]
  }
}
