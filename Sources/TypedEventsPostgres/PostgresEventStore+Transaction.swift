#if PostgreSQL
  import EventLoopExecutor
  import PostgresNIO

  extension PostgresEventStore {
    /// Runs `body` in a transaction on a connection of the store's client, with the task's work
    /// on the connection's own event loop: the transactional outbox's usual shape,
    /// `try await store.withTransaction { connection in …; try await store.append(event, on: connection) }`.
    ///
    /// It commits when `body` returns and rolls back when it throws, as `PostgresClient`'s
    /// `withTransaction` does. The difference is where the work runs: each statement is written
    /// by the connection's event loop thread, and the task that awaits it is resumed there, so a
    /// statement no longer hands the task from a cooperative-pool thread to that thread and back.
    /// On these 2-core machines that halved the client's context switches a transaction
    /// (`Benchmarks/postgres.sh`, the outbox section). Code that `body` runs isolated to an actor,
    /// such as the main actor, still runs on that actor: called from an actor, it runs there
    /// (`isolation`), as `PostgresClient.withTransaction` does.
    public func withTransaction<Result: Sendable>(
      isolation: isolated (any Actor)? = #isolation,
      _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
      let logger = logger
      return try await client.withConnection(isolation: isolation) { connection in
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
          return try await withTaskExecutorPreference(EventLoopTaskExecutor(connection.eventLoop), isolation: isolation)
          {
            try await connection.withTransaction(logger: logger, isolation: isolation) { try await body($0) }
          }
        }
        return try await connection.withTransaction(logger: logger, isolation: isolation) { try await body($0) }
      }
    }
  }
#endif
