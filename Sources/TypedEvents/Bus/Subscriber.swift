import CTypedEventsRuntime
import Dispatch

/// One subscription's handler, filter and delivery state.
///
/// Immediate subscribers run on the publishing thread. Queued, main-actor and stream
/// subscribers are *ordered*: the bus appends to their ``Mailbox`` under its lock, so they see
/// the one order the bus assigned, and a drain runs the filter and the handler outside every
/// lock. Every handler call, and every call of the filter, passes the ``AdmissionGate`` first,
/// so a delivery already queued when the subscription is cancelled does not run.
@usableFromInline
final class Subscriber<Value: Sendable>: Sendable {
  /// How an ordered subscriber's mailbox is drained.
  private enum Drain: Sendable {
    case queue(DispatchQueue, @Sendable (Value) -> Void)
    case mainActor(@MainActor @Sendable (Value) -> Void)
    case stream(@Sendable (Value) -> Void)
    /// A stream without a filter: the bus pushes into its buffer under the lock, since no code
    /// of the subscriber's runs there. (Through the mailbox, a consumer that kept up was woken
    /// for every event: six times slower.)
    case streamDirect(@Sendable (Value) -> Void)
  }

  @usableFromInline let gate = AdmissionGate()
  @usableFromInline let isIncluded: (@Sendable (Value) -> Bool)?
  // The immediate path reads stored properties only: taking a closure out of an enum payload
  // retained and released it on every delivery.
  /// The handler of an immediate subscriber (unused by ordered ones).
  @usableFromInline let handler: @Sendable (Value) -> Void
  /// The newest sequence number delivered, kept by an immediate subscriber that asked for replay.
  @usableFromInline let newest: NewestSequence?
  private let mailbox: Mailbox<Value>?
  private let drain: Drain?

  /// - Parameter replay: whether the subscription asked for replay; an immediate one then keeps
  ///   the newest sequence number it delivered, to drop a replay that a live event overtook.
  init(_ handler: EventHandler<Value>, filter: (@Sendable (Value) -> Bool)?, replay: Bool) {
    isIncluded = filter
    switch handler.kind {
    case .immediate(let handler):
      (self.handler, newest, mailbox, drain) = (handler, replay ? NewestSequence() : nil, nil, nil)
    case .queue(let queue, let handler):
      (self.handler, newest, mailbox, drain) = ({ _ in }, nil, Mailbox(), .queue(queue, handler))
    case .mainActor(let handler):
      (self.handler, newest, mailbox, drain) = ({ _ in }, nil, Mailbox(), .mainActor(handler))
    case .stream(let push) where filter == nil:
      (self.handler, newest, mailbox, drain) = ({ _ in }, nil, nil, .streamDirect(push))
    case .stream(let push):
      (self.handler, newest, mailbox, drain) = ({ _ in }, nil, Mailbox(), .stream(push))
    }
  }

  /// Whether the bus appends this subscriber's events under its lock instead of delivering them
  /// on the publishing thread.
  @usableFromInline var isOrdered: Bool { drain != nil }

  /// Whether the publishing thread drains this subscriber's mailbox after the bus's lock.
  @usableFromInline var drainsOnPublishingThread: Bool {
    if case .stream = drain { return true }
    return false
  }

  // MARK: Immediate delivery, on the publishing thread

  @inlinable
  func deliverNow(_ value: Value, sequence: UInt64) {
    guard gate.enter() else { return }
    defer { gate.leave() }
    if let isIncluded, !isIncluded(value) { return }
    if let newest, !newest.advance(to: sequence, isReplay: false) { return }
    handler(value)
  }

  /// Delivers the newest replay candidate that passes the filter, unless a live event reached
  /// the subscriber first.
  func replayNow(_ candidates: [ReplayCandidate<Value>]) {
    guard gate.enter() else { return }
    defer { gate.leave() }
    guard let candidate = candidates.first(where: { isIncluded?($0.value) ?? true }) else { return }
    if let newest, !newest.advance(to: candidate.sequence, isReplay: true) { return }
    handler(candidate.value)
  }

  // MARK: Ordered delivery

  /// Appends to the mailbox and, for a queue or the main actor, schedules a drain if none is
  /// pending. Called under the bus's lock: it runs no code of the subscriber's.
  @usableFromInline
  func enqueue(_ item: Mailbox<Value>.Item) {
    if case .streamDirect(let push) = drain {
      guard !gate.isClosed else { return }
      switch item {
      case .live(let value): push(value)
      case .replay(let candidates): if let newest = candidates.first { push(newest) }
      }
      return
    }
    guard let mailbox, let drain else { return }
    switch drain {
    case .queue(let queue, let handler):
      // One drain at a time keeps the events in order even on a concurrent queue.
      if mailbox.append(item, claimingDrain: true) {
        queue.async { mailbox.drain { self.process($0, handler) } }
      }
    case .mainActor(let handler):
      if mailbox.append(item, claimingDrain: true) {
        // The compiler types a block on the main queue as main-actor isolated (the main
        // actor's executor is the main queue), so the handler is called without a cast.
        DispatchQueue.main.async { mailbox.drain { item in self.process(item) { handler($0) } } }
      }
    case .stream:
      _ = mailbox.append(item, claimingDrain: false)
    case .streamDirect:
      break
    }
  }

  /// For a stream: drains the mailbox on the calling thread unless another thread is at it.
  @usableFromInline
  func drainIfIdle() {
    guard case .stream(let push) = drain, let mailbox, mailbox.claimDrain() else { return }
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
@usableFromInline
struct ReplayCandidate<Value: Sendable>: Sendable {
  let value: Value
  let sequence: UInt64

  @usableFromInline
  init(value: Value, sequence: UInt64) {
    self.value = value
    self.sequence = sequence
  }
}

/// The newest sequence number an immediate replay subscriber has seen: a replay that runs on
/// the subscribing thread after a live event reached the subscriber is stale and dropped.
@usableFromInline
final class NewestSequence: @unchecked Sendable {
  private let word = UnsafeMutablePointer<Int>.allocate(capacity: 1)

  init() {
    word.initialize(to: 0)
  }

  deinit {
    word.deallocate()
  }

  /// Records `sequence`; false for a replay that something newer already overtook.
  @usableFromInline
  func advance(to sequence: UInt64, isReplay: Bool) -> Bool {
    let new = Int(truncatingIfNeeded: sequence)
    var seen = typed_events_atomic_load(word)
    while seen < new {
      if typed_events_atomic_compare_exchange(word, &seen, new) { return true }
    }
    return !isReplay
  }
}
