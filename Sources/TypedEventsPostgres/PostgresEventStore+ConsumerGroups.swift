#if PostgreSQL
  import Foundation
  import PostgresNIO
  import TypedEvents

  /// The statements behind ``PostgresConsumerGroup``: registration, the members' rounds, reads
  /// of a member's partitions, checkpoints, parking. Each runs in one transaction, so each
  /// commits or fails whole. Lease times are the server's clock, the one clock every member shares.
  extension PostgresEventStore {
    /// Says `member` is live for the next `milliseconds`.
    static func heartbeat(_ group: String, member: UUID, _ milliseconds: Int, schema: String) -> PostgresQuery {
      """
      INSERT INTO \(unescaped: schema).consumer_group_members (group_name, member, expires)
      VALUES (\(group), \(member), now() + \(milliseconds) * interval '1 millisecond')
      ON CONFLICT (group_name, member) DO UPDATE SET expires = excluded.expires
      """
    }

    /// Adds the group's row where it is missing.
    static func insertGroup(_ group: String, partitions: Int, schema: String) -> PostgresQuery {
      """
      INSERT INTO \(unescaped: schema).consumer_groups (name, partitions) VALUES (\(group), \(partitions))
      ON CONFLICT (name) DO NOTHING
      """
    }

    /// Creates the group with `partitions` partitions where it is missing, and makes `member`
    /// one of its live members (so that ``repartition(group:partitions:)`` sees it before its
    /// first round).
    ///
    /// - Throws: ``PostgresEventStoreError/partitionCountChanged(group:stored:requested:)`` when
    ///   the group exists with another number of partitions.
    func registerGroup(_ group: String, partitions: Int, member: UUID, lease: Duration) async throws {
      let (schema, logger, milliseconds) = (schema, logger, lease.milliseconds)
      let stored = try await withLiveConnection { connection in
        try await connection.withTransaction(logger: logger) { connection in
          try await connection.query(Self.insertGroup(group, partitions: partitions, schema: schema), logger: logger)
          var stored = partitions
          let rows = try await connection.query(
            // FOR SHARE: waits for a repartition under way, then reads what it wrote.
            "SELECT partitions FROM \(unescaped: schema).consumer_groups WHERE name = \(group) FOR SHARE",
            logger: logger)
          for try await count in rows.decode(Int.self) { stored = count }
          try await connection.query(
            """
            INSERT INTO \(unescaped: schema).consumer_group_partitions (group_name, partition)
            SELECT \(group), generate_series(0, \(stored) - 1) ON CONFLICT DO NOTHING
            """, logger: logger)
          if stored == partitions {
            try await connection.query(
              Self.heartbeat(group, member: member, milliseconds, schema: schema), logger: logger)
          }
          return stored
        }
      }
      guard stored == partitions else {
        throw PostgresEventStoreError.partitionCountChanged(group: group, stored: stored, requested: partitions)
      }
    }

    /// One round of `member`: says it is alive, renews its partitions' leases, gives up those
    /// beyond its share and takes free or expired ones up to it. Returns the partitions it holds
    /// afterwards, with their checkpoints.
    ///
    /// The live members share the partitions: each takes `partitions / members`, and the first
    /// `partitions % members`, ordered by how many they hold and then by id, one more. Each
    /// member computes the same shares from the same rows, so the group settles without a
    /// coordinator.
    func groupRound(
      group: String, member: UUID, partitions: Int, lease: Duration
    ) async throws -> GroupRound {
      let (schema, logger, milliseconds) = (schema, logger, lease.milliseconds)
      return try await withLiveConnection { connection in
        try await connection.withTransaction(logger: logger) { connection in
          // A repartition since this member registered: it must not read with the old count.
          var stored = partitions
          let rows = try await connection.query(
            "SELECT partitions FROM \(unescaped: schema).consumer_groups WHERE name = \(group) FOR SHARE",
            logger: logger)
          for try await count in rows.decode(Int.self) { stored = count }
          guard stored == partitions else { return GroupRound(held: [:], members: 0, partitions: stored) }
          try await connection.query(
            Self.heartbeat(group, member: member, milliseconds, schema: schema), logger: logger)
          // SKIP LOCKED: two members cleaning up at once would otherwise wait on each other's
          // rows, and PostgreSQL would end one of them as a deadlock.
          try await connection.query(
            """
            DELETE FROM \(unescaped: schema).consumer_group_members WHERE (group_name, member) IN (
              SELECT group_name, member FROM \(unescaped: schema).consumer_group_members
              WHERE group_name = \(group) AND expires < now() FOR UPDATE SKIP LOCKED)
            """, logger: logger)
          // The live members, those holding more partitions first: they keep the larger shares,
          // so that a member joining or leaving moves as few partitions as it can.
          var members: [UUID] = []
          for try await (live, _) in try await connection.query(
            """
            SELECT m.member, (SELECT count(*) FROM \(unescaped: schema).consumer_group_partitions p
                              WHERE p.group_name = m.group_name AND p.owner = m.member AND p.lease_expires > now())
            FROM \(unescaped: schema).consumer_group_members m WHERE m.group_name = \(group)
            ORDER BY 2 DESC, m.member
            """, logger: logger
          ).decode((UUID, Int).self) { members.append(live) }
          let index = members.firstIndex(of: member) ?? 0
          let share = partitions / max(1, members.count) + (index < partitions % max(1, members.count) ? 1 : 0)

          var held = try await Self.checkpoints(
            connection.query(
              """
              UPDATE \(unescaped: schema).consumer_group_partitions
              SET lease_expires = now() + \(milliseconds) * interval '1 millisecond'
              WHERE group_name = \(group) AND owner = \(member)
              RETURNING partition, tx::text, position
              """, logger: logger))
          if held.count > share {
            let surplus = Array(held.keys.sorted().suffix(held.count - share)).map(Int32.init)
            try await connection.query(
              """
              UPDATE \(unescaped: schema).consumer_group_partitions SET owner = NULL, lease_expires = NULL
              WHERE group_name = \(group) AND owner = \(member) AND partition = ANY(\(surplus))
              """, logger: logger)
            for partition in surplus { held[Int(partition)] = nil }
          } else if held.count < share {
            let taken = try await Self.checkpoints(
              connection.query(
                """
                UPDATE \(unescaped: schema).consumer_group_partitions
                SET owner = \(member), lease_expires = now() + \(milliseconds) * interval '1 millisecond'
                WHERE group_name = \(group) AND partition IN (
                  SELECT partition FROM \(unescaped: schema).consumer_group_partitions
                  WHERE group_name = \(group) AND (owner IS NULL OR lease_expires < now())
                  ORDER BY partition LIMIT \(share - held.count) FOR UPDATE SKIP LOCKED)
                RETURNING partition, tx::text, position
                """, logger: logger))
            held.merge(taken) { _, new in new }
          }
          return GroupRound(held: held, members: members.count, partitions: stored)
        }
      }
    }

    /// For each of `partitions` (with its checkpoint) of a group of `count`: how many events
    /// follow the checkpoint (up to ``PostgresEventStoreMetrics/lagCountLimit``) and the time of
    /// the first of them (seconds since 2001), for the lag gauges.
    func lag(
      of partitions: [Int: PostgresEventPosition?], in count: Int
    ) async throws -> [(partition: Int, events: Int, oldest: Double?)] {
      let entries = partitions.sorted { $0.key < $1.key }
      let numbers = entries.map { Int32($0.key) }
      let transactions = entries.map { String($0.value?.transaction ?? 0) }
      let sequences = entries.map { $0.value?.sequence ?? 0 }
      let events = "\(schema).events"
      let query: PostgresQuery = """
        SELECT c.partition,
          (SELECT count(*) FROM (
            SELECT 1 FROM \(unescaped: events) e
            WHERE (e.tx, e.position) > (c.tx::xid8, c.position) AND coalesce(e.subject_hash, 0) % \(count) = c.partition
            LIMIT \(PostgresEventStoreMetrics.lagCountLimit)) AS waiting),
          (SELECT e.time_exact FROM \(unescaped: events) e
            WHERE (e.tx, e.position) > (c.tx::xid8, c.position) AND coalesce(e.subject_hash, 0) % \(count) = c.partition
            ORDER BY e.tx, e.position LIMIT 1)
        FROM unnest(\(numbers)::integer[], \(transactions)::text[], \(sequences)::bigint[]) AS c(partition, tx, position)
        """
      let logger = logger
      return try await withLiveConnection { connection in
        var result: [(partition: Int, events: Int, oldest: Double?)] = []
        for try await (partition, waiting, oldest) in try await connection.query(query, logger: logger).decode(
          (Int, Int, Double?).self)
        {
          result.append((partition, waiting, oldest))
        }
        return result
      }
    }

    /// Partitions and their checkpoints from rows of `partition, tx::text, position`.
    private static func checkpoints(_ rows: PostgresRowSequence) async throws -> [Int: PostgresEventPosition?] {
      var result: [Int: PostgresEventPosition?] = [:]
      for try await (partition, tx, sequence) in rows.decode((Int, String?, Int64?).self) {
        if let tx, let transaction = UInt64(tx), let sequence {
          result[partition] = PostgresEventPosition(transaction: transaction, sequence: sequence)
        } else {
          result[partition] = .some(nil)
        }
      }
      return result
    }

    /// Moves the checkpoints of `partitions` to `position` where `member` still holds them, and
    /// renews their leases. Returns the partitions saved: a partition missing from it was
    /// taken over.
    func saveCheckpoints(
      group: String, member: UUID, partitions: [Int], at position: PostgresEventPosition, lease: Duration
    ) async throws -> Set<Int> {
      let numbers = partitions.map(Int32.init)
      let query: PostgresQuery = """
        UPDATE \(unescaped: schema).consumer_group_partitions
        SET tx = \(String(position.transaction))::xid8, position = \(position.sequence), updated = now(),
          lease_expires = now() + \(lease.milliseconds) * interval '1 millisecond'
        WHERE group_name = \(group) AND owner = \(member) AND partition = ANY(\(numbers))
        RETURNING partition
        """
      let logger = logger
      return try await withLiveConnection { connection in
        var saved = Set<Int>()
        for try await partition in try await connection.query(query, logger: logger).decode(Int.self) {
          saved.insert(partition)
        }
        return saved
      }
    }

    /// Gives up `member`'s partitions and its place in the group, so that the others share
    /// them at their next round.
    func leaveGroup(group: String, member: UUID) async throws {
      let (schema, logger) = (schema, logger)
      try await withLiveConnection { connection in
        try await connection.withTransaction(logger: logger) { connection in
          try await connection.query(
            """
            UPDATE \(unescaped: schema).consumer_group_partitions SET owner = NULL, lease_expires = NULL
            WHERE group_name = \(group) AND owner = \(member)
            """, logger: logger)
          try await connection.query(
            """
            DELETE FROM \(unescaped: schema).consumer_group_members WHERE group_name = \(group) AND member = \(member)
            """, logger: logger)
        }
        return ()
      }
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
        ON CONFLICT (group_name, tx, position) DO NOTHING
        """)
    }
  }

  /// What a member's round found: the partitions it holds, with their checkpoints, how many
  /// members are live, and how many partitions the group has (when that is not the member's
  /// number, the round took nothing).
  struct GroupRound {
    var held: [Int: PostgresEventPosition?]
    var members: Int
    var partitions: Int
  }

  extension Duration {
    /// Whole milliseconds, for SQL intervals.
    var milliseconds: Int {
      Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000)
    }
  }
#endif
