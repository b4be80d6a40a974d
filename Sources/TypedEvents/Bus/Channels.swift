import Foundation

/// Identifies the entries that one subscription added, so that cancelling removes them all.
typealias EntryIdentity = ObjectIdentifier

/// The subscribers of one event type, in subscription order, and its latest event.
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
    let identity: EntryIdentity
    @usableFromInline let deliver: @Sendable (E, UInt64) -> Void
  }

  // Guarded by the bus's lock, which makes dynamic exclusivity checks redundant on this hot path.
  @exclusivity(unchecked) @usableFromInline var entries: ContiguousArray<Entry> = []
  /// The latest event published and its sequence number (0: none yet).
  @exclusivity(unchecked) @usableFromInline var latestEvent: E?
  @exclusivity(unchecked) @usableFromInline var latestSequence: UInt64 = 0

  @usableFromInline override init() {}

  /// The latest event, if any.
  var latest: (event: E, sequence: UInt64)? { latestEvent.map { ($0, latestSequence) } }

  override func remove(_ identity: EntryIdentity) {
    entries.removeAll { $0.identity == identity }
  }
}

/// Channels by event type.
@usableFromInline
struct ChannelTable {
  @usableFromInline var channels: [ObjectIdentifier: AnyChannel] = [:]
  /// Increases with every publish, so that a replayed event can tell whether it is stale.
  @usableFromInline var sequence: UInt64 = 0

  @usableFromInline init() {}

  @inlinable
  mutating func channel<E: Event>(for type: E.Type) -> Channel<E> {
    let key = ObjectIdentifier(type)
    if let existing = channels[key] {
      // Only `Channel<E>` is ever stored under `E`'s identifier.
      return unsafeDowncast(existing, to: Channel<E>.self)
    }
    let channel = Channel<E>()
    channels[key] = channel
    return channel
  }

  func existingChannel(for key: ObjectIdentifier) -> AnyChannel? {
    channels[key]
  }
}
