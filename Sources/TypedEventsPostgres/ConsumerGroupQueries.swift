#if PostgreSQL
  import Foundation
  import PostgresNIO
  import TypedEvents

  /// The statements behind ``PostgresConsumerGroup``: registration, the lease, the checkpoint,
  /// parking. Each is one statement, so each commits or fails whole.
  extension PostgresEventStore {
    func registerGroup(_ group: String) async throws {
      try await run(
        "INSERT INTO \(unescaped: schema).consumer_groups (name) VALUES (\(group)) ON CONFLICT (name) DO NOTHING")
    }

    /// Takes or renews the group's lease for `member`; nil while another member holds it.
    /// Lease times are the server's clock, the one clock every member shares.
    func acquireLease(group: String, member: UUID, for lease: Duration) async throws -> GroupLease? {
      let query: PostgresQuery = """
        UPDATE \(unescaped: schema).consumer_groups
        SET owner = \(member), lease_expires = now() + \(lease.milliseconds) * interval '1 millisecond'
        WHERE name = \(group) AND (owner IS NULL OR owner = \(member) OR lease_expires < now())
        RETURNING tx::text, position
        """
      let logger = logger
      return try await withLiveConnection { connection in
        let rows = try await connection.query(query, logger: logger)
        var lease: GroupLease?
        for try await (tx, sequence) in rows.decode((String?, Int64?).self) {
          guard let tx, let transaction = UInt64(tx), let sequence else {
            lease = GroupLease(position: nil)
            continue
          }
          lease = GroupLease(position: PostgresEventPosition(transaction: transaction, sequence: sequence))
        }
        return lease
      }
    }

    /// Saves the checkpoint and renews the lease, if `member` still holds it.
    func saveCheckpoint(
      group: String, member: UUID, _ position: PostgresEventPosition, lease: Duration
    )
      async throws -> Bool
    {
      let query: PostgresQuery = """
        UPDATE \(unescaped: schema).consumer_groups
        SET tx = \(String(position.transaction))::xid8, position = \(position.sequence), updated = now(),
          lease_expires = now() + \(lease.milliseconds) * interval '1 millisecond'
        WHERE name = \(group) AND owner = \(member)
        RETURNING 1
        """
      let logger = logger
      return try await withLiveConnection { connection in
        var saved = false
        for try await _ in try await connection.query(query, logger: logger).decode(Int.self) { saved = true }
        return saved
      }
    }

    func releaseLease(group: String, member: UUID) async throws {
      try await run(
        """
        UPDATE \(unescaped: schema).consumer_groups SET owner = NULL, lease_expires = NULL
        WHERE name = \(group) AND owner = \(member)
        """)
    }

    func park(
      _ stored: StoredEnvelope<PostgresEventPosition>, group: String, attempts: Int, error: any Error
    )
      async throws
    {
      // An envelope without a source of its own is parked as coming from this store.
      let source = stored.envelope.source == nil ? "/typedevents/\(schema)" : nil
      let envelope = String(decoding: try stored.envelope.cloudEventJSON(source: source), as: UTF8.self)
      try await run(
        """
        INSERT INTO \(unescaped: schema).dead_letters
          (group_name, event_id, tx, position, name, subject, attempts, error, envelope)
        VALUES (\(group), \(stored.envelope.id), \(String(stored.position.transaction))::xid8, \(stored.position.sequence),
          \(stored.envelope.name), \(stored.envelope.subject), \(attempts), \(String(describing: error)), \(envelope)::json)
        ON CONFLICT (group_name, event_id) DO NOTHING
        """)
    }
  }

  /// A lease held: the group's checkpoint, nil before its first.
  struct GroupLease {
    var position: PostgresEventPosition?
  }

  extension Duration {
    /// Whole milliseconds, for SQL intervals.
    var milliseconds: Int {
      Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000)
    }
  }
#endif
