#if PostgreSQL
  import Logging
  import PostgresNIO
  import ServiceLifecycle

  extension PostgresEventStore: Service {
    /// Listens for the store's wake-ups until the task is cancelled or a graceful shutdown
    /// begins, reconnecting with backoff whenever the connection is lost.
    ///
    /// - Throws: the pool's error when the store's `PostgresClient` has stopped running, as no
    ///   reconnect can succeed then.
    ///
    /// Readers are woken each time listening starts, so after a reconnect they read what was
    /// appended while nobody listened. Run it beside the `PostgresClient`, in the same
    /// `ServiceGroup`.
    public func run() async throws {
      try await cancelWhenGracefulShutdown { try await self.listen() }
    }

    /// The listening loop; the listen connection is a pooled one, held while listening.
    func listen(initialBackoff: Duration = .milliseconds(100), maximumBackoff: Duration = .seconds(5)) async throws {
      var backoff = initialBackoff
      while !Task.isCancelled {
        do {
          try await client.withConnection { connection in
            try await connection.listen(on: self.channel) { notifications in
              // Listening from now on; whatever came before is read by readers woken here.
              backoff = initialBackoff
              await self.wakeUps.wakeAll()
              for try await _ in notifications { await self.wakeUps.wakeAll() }
            }
          }
        } catch {
          if Task.isCancelled { break }
          if Self.clientStopped(error) { throw error }
          logger.warning(
            "listening connection lost; reconnecting", metadata: ["error": "\(error)", "backoff": "\(backoff)"])
        }
        try? await Task.sleep(for: backoff)
        backoff = min(backoff * 2, maximumBackoff)
      }
    }
  }
#endif
