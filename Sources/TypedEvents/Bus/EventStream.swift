/// An `AsyncSequence` of the events of one type or group, from `events(_:replay:bufferingPolicy:)` of ``EventObserving``.
///
/// Events published while nobody awaits the next one wait in a buffer whose policy the caller
/// chooses (``EventBufferingPolicy``; unbounded by default, so nothing is lost). The sequence
/// subscription starts when the stream is made, so an event published right after
/// `events(_:)` returns is not missed, and it ends when the stream and all its iterators are
/// released.
///
/// Events arrive in the bus's one order, whichever threads published them (see ``EventBus``).
/// A filter (``EventSelector/filter(_:)``, `about:`) runs on the publishing thread, outside the
/// bus's lock, before the event enters the buffer.
///
/// Several tasks may iterate one stream: each event goes to exactly one of them. Cancelling a
/// consuming task ends that task's iteration only (its `next()` returns nil); the other
/// consumers go on receiving.
public struct EventStream<Element: Sendable>: AsyncSequence, Sendable {
  // The stream's code is inlinable so that it is specialised for `Element` in the caller:
  // unspecialised, looking up the metadata of its generic buffers cost a fifth of each event.
  @usableFromInline let state: StreamState<Element>

  @usableFromInline
  init(state: StreamState<Element>) {
    self.state = state
  }

  /// Reads events one at a time, from the stream's shared buffer: an event is never held by an
  /// iterator, so one that stops early (a `break`) leaves the rest to the next iterator.
  public struct AsyncIterator: AsyncIteratorProtocol {
    @usableFromInline let state: StreamState<Element>

    @usableFromInline
    init(state: StreamState<Element>) {
      self.state = state
    }

    /// The next event, or nil once the consuming task is cancelled.
    @inlinable
    public mutating func next() async -> Element? {
      await next(isolation: nil)
    }

    /// The next event, or nil once the consuming task is cancelled.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
      // Cancellation ends this consumer only, and for good: no event is taken from the others.
      if Task.isCancelled { return nil }
      return await state.next(isolation: actor)
    }
  }

  @inlinable
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(state: state)
  }
}

extension EventObserving {
  /// The events of type `type` as an asynchronous sequence.
  @inlinable
  public func events<E: Event>(
    _ type: E.Type, replay: Bool = false, bufferingPolicy: EventBufferingPolicy = .unbounded
  ) -> EventStream<E> {
    events(.event(type), replay: replay, bufferingPolicy: bufferingPolicy)
  }

  /// The events of group `type`, wrapped in their cases, as an asynchronous sequence.
  public func events<G: EventGroup>(
    _ type: G.Type, replay: Bool = false, bufferingPolicy: EventBufferingPolicy = .unbounded
  ) -> EventStream<G> {
    events(.group(type), replay: replay, bufferingPolicy: bufferingPolicy)
  }

  /// The events of type `type` about `subject`, as an asynchronous sequence.
  public func events<E: Event & SubjectIdentifiable>(
    _ type: E.Type, about subject: E.EventSubject, replay: Bool = false,
    bufferingPolicy: EventBufferingPolicy = .unbounded
  ) -> EventStream<E> {
    events(EventSelector.event(type).about(subject), replay: replay, bufferingPolicy: bufferingPolicy)
  }

  /// The events of group `type` about `subject`, as an asynchronous sequence.
  public func events<G: EventGroup & SubjectIdentifiable>(
    _ type: G.Type, about subject: G.EventSubject, replay: Bool = false,
    bufferingPolicy: EventBufferingPolicy = .unbounded
  ) -> EventStream<G> {
    events(EventSelector.group(type).about(subject), replay: replay, bufferingPolicy: bufferingPolicy)
  }

  /// The values `selector` selects, as an asynchronous sequence.
  @inlinable
  public func events<Value: Sendable>(
    _ selector: EventSelector<Value>, replay: Bool = false, bufferingPolicy: EventBufferingPolicy = .unbounded
  ) -> EventStream<Value> {
    let state = StreamState<Value>(policy: bufferingPolicy)
    // Weak: the stream's state holds the subscription, and releasing the stream ends it.
    let subscription = subscribe(selector, replay: replay, .stream { [weak state] value in state?.push(value) })
    state.attach(subscription)
    return EventStream(state: state)
  }
}

/// The buffer between a subscription and the task that iterates.
@usableFromInline
final class StreamState<Element: Sendable>: Sendable {
  @usableFromInline
  struct Buffer {
    @usableFromInline var items: [Element] = []
    @usableFromInline var head = 0
    /// Tasks waiting in `next()`, longest waiting first, each under its own number so that a
    /// cancelled one can be found.
    @usableFromInline var waiters: [(id: UInt64, continuation: UnsafeContinuation<Element?, Never>)] = []
    @usableFromInline var nextWaiterID: UInt64 = 0
    @usableFromInline var subscription: EventSubscription?

    @usableFromInline init() {}

    @inlinable var count: Int { items.count - head }

    @inlinable
    mutating func popFirst() -> Element? {
      guard head < items.count else { return nil }
      let item = items[head]
      head += 1
      // Compact now and then instead of shifting on every pop.
      if head > 64 && head * 2 > items.count {
        items.removeFirst(head)
        head = 0
      }
      return item
    }
  }

  @usableFromInline let policy: EventBufferingPolicy
  @usableFromInline let buffer = Locked(Buffer())

  @usableFromInline
  init(policy: EventBufferingPolicy) {
    self.policy = policy
  }

  @usableFromInline
  func attach(_ subscription: EventSubscription) {
    buffer.withLock { $0.subscription = subscription }
  }

  @inlinable
  func push(_ value: Element) {
    let waiter = buffer.withLock { buffer -> UnsafeContinuation<Element?, Never>? in
      if !buffer.waiters.isEmpty {
        return buffer.waiters.removeFirst().continuation
      }
      switch policy {
      case .unbounded:
        buffer.items.append(value)
      case .bufferingOldest(let limit):
        if buffer.count < limit { buffer.items.append(value) }
      case .bufferingNewest(let limit):
        guard limit > 0 else { break }
        if buffer.count >= limit { _ = buffer.popFirst() }
        buffer.items.append(value)
      }
      return nil
    }
    waiter?.resume(returning: value)
  }

  /// The next event, waiting for one if the buffer is empty; nil if the calling task is
  /// cancelled while it waits.
  ///
  /// It runs on the caller's actor: an event already in the buffer is taken without a hop to the
  /// shared pool and back, so a main-actor consumer of buffered events goes on while blocking
  /// work elsewhere in the process holds the pool's threads. (Resuming a consumer that waited
  /// for an event still goes through the pool.)
  @inlinable
  func next(isolation actor: isolated (any Actor)?) async -> Element? {
    // Fast path: an event is waiting, so there is no need to suspend.
    if let ready = buffer.withLock({ $0.popFirst() }) { return ready }
    let id = buffer.withLock { buffer in
      buffer.nextWaiterID &+= 1
      return buffer.nextWaiterID
    }
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { continuation in
        let ready = buffer.withLock { buffer -> Element?? in
          if let item = buffer.popFirst() { return .some(item) }
          if Task.isCancelled { return .some(nil) }
          buffer.waiters.append((id, continuation))
          return .none
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      resumeCancelled(id)
    }
  }

  /// Ends one consumer's wait: only its own `next()` returns nil.
  @usableFromInline
  func resumeCancelled(_ id: UInt64) {
    let waiter = buffer.withLock { buffer -> UnsafeContinuation<Element?, Never>? in
      guard let index = buffer.waiters.firstIndex(where: { $0.id == id }) else { return nil }
      return buffer.waiters.remove(at: index).continuation
    }
    waiter?.resume(returning: nil)
  }

  deinit {
    // Releasing the sequence and its iterators ends the subscription.
    // No task waits here: a waiting `next()` holds the state.
    buffer.withLock { $0.subscription }?.cancel()
  }
}
