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
          watch.start { connection.isClosed }
          return try await body(connection)
        }
      }
    }
  }

  extension PostgresEventStore {
    /// Runs one statement whose rows, if any, nobody reads.
    func run(_ query: PostgresQuery) async throws {
      let logger = logger
      try await withLiveConnection { connection in
        try await connection.query(query, logger: logger)
        return ()
      }
    }
  }

  /// Runs `operation` in a task of its own and returns its result, unless the connection it
  /// watches is closed at two checks in a row first, a check after each `tick`: then it throws
  /// ``PostgresEventStoreError/connectionLost`` and leaves the operation behind.
  ///
  /// Two checks, because a query that the closing connection fails properly needs a moment to
  /// return. Cancelling the caller cancels the operation and still waits for it, or for the
  /// watch: a lost query does not answer cancellation.
  func abandonedWhenClosed<R: Sendable>(
    tick: @escaping @Sendable () async -> Void = { try? await Task.sleep(for: .seconds(1)) },
    _ operation: @escaping @Sendable (ConnectionWatch) async throws -> R
  ) async throws -> R {
    let state = AbandonableOperation<R>()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        state.begin(continuation)
        let watch = ConnectionWatch(tick: tick) { state.end(.failure(PostgresEventStoreError.connectionLost)) }
        state.run(
          Task {
            do {
              state.end(.success(try await operation(watch)))
            } catch {
              state.end(.failure(error))
            }
            watch.stop()
          }, watch: watch)
      }
    } onCancel: {
      state.cancel()
    }
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

  /// The state of one ``abandonedWhenClosed(tick:_:)`` call: the caller's continuation,
  /// resumed once, by the operation or by the watch, whichever ends first.
  private final class AbandonableOperation<R: Sendable>: Sendable {
    private struct State {
      var continuation: CheckedContinuation<R, any Error>?
      var operation: Task<Void, Never>?
      var watch: ConnectionWatch?
      var cancelled = false
    }
    private let state = Locked(State())

    func begin(_ continuation: CheckedContinuation<R, any Error>) {
      state.withLock { $0.continuation = continuation }
    }

    func run(_ operation: Task<Void, Never>, watch: ConnectionWatch) {
      let cancelled = state.withLock { state in
        state.operation = operation
        state.watch = watch
        return state.cancelled
      }
      if cancelled { operation.cancel() }
    }

    /// Resumes the caller the first time; later calls do nothing.
    func end(_ result: Result<R, any Error>) {
      let ended = state.withLock { state in
        defer { state.continuation = nil }
        return (state.continuation, state.watch)
      }
      ended.1?.stop()
      ended.0?.resume(with: result)
    }

    /// Cancels the operation; the watch goes on, since a lost query ignores cancellation.
    func cancel() {
      state.withLock { state in
        state.cancelled = true
        return state.operation
      }?.cancel()
    }
  }
#endif
