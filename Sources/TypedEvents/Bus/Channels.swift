import Foundation

/// Identifies the entries that one subscription added, so that cancelling removes them all.
typealias EntryIdentity = ObjectIdentifier

/// Where a channel entry sends a converted event: the subscriber's receive function.
struct Sink<Value: Sendable>: Sendable {
  /// `(value, sequence, isReplay)`.
  let receive: @Sendable (Value, UInt64, Bool) -> Void

  func filtered(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Sink<Value> {
    let receive = self.receive
    return Sink { value, sequence, isReplay in
      if isIncluded(value) { receive(value, sequence, isReplay) }
    }
  }
}

/// The subscribers of one event type, in subscription order, and its latest event.
/// Guarded by the bus's lock.
class AnyChannel {
  func remove(_ identity: EntryIdentity) {}
}

final class Channel<E: Event>: AnyChannel {
  struct Entry {
    let identity: EntryIdentity
    let deliver: @Sendable (E, UInt64) -> Void
  }

  var entries: ContiguousArray<Entry> = []
  var latest: (event: E, sequence: UInt64)?

  override func remove(_ identity: EntryIdentity) {
    entries.removeAll { $0.identity == identity }
  }
}

/// Channels by event type.
struct ChannelTable {
  private var channels: [ObjectIdentifier: AnyChannel] = [:]
  /// Increases with every publish, so that a replayed event can tell whether it is stale.
  var sequence: UInt64 = 0

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
