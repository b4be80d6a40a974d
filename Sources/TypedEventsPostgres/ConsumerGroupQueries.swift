#if PostgreSQL
  import Foundation
  import PostgresNIO
  import TypedEvents

  /// The statements behind ``PostgresConsumerGroup``: registration, the lease, the checkpoint,
  /// parking. Each is one statement, so each commits or fails whole.
  extension PostgresEventStore {
    func registerGroup(_ group: String) async throws {
      try await client.query(
        "INSERT INTO \(unescaped: schema).consumer_groups (name) VALUES (\(group)) ON CONFLICT (name) DO NOTHING",
        logger: logger)
    }

    /// Takes or renews the group's lease for `member`; nil while another member holds it.
    /// Lease times are the server's clock, the one clock every member shares.
    func acquireLease(group: String, member: UUID, for lease: Duration) async throws -> GroupLease? {
      let rows = try await client.query(
        """
        UPDATE \(unescaped: schema).consumer_groups
        SET owner = \(member), lease_expires = now() + \(lease.milliseconds) * interval '1 millisecond'
        WHERE name = \(group) AND (owner IS NULL OR owner = \(member) OR lease_expires < now())
        RETURNING tx::text, position
        """, logger: logger)
      for try await (tx, sequence) in rows.decode((String?, Int64?).self) {
        guard let tx, let transaction = UInt64(tx), let sequence else { return GroupLease(position: nil) }
        return GroupLease(position: PostgresEventPosition(transaction: transaction, sequence: sequence))
      }
      return nil
    }

    /// Saves the checkpoint and renews the lease, if `member` still holds it.
    func saveCheckpoint(
      group: String, member: UUID, _ position: PostgresEventPosition, lease: Duration
    )
      async throws -> Bool
    {
      let rows = try await client.query(
        """
        UPDATE \(unescaped: schema).consumer_groups
        SET tx = \(String(position.transaction))::xid8, position = \(position.sequence), updated = now(),
          lease_expires = now() + \(lease.milliseconds) * interval '1 millisecond'
        WHERE name = \(group) AND owner = \(member)
        RETURNING 1
        """, logger: logger)
      for try await _ in rows.decode(Int.self) { return true }
      return false
    }

    func releaseLease(group: String, member: UUID) async throws {
      try await client.query(
        """
        UPDATE \(unescaped: schema).consumer_groups SET owner = NULL, lease_expires = NULL
        WHERE name = \(group) AND owner = \(member)
        """, logger: logger)
    }

    func park(
      _ stored: StoredEnvelope<PostgresEventPosition>, group: String, attempts: Int, error: any Error
    )
      async throws
    {
      let envelope = String(
        decoding: try stored.envelope.cloudEventJSON(source: "/typedevents/\(schema)"), as: UTF8.self)
      try await client.query(
        """
        INSERT INTO \(unescaped: schema).dead_letters
          (group_name, event_id, tx, position, name, subject, attempts, error, envelope)
        VALUES (\(group), \(stored.envelope.id), \(String(stored.position.transaction))::xid8, \(stored.position.sequence),
          \(stored.envelope.name), \(stored.envelope.subject), \(attempts), \(String(describing: error)), \(envelope)::json)
        ON CONFLICT (group_name, event_id) DO NOTHING
        """, logger: logger)
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
