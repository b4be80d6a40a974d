#if PostgreSQL
  import PostgresNIO
  import TypedEvents

  /// What one read of a member's partitions found.
  struct PartitionBatch {
    /// The envelopes of the member's partitions, in the store's order, each with its partition.
    var envelopes: [(partition: Int, stored: StoredEnvelope<PostgresEventPosition>)] = []
    /// Rows of the member's partitions that are not envelopes, and why.
    var skipped: [String] = []
    /// Where every partition read goes on from: none of them has an event between its old
    /// checkpoint and this position that the batch does not hold. Nil when nothing moved.
    var next: PostgresEventPosition?
    /// Whether the scan stopped at its limit, so that more rows may follow at once.
    var full = false
  }

  extension PostgresEventStore {
    /// Reads the events of `partitions` (each with its checkpoint) of a group of `count`
    /// partitions: up to `limit` of them, in the store's order.
    ///
    /// One index scan from the oldest of the checkpoints serves every partition; rows at or
    /// before their own partition's checkpoint are dropped here. When the scan is not full,
    /// every row the store can deliver has been seen, so `next` is the newest deliverable row
    /// of any partition (the horizon), read in the same statement and so the same snapshot:
    /// idle partitions move on with the others, which keeps later scans short and lets
    /// ``prune()`` delete.
    func read(
      partitions: [Int: PostgresEventPosition?], of count: Int, limit: Int
    ) async throws -> PartitionBatch {
      let oldest =
        partitions.values.map { $0 ?? Position(transaction: 0, sequence: 0) }.min()
        ?? Position(transaction: 0, sequence: 0)
      let numbers = partitions.keys.sorted().map(Int32.init)
      // Both arms run in one statement, so on one snapshot: the horizon is the newest row that
      // the first arm could have returned. Each arm names its text column `tx_text`: left as
      // `tx`, `ORDER BY tx` would sort the text, and put transaction 999 after 1000.
      let query: PostgresQuery = """
        (SELECT 0 AS kind, coalesce(subject_hash, 0) % \(count) AS part, \(unescaped: Self.envelopeColumns)
          FROM \(unescaped: schema).events
          WHERE (tx, position) > (\(String(oldest.transaction))::xid8, \(oldest.sequence))
            AND tx < pg_snapshot_xmin(pg_current_snapshot())
            AND coalesce(subject_hash, 0) % \(count) = ANY(\(numbers))
          ORDER BY tx, position LIMIT \(max(1, limit)))
        UNION ALL
        (SELECT 1, 0, tx::text AS tx_text, position, '', NULL, NULL, '', 0, NULL, NULL, NULL, '{}', '{}'
          FROM \(unescaped: schema).events
          WHERE tx < pg_snapshot_xmin(pg_current_snapshot())
          ORDER BY tx DESC, position DESC LIMIT 1)
        """
      let logger = logger
      return try await withLiveConnection { connection in
        var rows: [(Int, Result<StoredEnvelope<Position>, SkippedRow>)] = []
        var horizon: Position?
        for try await row in try await connection.query(query, logger: logger) {
          let (
            kind, partition, tx, sequence, id, source, time, name, version, subject, type, schema, metadata, payload
          ) =
            try row.decode(
              (
                Int, Int, String, Int64, String, String?, Double?, String, Int, String?, String?, String?, String,
                String
              )
              .self)
          if kind == 1 {
            horizon = Position(transaction: UInt64(tx) ?? 0, sequence: sequence)
            continue
          }
          rows.append(
            (
              partition,
              Self.storedEnvelope(
                (tx, sequence, id, source, time, name, version, subject, type, schema, metadata, payload))
            ))
        }
        // UNION ALL promises no order between or within its arms' rows: sort by position.
        rows.sort { $0.1.position < $1.1.position }
        var batch = PartitionBatch()
        for (partition, result) in rows {
          let checkpoint = partitions[partition] ?? nil
          guard checkpoint.map({ $0 < result.position }) ?? true else { continue }  // delivered before
          switch result {
          case .success(let stored): batch.envelopes.append((partition, stored))
          case .failure(let skipped): batch.skipped.append(skipped.reason)
          }
        }
        batch.full = rows.count >= max(1, limit)
        batch.next = batch.full ? rows.last?.1.position : horizon
        return batch
      }
    }
  }

  extension Result<StoredEnvelope<PostgresEventPosition>, PostgresEventStore.SkippedRow> {
    /// Where the row sits, whether it decoded or not.
    var position: PostgresEventPosition {
      switch self {
      case .success(let stored): stored.position
      case .failure(let skipped): skipped.position
      }
    }
  }
#endif
