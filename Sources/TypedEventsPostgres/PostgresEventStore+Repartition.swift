#if PostgreSQL
  import PostgresNIO

  extension PostgresEventStore {
    /// Changes the number of partitions of the consumer group `group`, or creates the group with
    /// that many, while none of its members runs.
    ///
    /// An event's partition depends on the number of partitions, so a subject's events may
    /// change partition. Every new partition therefore starts from the oldest checkpoint of the
    /// old ones: no event is skipped, and the events between that checkpoint and the newer ones
    /// are delivered again, as after a crash (at least once).
    ///
    /// - Throws: ``PostgresEventStoreError/groupIsRunning(_:)`` while a member of the group is
    ///   live or a lease of its partitions has not expired;
    ///   ``PostgresEventStoreError/invalidPartitionCount(_:)``; the database's error.
    public func repartition(group: String, partitions: Int) async throws {
      guard (1...PostgresConsumerGroup.maximumPartitions).contains(partitions) else {
        throw PostgresEventStoreError.invalidPartitionCount(partitions)
      }
      let (schema, logger) = (schema, logger)
      let changed = try await withLiveConnection { connection in
        try await connection.withTransaction(logger: logger) { connection in
          try await connection.query(Self.insertGroup(group, partitions: partitions, schema: schema), logger: logger)
          // Locks the group's row: members register and repartitions run one at a time.
          try await connection.query(
            "SELECT 1 FROM \(unescaped: schema).consumer_groups WHERE name = \(group) FOR UPDATE", logger: logger)
          let live = try await connection.query(
            """
            SELECT (SELECT count(*) FROM \(unescaped: schema).consumer_group_members
                    WHERE group_name = \(group) AND expires > now())
              + (SELECT count(*) FROM \(unescaped: schema).consumer_group_partitions
                 WHERE group_name = \(group) AND lease_expires > now())
            """, logger: logger)
          var running = false
          for try await count in live.decode(Int.self) { running = count > 0 }
          // Returned, not thrown: withTransaction would wrap the error.
          if running { return false }
          var oldest: (String?, Int64?) = (nil, nil)
          let checkpoints = try await connection.query(
            """
            SELECT tx::text AS tx_text, position FROM \(unescaped: schema).consumer_group_partitions
            WHERE group_name = \(group)
            ORDER BY tx NULLS FIRST, position NULLS FIRST LIMIT 1
            """, logger: logger)
          for try await row in checkpoints.decode((String?, Int64?).self) { oldest = row }
          try await connection.query(
            "DELETE FROM \(unescaped: schema).consumer_group_partitions WHERE group_name = \(group)", logger: logger)
          try await connection.query(
            """
            INSERT INTO \(unescaped: schema).consumer_group_partitions (group_name, partition, tx, position)
            SELECT \(group), number, \(oldest.0)::xid8, \(oldest.1) FROM generate_series(0, \(partitions) - 1) AS number
            """, logger: logger)
          try await connection.query(
            "UPDATE \(unescaped: schema).consumer_groups SET partitions = \(partitions) WHERE name = \(group)",
            logger: logger)
          return true
        }
      }
      guard changed else { throw PostgresEventStoreError.groupIsRunning(group) }
    }
  }
#endif
