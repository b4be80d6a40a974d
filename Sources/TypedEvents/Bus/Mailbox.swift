/// The events waiting for one queued, main-actor or stream subscriber, in the bus's order.
///
/// The bus appends under its own lock, so the order here is the one order the bus assigned to
/// its publishes, whichever threads published. One drain at a time takes them out and runs the
/// subscription's filter and handler outside every lock; `draining` says a drain is running or
/// scheduled, so the next append knows not to schedule another.
@usableFromInline
final class Mailbox<Value: Sendable>: Sendable {
  @usableFromInline
  enum Item {
    case live(Value)
    /// Replay candidates, newest first: the first that passes the filter is delivered.
    case replay([Value])
  }

  private struct State {
    var items: [Item] = []
    var head = 0
    var draining = false
  }

  private let state = Locked(State())

  /// Appends an item; returns true if the caller must start a drain (none was running).
  func append(_ item: Item, claimingDrain: Bool) -> Bool {
    state.withLock { state in
      state.items.append(item)
      guard claimingDrain, !state.draining else { return false }
      state.draining = true
      return true
    }
  }

  /// Claims the drain for the calling thread; false if another drain is running or scheduled.
  func claimDrain() -> Bool {
    state.withLock { state in
      guard !state.draining, state.head < state.items.count else { return false }
      state.draining = true
      return true
    }
  }

  /// Takes items out until none is left, then releases the drain. Only the claimant calls it.
  /// An item appended while `body` runs (a handler that publishes) is taken by this same loop.
  func drain(_ body: (Item) -> Void) {
    while let item = next() {
      body(item)
    }
  }

  private func next() -> Item? {
    state.withLock { state in
      guard state.head < state.items.count else {
        state.draining = false
        state.items.removeAll(keepingCapacity: state.items.count <= 64)
        state.head = 0
        return nil
      }
      let item = state.items[state.head]
      state.head += 1
      // Compact now and then instead of shifting on every take.
      if state.head > 64 && state.head * 2 > state.items.count {
        state.items.removeFirst(state.head)
        state.head = 0
      }
      return item
    }
  }
}
