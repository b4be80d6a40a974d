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
public protocol EventObserving: Sendable {
  /// Calls `handler` with every value `selector` selects, as `delivery` says.
  ///
  /// - Parameters:
  ///   - selector: the event type or group to receive, optionally filtered.
  ///   - delivery: where the handler runs; in every mode a subscriber's events arrive in order.
  ///   - replay: whether to deliver the latest event already published first, as a binding
  ///     fires its current value on subscription. A replayed event is skipped when a newer one
  ///     reached the subscriber first.
  ///   - handler: the code to run for each value.
  /// - Returns: the subscription; it ends when cancelled or released.
  func subscribe<Value: Sendable>(
    _ selector: EventSelector<Value>, delivery: EventDelivery, replay: Bool,
    _ handler: @escaping @Sendable (Value) -> Void
  ) -> EventSubscription
}

extension EventObserving {
  /// Calls `handler` with every event of type `type`.
  public func subscribe<E: Event>(
    _ type: E.Type, delivery: EventDelivery = .immediate, replay: Bool = false,
    _ handler: @escaping @Sendable (E) -> Void
  ) -> EventSubscription {
    subscribe(.event(type), delivery: delivery, replay: replay, handler)
  }

  /// Calls `handler` with every event of group `type`, wrapped in its case.
  public func subscribe<G: EventGroup>(
    _ type: G.Type, delivery: EventDelivery = .immediate, replay: Bool = false,
    _ handler: @escaping @Sendable (G) -> Void
  ) -> EventSubscription {
    subscribe(.group(type), delivery: delivery, replay: replay, handler)
  }

  /// Calls `handler` with the events of type `type` about `subject` only.
  public func subscribe<E: Event & SubjectIdentifiable>(
    _ type: E.Type, about subject: E.EventSubject, delivery: EventDelivery = .immediate, replay: Bool = false,
    _ handler: @escaping @Sendable (E) -> Void
  ) -> EventSubscription {
    subscribe(
      EventSelector.event(type).filter { $0.eventSubject == subject }, delivery: delivery, replay: replay, handler)
  }

  /// Calls `handler` with the events of group `type` about `subject` only.
  public func subscribe<G: EventGroup & SubjectIdentifiable>(
    _ type: G.Type, about subject: G.EventSubject, delivery: EventDelivery = .immediate, replay: Bool = false,
    _ handler: @escaping @Sendable (G) -> Void
  ) -> EventSubscription {
    subscribe(
      EventSelector.group(type).filter { $0.eventSubject == subject }, delivery: delivery, replay: replay, handler)
  }

  /// Calls `handler` on the main actor with every event of type `type`.
  public func subscribeOnMainActor<E: Event>(
    _ type: E.Type, replay: Bool = false, _ handler: @escaping @MainActor @Sendable (E) -> Void
  ) -> EventSubscription {
    subscribe(.event(type), delivery: .mainActor, replay: replay) { event in
      MainActor.assumeIsolated { handler(event) }
    }
  }

  /// Calls `handler` on the main actor with every event of group `type`.
  public func subscribeOnMainActor<G: EventGroup>(
    _ type: G.Type, replay: Bool = false, _ handler: @escaping @MainActor @Sendable (G) -> Void
  ) -> EventSubscription {
    subscribe(.group(type), delivery: .mainActor, replay: replay) { group in
      MainActor.assumeIsolated { handler(group) }
    }
  }
}
