/// An event bus for tests: it records every published event, in order, and also delivers it
/// to subscribers as an ``EventBus`` does.
///
/// Hand it to code that depends on ``EventPublishing`` or ``EventObserving`` and assert what
/// that code published:
/// ```swift
/// let bus = RecordingEventBus()
/// let screen = ChatScreen(events: bus)
/// screen.scrolledToTop()
/// #expect(bus.published(FetchMessagesRequested.self).count == 1)
/// ```
public final class RecordingEventBus: EventPublishing, EventObserving {
  private let bus = EventBus()
  private let recorded = Locked<[any Event]>([])

  /// Creates an empty recording bus.
  public init() {}

  public func publish<E: Event>(_ event: E) {
    recorded.withLock { $0.append(event) }
    bus.publish(event)
  }

  public func subscribe<Value: Sendable>(
    _ selector: EventSelector<Value>, replay: Bool, _ handler: EventHandler<Value>
  ) -> EventSubscription {
    bus.subscribe(selector, replay: replay, handler)
  }

  /// Every event published so far, in publish order.
  public var published: [any Event] { recorded.withLock { $0 } }

  /// The published events of type `type`, in publish order.
  public func published<E: Event>(_ type: E.Type) -> [E] {
    recorded.withLock { $0.compactMap { $0 as? E } }
  }

  /// The wire names of the published events, in publish order: handy in assertions.
  public var publishedNames: [String] {
    recorded.withLock { $0.map { Swift.type(of: $0).eventName } }
  }

  /// Forgets the recorded events.
  public func reset() {
    recorded.withLock { $0.removeAll() }
  }
}
