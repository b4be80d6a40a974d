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

    /// Whether `position` is not past the store's end: its transaction is older than every one
    /// still running, so no event can come before it later. Between two rows a position tears
    /// nothing, and an event whose row `prune()` deleted leaves its position good to read after.
    public func isPosition(_ position: Position) async throws -> Bool {
      let query: PostgresQuery = """
        SELECT \(String(position.transaction))::xid8 < pg_snapshot_xmin(pg_current_snapshot()) AND \(position.sequence) >= 0
        """
      let logger = logger
      return try await withLiveConnection { connection in
        for try await exists in try await connection.query(query, logger: logger).decode(Bool.self) { return exists }
        return false
      }
    }
  }
#endif
