import CTypedEventsRuntime
import Dispatch

/// One subscription's handler, filter and delivery state.
///
/// Immediate subscribers run on the publishing thread. Queued, main-actor and stream
/// subscribers are *ordered*: the bus appends to their ``Mailbox`` under its lock, so they see
/// the one order the bus assigned, and a drain runs the filter and the handler outside every
/// lock. Every handler call, and every call of the filter, passes the ``AdmissionGate`` first,
/// so a delivery already queued when the subscription is cancelled does not run.
final class Subscriber<Value: Sendable>: Sendable {
  private enum Mode: Sendable {
    case immediate(@Sendable (Value) -> Void, newest: NewestSequence?)
    case queue(DispatchQueue, @Sendable (Value) -> Void, Mailbox<Value>)
    case mainActor(@MainActor @Sendable (Value) -> Void, Mailbox<Value>)
    case stream(@Sendable (Value) -> Void, Mailbox<Value>)
  }

  let gate = AdmissionGate()
  private let isIncluded: (@Sendable (Value) -> Bool)?
  private let mode: Mode

  /// - Parameter replay: whether the subscription asked for replay; an immediate one then keeps
  ///   the newest sequence number it delivered, to drop a replay that a live event overtook.
  init(_ handler: EventHandler<Value>, filter: (@Sendable (Value) -> Bool)?, replay: Bool) {
    isIncluded = filter
    switch handler.kind {
    case .immediate(let handler): mode = .immediate(handler, newest: replay ? NewestSequence() : nil)
    case .queue(let queue, let handler): mode = .queue(queue, handler, Mailbox())
    case .mainActor(let handler): mode = .mainActor(handler, Mailbox())
    case .stream(let push): mode = .stream(push, Mailbox())
    }
  }

  /// Whether the bus appends this subscriber's events under its lock instead of delivering them
  /// on the publishing thread.
  var isOrdered: Bool {
    if case .immediate = mode { return false }
    return true
  }

  /// Whether the publishing thread drains this subscriber's mailbox after the bus's lock.
  var drainsOnPublishingThread: Bool {
    if case .stream = mode { return true }
    return false
  }

  // MARK: Immediate delivery, on the publishing thread

  @inline(__always)
  func deliverNow(_ value: Value, sequence: UInt64) {
    guard case .immediate(let handler, let newest) = mode, gate.enter() else { return }
    defer { gate.leave() }
    if let isIncluded, !isIncluded(value) { return }
    if let newest, !newest.advance(to: sequence, isReplay: false) { return }
    handler(value)
  }

  /// Delivers the newest replay candidate that passes the filter, unless a live event reached
  /// the subscriber first.
  func replayNow(_ candidates: [ReplayCandidate<Value>]) {
    guard case .immediate(let handler, let newest) = mode, gate.enter() else { return }
    defer { gate.leave() }
    guard let candidate = candidates.first(where: { isIncluded?($0.value) ?? true }) else { return }
    if let newest, !newest.advance(to: candidate.sequence, isReplay: true) { return }
    handler(candidate.value)
  }

  // MARK: Ordered delivery

  /// Appends to the mailbox and, for a queue or the main actor, schedules a drain if none is
  /// pending. Called under the bus's lock: it runs no code of the subscriber's.
  func enqueue(_ item: Mailbox<Value>.Item) {
    switch mode {
    case .immediate:
      return
    case .queue(let queue, let handler, let mailbox):
      // One drain at a time keeps the events in order even on a concurrent queue.
      if mailbox.append(item, claimingDrain: true) {
        queue.async { mailbox.drain { self.process($0, handler) } }
      }
    case .mainActor(let handler, let mailbox):
      if mailbox.append(item, claimingDrain: true) {
        // The compiler types a block on the main queue as main-actor isolated (the main
        // actor's executor is the main queue), so the handler is called without a cast.
        DispatchQueue.main.async { mailbox.drain { item in self.process(item) { handler($0) } } }
      }
    case .stream(_, let mailbox):
      _ = mailbox.append(item, claimingDrain: false)
    }
  }

  /// For a stream: drains the mailbox on the calling thread unless another thread is at it.
  func drainIfIdle() {
    guard case .stream(let push, let mailbox) = mode, mailbox.claimDrain() else { return }
    mailbox.drain { process($0, push) }
  }

  private func process(_ item: Mailbox<Value>.Item, _ handler: (Value) -> Void) {
    guard gate.enter() else { return }
    defer { gate.leave() }
    switch item {
    case .live(let value):
      if let isIncluded, !isIncluded(value) { return }
      handler(value)
    case .replay(let candidates):
      guard let value = candidates.first(where: { isIncluded?($0) ?? true }) else { return }
      handler(value)
    }
  }
}

/// A latest event offered to a new subscriber, and when it was published.
struct ReplayCandidate<Value: Sendable>: Sendable {
  let value: Value
  let sequence: UInt64
}

/// The newest sequence number an immediate replay subscriber has seen: a replay that runs on
/// the subscribing thread after a live event reached the subscriber is stale and dropped.
final class NewestSequence: @unchecked Sendable {
  private let word = UnsafeMutablePointer<Int>.allocate(capacity: 1)

  init() {
    word.initialize(to: 0)
  }

  deinit {
    word.deallocate()
  }

  /// Records `sequence`; false for a replay that something newer already overtook.
  func advance(to sequence: UInt64, isReplay: Bool) -> Bool {
    let new = Int(truncatingIfNeeded: sequence)
    var seen = typed_events_atomic_load(word)
    while seen < new {
      if typed_events_atomic_compare_exchange(word, &seen, new) { return true }
    }
    return !isReplay
  }
}
