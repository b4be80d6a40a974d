/// An `AsyncSequence` of the events of one type or group, from `events(_:replay:bufferingPolicy:)` of ``EventObserving``.
///
/// Events published while nobody awaits the next one wait in a buffer whose policy the caller
/// chooses (``EventBufferingPolicy``; unbounded by default, so nothing is lost). The sequence
/// ends when the consuming task is cancelled; releasing the sequence and its iterator cancels
/// the subscription.
///
/// Several tasks may iterate one stream: each event goes to exactly one of them, and cancelling
/// any of them ends the sequence for all.
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
      await state.next()
    }
  }

  @inlinable
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(state: state)
  }
}

extension EventObserving {
  /// The events of type `type` as an asynchronous sequence.
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
    events(
      EventSelector.event(type).filter { $0.eventSubject == subject }, replay: replay, bufferingPolicy: bufferingPolicy)
  }

  /// The events of group `type` about `subject`, as an asynchronous sequence.
  public func events<G: EventGroup & SubjectIdentifiable>(
    _ type: G.Type, about subject: G.EventSubject, replay: Bool = false,
    bufferingPolicy: EventBufferingPolicy = .unbounded
  ) -> EventStream<G> {
    events(
      EventSelector.group(type).filter { $0.eventSubject == subject }, replay: replay, bufferingPolicy: bufferingPolicy)
  }

  /// The values `selector` selects, as an asynchronous sequence.
  @inlinable
  public func events<Value: Sendable>(
    _ selector: EventSelector<Value>, replay: Bool = false, bufferingPolicy: EventBufferingPolicy = .unbounded
  ) -> EventStream<Value> {
    let state = StreamState<Value>(policy: bufferingPolicy)
    let subscription = subscribe(selector, delivery: .immediate, replay: replay) { [weak state] value in
      state?.push(value)
    }
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
    /// Tasks waiting in `next()`, longest waiting first.
    @usableFromInline var waiters: [UnsafeContinuation<Element?, Never>] = []
    @usableFromInline var finished = false
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
      guard !buffer.finished else { return nil }
      if !buffer.waiters.isEmpty {
        return buffer.waiters.removeFirst()
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

  /// The next event, waiting for one if the buffer is empty.
  @inlinable
  func next() async -> Element? {
    // Fast path: an event is waiting, so there is no need to suspend.
    if let ready = buffer.withLock({ $0.popFirst() }) { return ready }
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { continuation in
        let ready = buffer.withLock { buffer -> Element?? in
          if let item = buffer.popFirst() { return .some(item) }
          if buffer.finished || Task.isCancelled { return .some(nil) }
          buffer.waiters.append(continuation)
          return .none
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      finish()
    }
  }

  /// Ends the sequence: every waiting `next()` returns nil, and the subscription is cancelled.
  @usableFromInline
  func finish() {
    let (waiters, subscription) = buffer.withLock { buffer in
      buffer.finished = true
      defer {
        buffer.waiters = []
        buffer.subscription = nil
      }
      return (buffer.waiters, buffer.subscription)
    }
    for waiter in waiters { waiter.resume(returning: nil) }
    subscription?.cancel()
  }

  deinit {
    // Releasing the sequence and its iterators ends the subscription.
    buffer.withLock { $0.subscription }?.cancel()
  }
}
