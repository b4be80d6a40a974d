/// The publishing side of an event bus: the "trigger" half of a binding.
///
/// A component that only announces events depends on this protocol alone, so a test can hand
/// it a ``RecordingEventBus`` and assert what it published.
public protocol EventPublishing: Sendable {
  /// Delivers `event` to every current subscriber of its type and of every group that contains it.
  func publish<E: Event>(_ event: E)
}

extension EventPublishing {
  /// Publishes the event that `group` holds.
  public func publish<G: EventGroup>(_ group: G) {
    publish(group.event)
  }
}

/// The observing side of an event bus: the "observer" half of a binding.
///
/// Every form comes in two: with `delivery: EventDelivery` (immediate by default, or a queue)
/// the handler is nonisolated; with `delivery: .mainActor` it is typed `@MainActor`:
/// ```swift
/// @MainActor final class ListingScreen {
///   var price: Decimal = 0
///   var subscription: EventSubscription?
///
///   func bind(_ events: some EventObserving, listing: ListingID) {
///     subscription = events.subscribe(ListingUpdated.self, about: listing, delivery: .mainActor, replay: true) {
///       self.price = $0.price  // main-actor state, checked by the compiler
///     }
///   }
/// }
/// ```
public protocol EventObserving: Sendable {
  /// Calls `handler` with every value `selector` selects.
  ///
  /// - Parameters:
  ///   - selector: the event type or group to receive, optionally filtered or about one subject.
  ///   - replay: whether to deliver the latest event already published first, as a binding
  ///     fires its current value on subscription (the latest about the selector's subject, for
  ///     ``EventSelector/about(_:)``).
  ///   - handler: the code to run for each value, and where it runs.
  /// - Returns: the subscription; it ends when cancelled or released.
  func subscribe<Value: Sendable>(
    _ selector: EventSelector<Value>, replay: Bool, _ handler: EventHandler<Value>
  ) -> EventSubscription
}

extension EventObserving {
  /// Calls `handler` with every value `selector` selects, as `delivery` says.
  public func subscribe<Value: Sendable>(
    _ selector: EventSelector<Value>, delivery: EventDelivery = .immediate, replay: Bool = false,
    _ handler: @escaping @Sendable (Value) -> Void
  ) -> EventSubscription {
    subscribe(selector, replay: replay, EventHandler(delivery, handler))
  }

  /// Calls `handler` on the main actor with every value `selector` selects.
  public func subscribe<Value: Sendable>(
    _ selector: EventSelector<Value>, delivery: MainActorDelivery, replay: Bool = false,
    _ handler: @escaping @MainActor @Sendable (Value) -> Void
  ) -> EventSubscription {
    subscribe(selector, replay: replay, .mainActor(handler))
  }

  /// Calls `handler` with every event of type `type`.
  @inlinable
  public func subscribe<E: Event>(
    _ type: E.Type, delivery: EventDelivery = .immediate, replay: Bool = false,
    _ handler: @escaping @Sendable (E) -> Void
  ) -> EventSubscription {
    subscribe(.event(type), replay: replay, EventHandler(delivery, handler))
  }

  /// Calls `handler` on the main actor with every event of type `type`.
  @inlinable
  public func subscribe<E: Event>(
    _ type: E.Type, delivery: MainActorDelivery, replay: Bool = false,
    _ handler: @escaping @MainActor @Sendable (E) -> Void
  ) -> EventSubscription {
    subscribe(.event(type), replay: replay, .mainActor(handler))
  }

  /// Calls `handler` with every event of group `type`, wrapped in its case.
  public func subscribe<G: EventGroup>(
    _ type: G.Type, delivery: EventDelivery = .immediate, replay: Bool = false,
    _ handler: @escaping @Sendable (G) -> Void
  ) -> EventSubscription {
    subscribe(.group(type), replay: replay, EventHandler(delivery, handler))
  }

  /// Calls `handler` on the main actor with every event of group `type`, wrapped in its case.
  public func subscribe<G: EventGroup>(
    _ type: G.Type, delivery: MainActorDelivery, replay: Bool = false,
    _ handler: @escaping @MainActor @Sendable (G) -> Void
  ) -> EventSubscription {
    subscribe(.group(type), replay: replay, .mainActor(handler))
  }

  /// Calls `handler` with the events of type `type` about `subject` only; `replay: true`
  /// delivers the latest event about `subject` first (see ``EventSelector/about(_:)``).
  public func subscribe<E: Event & SubjectIdentifiable>(
    _ type: E.Type, about subject: E.EventSubject, delivery: EventDelivery = .immediate, replay: Bool = false,
    _ handler: @escaping @Sendable (E) -> Void
  ) -> EventSubscription {
    subscribe(EventSelector.event(type).about(subject), replay: replay, EventHandler(delivery, handler))
  }

  /// Calls `handler` on the main actor with the events of type `type` about `subject` only.
  public func subscribe<E: Event & SubjectIdentifiable>(
    _ type: E.Type, about subject: E.EventSubject, delivery: MainActorDelivery, replay: Bool = false,
    _ handler: @escaping @MainActor @Sendable (E) -> Void
  ) -> EventSubscription {
    subscribe(EventSelector.event(type).about(subject), replay: replay, .mainActor(handler))
  }

  /// Calls `handler` with the events of group `type` about `subject` only.
  public func subscribe<G: EventGroup & SubjectIdentifiable>(
    _ type: G.Type, about subject: G.EventSubject, delivery: EventDelivery = .immediate, replay: Bool = false,
    _ handler: @escaping @Sendable (G) -> Void
  ) -> EventSubscription {
    subscribe(EventSelector.group(type).about(subject), replay: replay, EventHandler(delivery, handler))
  }

  /// Calls `handler` on the main actor with the events of group `type` about `subject` only.
  public func subscribe<G: EventGroup & SubjectIdentifiable>(
    _ type: G.Type, about subject: G.EventSubject, delivery: MainActorDelivery, replay: Bool = false,
    _ handler: @escaping @MainActor @Sendable (G) -> Void
  ) -> EventSubscription {
    subscribe(EventSelector.group(type).about(subject), replay: replay, .mainActor(handler))
  }

  /// Calls `handler` on the main actor with every event of type `type`.
  @available(*, deprecated, message: "Write subscribe(_:delivery: .mainActor, replay:_:).")
  public func subscribeOnMainActor<E: Event>(
    _ type: E.Type, replay: Bool = false, _ handler: @escaping @MainActor @Sendable (E) -> Void
  ) -> EventSubscription {
    subscribe(.event(type), replay: replay, .mainActor(handler))
  }

  /// Calls `handler` on the main actor with every event of group `type`.
  @available(*, deprecated, message: "Write subscribe(_:delivery: .mainActor, replay:_:).")
  public func subscribeOnMainActor<G: EventGroup>(
    _ type: G.Type, replay: Bool = false, _ handler: @escaping @MainActor @Sendable (G) -> Void
  ) -> EventSubscription {
    subscribe(.group(type), replay: replay, .mainActor(handler))
  }
}
