import Dispatch

/// A subscription's handler and where it runs: the one argument every subscription form of
/// ``EventObserving`` comes down to.
///
/// App code rarely names it: `subscribe(_:delivery:replay:_:)` builds it from its `delivery`
/// argument. A type that forwards ``EventObserving`` to an ``EventBus`` passes it on unchanged.
public struct EventHandler<Value: Sendable>: Sendable {
  enum Kind: Sendable {
    case immediate(@Sendable (Value) -> Void)
    case queue(DispatchQueue, @Sendable (Value) -> Void)
    case mainActor(@MainActor @Sendable (Value) -> Void)
    /// An ``EventStream``'s buffer: ordered like a queue, drained by the publishing thread.
    case stream(@Sendable (Value) -> Void)
  }

  let kind: Kind

  init(kind: Kind) {
    self.kind = kind
  }

  /// Runs `handler` on the publishing thread, before `publish(_:)` returns.
  public static func immediate(_ handler: @escaping @Sendable (Value) -> Void) -> EventHandler {
    EventHandler(kind: .immediate(handler))
  }

  /// Runs `handler` asynchronously on `queue`, one event at a time, in the bus's order.
  public static func queue(_ queue: DispatchQueue, _ handler: @escaping @Sendable (Value) -> Void) -> EventHandler {
    EventHandler(kind: .queue(queue, handler))
  }

  /// Runs `handler` asynchronously on the main actor, in the bus's order. The handler is typed
  /// `@MainActor`, so the compiler checks what it touches.
  public static func mainActor(_ handler: @escaping @MainActor @Sendable (Value) -> Void) -> EventHandler {
    EventHandler(kind: .mainActor(handler))
  }

  /// The handler for `delivery`.
  public init(_ delivery: EventDelivery, _ handler: @escaping @Sendable (Value) -> Void) {
    switch delivery {
    case .immediate: kind = .immediate(handler)
    case .queue(let queue): kind = .queue(queue, handler)
    }
  }

  @usableFromInline
  static func stream(_ push: @escaping @Sendable (Value) -> Void) -> EventHandler {
    EventHandler(kind: .stream(push))
  }
}
