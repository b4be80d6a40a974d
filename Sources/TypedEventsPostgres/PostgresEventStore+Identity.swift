#if PostgreSQL
  import PostgresNIO
  import TypedEvents

  extension PostgresEventStore {
    /// The UUID the store was given when it was migrated to layout 2: the same for every process
    /// that reads the schema, another for every other schema or server.
    public func storeIdentity() async throws -> String? {
      let query: PostgresQuery = "SELECT identity FROM \(unescaped: schema).store_identity LIMIT 1"
      let logger = logger
      return try await withLiveConnection { connection in
        for try await identity in try await connection.query(query, logger: logger).decode(String.self) {
          return identity
        }
        return nil
      }
    }

    /// Whether an event of the store sits at `position`: positions are those of events.
    public func isPosition(_ position: Position) async throws -> Bool {
      let query: PostgresQuery = """
        SELECT EXISTS (SELECT 1 FROM \(unescaped: schema).events
          WHERE tx = \(String(position.transaction))::xid8 AND position = \(position.sequence))
        """
      let logger = logger
      return try await withLiveConnection { connection in
        for try await exists in try await connection.query(query, logger: logger).decode(Bool.self) { return exists }
        return false
      }
    }
  }
#endif
