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
    /// One index scan from the oldest of the checkpoints serves every partition. It reads every
    /// partition's rows, `limit` times the share of partitions not held more of them, and sends
    /// the columns of the member's own only: a filter on the partition in the scan would make
    /// PostgreSQL guess that few rows match and sort the whole backlog instead of walking the
    /// index (24 ms instead of 0.07 ms for a backlog of 40,000, measured). Rows at or before
    /// their own partition's checkpoint are dropped here. When the scan is not full, every row
    /// the store can deliver has been seen, so `next` is the newest deliverable row of any
    /// partition (the horizon), read in the same statement and so the same snapshot: idle
    /// partitions move on with the others, which keeps later scans short and lets ``prune()``
    /// delete.
    func read(
      partitions: [Int: PostgresEventPosition?], of count: Int, limit: Int
    ) async throws -> PartitionBatch {
      if count == 1, let checkpoint = partitions[0] {
        // One partition holds every event: the plain read, with no partition to compute.
        let plain = try await read(after: checkpoint, limit: limit)
        return PartitionBatch(
          envelopes: plain.envelopes.map { (0, $0) }, skipped: plain.skipped, next: plain.next,
          full: plain.envelopes.count + plain.skipped.count >= max(1, limit))
      }
      let oldest =
        partitions.values.map { $0 ?? Position(transaction: 0, sequence: 0) }.min()
        ?? Position(transaction: 0, sequence: 0)
      let numbers = partitions.keys.sorted().map(Int32.init)
      let scan = max(1, limit) * min(16, max(1, (count + partitions.count - 1) / max(1, partitions.count)))
      // A member that holds every partition reads as a reader of the whole store does: every
      // row is its own, and the last one read is as far as any partition got.
      let all = partitions.count >= count
      let mine = "coalesce(subject_hash, 0) % \(count) = ANY($1)"
      func own(_ column: String) -> String { all ? column : "CASE WHEN \(mine) THEN \(column) END" }
      let horizonArm =
        all
        ? ""
        : """
        UNION ALL
        (SELECT 1, 0, tx::text AS tx_text, position, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
          FROM \(schema).events
          WHERE tx < pg_snapshot_xmin(pg_current_snapshot())
          ORDER BY tx DESC, position DESC LIMIT 1)
        """
      // Both arms run in one statement, so on one snapshot: the horizon is the newest row that
      // the first arm could have returned. Each arm names its text column `tx_text`: left as
      // `tx`, `ORDER BY tx` would sort the text, and put transaction 999 after 1000.
      var bindings = PostgresBindings()
      if !all { bindings.append(numbers) }
      let query = PostgresQuery(
        unsafeSQL: """
          (SELECT 0 AS kind, coalesce(subject_hash, 0) % \(count) AS part, tx::text AS tx_text, position,
            \(own("id")), \(own("source")), \(own("time_exact")), \(own("name")), \(own("version")), \(own("subject")),
            \(own("data_content_type")), \(own("data_schema")), \(own("metadata::text")), \(own("payload::text"))
            FROM \(schema).events
            WHERE (tx, position) > ('\(oldest.transaction)'::xid8, \(oldest.sequence))
              AND tx < pg_snapshot_xmin(pg_current_snapshot())
            ORDER BY tx, position LIMIT \(scan))
          \(horizonArm)
          """, binds: bindings)
      let logger = logger
      return try await withLiveConnection { connection in
        var rows: [(partition: Int, position: Position, row: Result<StoredEnvelope<Position>, SkippedRow>?)] = []
        var horizon: Position?
        rows.reserveCapacity(scan)
        for try await row in try await connection.query(query, logger: logger) {
          let (
            kind, partition, tx, sequence, id, source, time, name, version, subject, type, schema, metadata, payload
          ) =
            try row.decode(
              (
                Int, Int, String, Int64, String?, String?, Double?, String?, Int?, String?, String?, String?, String?,
                String?
              )
              .self)
          let position = Position(transaction: UInt64(tx) ?? 0, sequence: sequence)
          if kind == 1 {
            horizon = position
            continue
          }
          guard let id, let name, let version, let metadata, let payload else {
            rows.append((partition, position, nil))  // another member's partition
            continue
          }
          rows.append(
            (
              partition, position,
              Self.storedEnvelope(
                (tx, sequence, id, source, time, name, version, subject, type, schema, metadata, payload))
            ))
        }
        // UNION ALL promises no order between or within its arms' rows: sort by position.
        rows.sort { $0.position < $1.position }
        var batch = PartitionBatch()
        for (partition, position, result) in rows {
          guard let result else { continue }
          let checkpoint = partitions[partition] ?? nil
          guard checkpoint.map({ $0 < position }) ?? true else { continue }  // delivered before
          switch result {
          case .success(let stored): batch.envelopes.append((partition, stored))
          case .failure(let skipped): batch.skipped.append(skipped.reason)
          }
          // The scan may hold more than `limit` of the member's rows when its partitions are
          // busier than the others; a batch keeps `limit`, the most a crash delivers again.
          if batch.envelopes.count + batch.skipped.count == max(1, limit) {
            batch.full = true
            batch.next = position
            return batch
          }
        }
        batch.full = rows.count >= scan
        batch.next = batch.full || all ? rows.last?.position : horizon
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
