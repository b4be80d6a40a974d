#if PostgreSQL
  import PostgresNIO
  import TypedEvents

  extension PostgresEventStore {
    /// Runs `body` on a pooled connection, and gives up on it when that connection has closed
    /// and `body` has still not returned a second or two later.
    ///
    /// postgres-nio 1.33 can lose a query sent just as the server closes the connection (a
    /// restart, `pg_terminate_backend`): the query never completes, and cancelling its task does
    /// not end it. Every query of the store goes through here, so such a query throws
    /// ``PostgresEventStoreError/connectionLost`` and its caller retries on a new connection; the
    /// lost query's task is left behind, suspended. Without this, a consumer group stopped for
    /// good in its checkpoint after a server restart.
    func withLiveConnection<R: Sendable>(
      _ body: @escaping @Sendable (PostgresConnection) async throws -> R
    ) async throws -> R {
      let client = client
      return try await abandonedWhenClosed { watch in
        try await client.withConnection { connection in
          // Stopped before the lease ends: the connection is the pool's again after that.
          watch.start { connection.isClosed }
          defer { watch.stop() }
          return try await body(connection)
        }
      }
    }
  }

  extension PostgresEventStore {
    /// Runs one statement whose rows, if any, nobody needs. They are read to the end all the
    /// same: PostgresNIO hands an error raised while such a statement runs only to their reader.
    func run(_ query: PostgresQuery) async throws {
      let logger = logger
      try await withLiveConnection { connection in
        for try await _ in try await connection.query(query, logger: logger) {}
      }
    }
  }

  /// Runs `operation` in a task of its own and returns its result, unless the connection it
  /// watches is closed at two checks in a row first, a check after each `tick`: then it throws
  /// ``PostgresEventStoreError/connectionLost`` and leaves the operation behind.
  ///
  /// Two checks, because a query that the closing connection fails properly needs a moment to
  /// return. Cancelling the caller cancels the operation at once; as a query waiting on a
  /// connection that still looks open does not answer cancellation either, the caller gets a
  /// `CancellationError` `grace` later if the operation has not ended by then.
  func abandonedWhenClosed<R: Sendable>(
    tick: @escaping @Sendable () async -> Void = { try? await Task.sleep(for: .seconds(1)) },
    grace: Duration = .seconds(5),
    _ operation: @escaping @Sendable (ConnectionWatch) async throws -> R
  ) async throws -> R {
    try await runAbandonable(cancelling: .atOnce, grace: grace) { end in
      let watch = ConnectionWatch(tick: tick) { end(.failure(PostgresEventStoreError.connectionLost)) }
      defer { watch.stop() }
      return try await operation(watch)
    }
  }

  /// Runs `body` to its end even when the caller is cancelled, but no longer than `grace` after
  /// that: then the body is cancelled and the caller gets a `CancellationError`, so that a
  /// member stopping while the database does not answer still stops.
  func finishing<R: Sendable>(
    grace: Duration = .seconds(5), _ body: @escaping @Sendable () async throws -> R
  ) async throws -> R {
    try await runAbandonable(cancelling: .afterGrace, grace: grace) { _ in try await body() }
  }

  /// Checks a connection after every tick once started, until stopped.
  final class ConnectionWatch: Sendable {
    private let tick: @Sendable () async -> Void
    private let onClosed: @Sendable () -> Void
    private let task = Locked<Task<Void, Never>?>(nil)

    init(tick: @escaping @Sendable () async -> Void, onClosed: @escaping @Sendable () -> Void) {
      self.tick = tick
      self.onClosed = onClosed
    }

    /// Starts checking `isClosed`; `onClosed` runs when two checks in a row find it closed.
    func start(_ isClosed: @escaping @Sendable () -> Bool) {
      let (tick, onClosed) = (tick, onClosed)
      let checking = Task {
        var closedBefore = false
        while !Task.isCancelled {
          await tick()
          if Task.isCancelled { return }
          let closed = isClosed()
          if closed && closedBefore { return onClosed() }
          closedBefore = closed
        }
      }
      task.withLock { previous in
        previous?.cancel()
        previous = checking
      }
    }

    func stop() {
      task.withLock { $0 }?.cancel()
    }
  }

  /// When a cancelled caller's cancellation reaches the operation.
  enum CancellationForwarding {
    /// At once; the caller still waits up to the grace period for the operation to end.
    case atOnce
    /// After the grace period, when the caller stops waiting.
    case afterGrace
  }

  /// Runs `operation` in a task of its own; the caller is resumed once, by the first of: the
  /// operation's end, a call to the `end` it is given, or the grace period after the caller's
  /// cancellation. An operation that never ends is left behind.
  private func runAbandonable<R: Sendable>(
    cancelling forwarding: CancellationForwarding, grace: Duration,
    _ operation: @escaping @Sendable (_ end: @escaping @Sendable (Result<R, any Error>) -> Void) async throws -> R
  ) async throws -> R {
    let run = AbandonableOperation<R>()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        run.begin(continuation)
        run.start(
          Task {
            do {
              run.end(.success(try await operation(run.end)))
            } catch {
              run.end(.failure(error))
            }
          }, forwarding: forwarding)
      }
    } onCancel: {
      run.callerCancelled(forwarding: forwarding, grace: grace)
    }
  }

  /// The state of one ``runAbandonable(cancelling:grace:_:)`` call.
  private final class AbandonableOperation<R: Sendable>: Sendable {
    private struct State {
      var continuation: CheckedContinuation<R, any Error>?
      /// The outcome, when it came before the caller's continuation did.
      var early: Result<R, any Error>?
      var ended = false
      var operation: Task<Void, Never>?
      var timer: Task<Void, Never>?
      var cancelled = false
    }
    private let state = Locked(State())

    func begin(_ continuation: CheckedContinuation<R, any Error>) {
      let early = state.withLock { state in
        if state.early == nil { state.continuation = continuation }
        return state.early
      }
      if let early { continuation.resume(with: early) }
    }

    func start(_ operation: Task<Void, Never>, forwarding: CancellationForwarding) {
      let cancel = state.withLock { state in
        state.operation = operation
        return (state.cancelled && forwarding == .atOnce) || state.ended
      }
      if cancel { operation.cancel() }
    }

    /// Resumes the caller the first time, and cancels what is left: the operation (done, or
    /// abandoned) and the grace timer. Later calls do nothing.
    func end(_ result: Result<R, any Error>) {
      let ended = state.withLock { state -> (CheckedContinuation<R, any Error>?, [Task<Void, Never>])? in
        guard !state.ended else { return nil }
        state.ended = true
        if state.continuation == nil { state.early = result }
        defer { state.continuation = nil }
        return (state.continuation, [state.operation, state.timer].compactMap { $0 })
      }
      guard let (continuation, tasks) = ended else { return }
      for task in tasks { task.cancel() }
      continuation?.resume(with: result)
    }

    func callerCancelled(forwarding: CancellationForwarding, grace: Duration) {
      let timer = Task {
        try? await Task.sleep(for: grace)
        if !Task.isCancelled { self.end(.failure(CancellationError())) }
      }
      let (operation, ended) = state.withLock { state in
        state.cancelled = true
        state.timer = timer
        return (state.operation, state.ended)
      }
      if ended { timer.cancel() }
      if forwarding == .atOnce { operation?.cancel() }
    }
  }
#endif
