#if PostgreSQL
  import Foundation
  import PostgresNIO
  import TypedEvents

  extension PostgresEventStore {
    /// Up to `limit` envelopes after `position`, in (transaction id, position) order, among the
    /// events of transactions older than every transaction still running.
    public func read(after position: Position?, limit: Int) async throws -> StoredBatch<Position> {
      try await read(after: position, limit: limit, on: nil)
    }

    /// Up to `limit` envelopes after `position`, but none whose data and attributes would take
    /// those read past `maximumBytes` (the first comes whatever its size): the server counts
    /// them (`rowBytes`), and sends no more rows.
    public func read(after position: Position?, limit: Int, maximumBytes: Int) async throws -> StoredBatch<Position> {
      try await read(after: position, limit: limit, maximumBytes: maximumBytes, on: nil)
    }

    /// Reads on `connection` when given, else on a pooled connection.
    func read(
      after position: Position?, limit: Int, maximumBytes: Int = .max, on connection: PostgresConnection?
    ) async throws
      -> StoredBatch<Position>
    {
      let after = position ?? Position(transaction: 0, sequence: 0)
      let rows: PostgresQuery = """
        SELECT \(unescaped: Self.envelopeColumns)
        FROM \(unescaped: schema).events
        WHERE (tx, position) > (\(String(after.transaction))::xid8, \(after.sequence))
          AND tx < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY tx, position LIMIT \(max(1, limit))
        """
      // With a budget, the running total of the rows' sizes over the `limit` rows the read
      // takes: a row is sent while the total up to it is within the budget, and the first always.
      let query: PostgresQuery =
        maximumBytes == .max
        ? rows
        : """
        SELECT \(unescaped: Self.envelopeColumns) FROM (
          SELECT *, sum(bytes) OVER (ORDER BY tx, position) AS total FROM (
            SELECT *, \(unescaped: Self.rowBytes) AS bytes FROM \(unescaped: schema).events
            WHERE (tx, position) > (\(String(after.transaction))::xid8, \(after.sequence))
              AND tx < pg_snapshot_xmin(pg_current_snapshot())
            ORDER BY tx, position LIMIT \(max(1, limit))
          ) AS taken
        ) AS counted
        WHERE total = bytes OR total <= \(Int64(clamping: maximumBytes))
        ORDER BY tx, position
        """
      let logger = logger
      if let connection { return try await Self.decodeBatch(connection.query(query, logger: logger), after: position) }
      return try await withLiveConnection { connection in
        try await Self.decodeBatch(connection.query(query, logger: logger), after: position)
      }
    }

    /// Only the events `filter` wants leave the server: the query passes over the others and
    /// sends, besides the wanted events' keys and sizes, only the key of the last event it
    /// looked at (at most `limit` and 10,000 more), where the next read goes on; a second query
    /// then reads the events kept.
    public func read(
      after position: Position?, limit: Int, maximumBytes: Int, matching filter: EventReadFilter
    ) async throws -> StoredBatch<Position> {
      if filter.isEmpty { return try await read(after: position, limit: limit, maximumBytes: maximumBytes, on: nil) }
      let after = position ?? Position(transaction: 0, sequence: 0)
      // PostgreSQL's text holds no NUL, nor does any stored event (appends refuse it): a type or
      // subject with one matches nothing, and is not sent, which PostgreSQL would refuse.
      let types = filter.types.map { $0.filter { !$0.contains("\0") }.sorted() }
      let matchesNothing = types?.isEmpty == true || filter.subject?.contains("\0") == true
      let subject = matchesNothing ? nil : filter.subject
      // A UUID subject matches in any case; its text differs from another spelling only in case.
      let anyCase = filter.subjectUUID != nil
      let keys: PostgresQuery = """
        SELECT tx_text, position, wanted, bytes FROM (
          SELECT tx::text AS tx_text, tx, position, wanted, bytes,
            row_number() OVER (ORDER BY tx DESC, position DESC) = 1 AS is_last
          FROM (
            SELECT tx, position, wanted, CASE WHEN wanted THEN \(unescaped: Self.rowBytes) ELSE 0 END AS bytes
            FROM (
              -- The columns, not their sizes: only a wanted row's are taken, its data detoasted.
              SELECT tx, position, payload, id, name, metadata, source, subject, data_content_type, data_schema,
                -- An event without a subject compares as NULL: not wanted, never NULL.
                coalesce(
                  NOT \(matchesNothing)
                  AND (\(types)::text[] IS NULL OR name = ANY(\(types)::text[]))
                  AND (\(subject)::text IS NULL OR subject = \(subject)::text
                    OR (\(anyCase) AND lower(subject) = lower(\(subject)::text))), false) AS wanted
              FROM \(unescaped: schema).events
              WHERE (tx, position) > (\(String(after.transaction))::xid8, \(after.sequence))
                AND tx < pg_snapshot_xmin(pg_current_snapshot())
              ORDER BY tx, position LIMIT \(max(1, limit) + Self.filteredReadMargin)
            ) AS looked
          ) AS sized
        ) AS marked
        WHERE wanted OR is_last
        ORDER BY tx, position
        """
      let (logger, schema) = (logger, schema)
      return try await withLiveConnection { connection in
        // Which to keep, within `limit` and `maximumBytes`, and where the next read starts.
        var kept: [Position] = []
        var next = position
        var total = 0
        var cut = false
        for try await (tx, sequence, wanted, bytes) in try await connection.query(keys, logger: logger).decode(
          (String, Int64, Bool, Int64).self)
        {
          let here = Position(transaction: UInt64(tx) ?? 0, sequence: sequence)
          if cut { continue }
          if wanted {
            if kept.count == max(1, limit) || (!kept.isEmpty && total + Int(bytes) > maximumBytes) {
              cut = true
              continue
            }
            kept.append(here)
            total += Int(bytes)
          }
          next = here
        }
        guard !kept.isEmpty else { return StoredBatch(envelopes: [], skipped: [], next: next) }
        let list = kept.map { "('\($0.transaction)'::xid8, \($0.sequence))" }.joined(separator: ", ")
        let rows: PostgresQuery = """
          SELECT \(unescaped: Self.envelopeColumns) FROM \(unescaped: schema).events
          WHERE (tx, position) IN (\(unescaped: list))
          ORDER BY tx, position
          """
        var batch = try await Self.decodeBatch(connection.query(rows, logger: logger), after: position)
        batch.next = next
        return batch
      }
    }

    /// The bytes of a row's data and attributes, as a read's `maximumBytes` counts them: an
    /// event of large attributes and little data is as large in memory as its text.
    static let rowBytes = """
      (octet_length(payload::text) + octet_length(id) + octet_length(name) + octet_length(metadata::text) \
      + coalesce(octet_length(source), 0) + coalesce(octet_length(subject), 0) \
      + coalesce(octet_length(data_content_type), 0) + coalesce(octet_length(data_schema), 0))
      """

    /// How many events more than its limit a filtered read looks at before it returns what it
    /// has.
    static let filteredReadMargin = 10_000

    /// The columns every read selects, in the order ``storedEnvelope(_:)`` decodes them.
    /// `tx::text AS tx_text`: a bare `ORDER BY tx` would otherwise sort by the output column,
    /// the text, and put transaction 1000 before 999.
    static let envelopeColumns = """
      tx::text AS tx_text, position, id, source, time_exact, name, version, subject, data_content_type, \
      data_schema, metadata::text, payload::text
      """

    /// The envelope of a row of ``envelopeColumns``, or why it cannot be one.
    static func storedEnvelope(
      _ columns: (String, Int64, String, String?, Double?, String, Int, String?, String?, String?, String, String)
    ) -> Result<StoredEnvelope<Position>, SkippedRow> {
      let (tx, sequence, id, source, time, name, version, subject, contentType, dataSchema, metadata, payloadText) =
        columns
      let here = Position(transaction: UInt64(tx) ?? 0, sequence: sequence)
      // The grammar decides, JSONDecoder only maps: PostgreSQL's `json` keeps a repeated key.
      // Bytes of another content type are stored as their base64 string.
      let payload: Data
      do {
        let stored = Data(payloadText.utf8)
        try StrictJSON.checkEvent(stored, limits: .stored, what: "the payload")
        payload = try EventEnvelope.payload(fromStored: stored, dataContentType: contentType)
      } catch {
        return .failure(SkippedRow(position: here, reason: "\(here): \(error)"))
      }
      let metadataJSON = Data(metadata.utf8)
      guard (try? StrictJSON.checkEvent(metadataJSON, limits: .stored)) != nil,
        let metadata = try? JSONDecoder().decode([String: EventAttributeValue].self, from: metadataJSON)
      else {
        return .failure(
          SkippedRow(
            position: here, reason: "\(here): the metadata is not an object of strings, whole numbers and Booleans"))
      }
      let envelope = EventEnvelope(
        id: id, source: source, time: time.map(Date.init(timeIntervalSinceReferenceDate:)), name: name,
        version: version, subject: subject, dataContentType: contentType, dataSchema: dataSchema,
        metadata: metadata, payload: payload)
      return .success(StoredEnvelope(position: here, envelope: envelope))
    }

    /// A row read but not delivered, and why.
    struct SkippedRow: Error {
      var position: Position
      var reason: String
    }

    /// The envelopes of `rows`, a read's result.
    private static func decodeBatch(
      _ rows: PostgresRowSequence, after position: Position?
    ) async throws
      -> StoredBatch<Position>
    {
      var envelopes: [StoredEnvelope<Position>] = []
      var skipped: [String] = []
      var next = position
      for try await row in rows {
        switch storedEnvelope(
          try row.decode(
            (String, Int64, String, String?, Double?, String, Int, String?, String?, String?, String, String).self))
        {
        case .success(let stored):
          envelopes.append(stored)
          next = stored.position
        case .failure(let row):
          skipped.append(row.reason)
          next = row.position
        }
      }
      return StoredBatch(envelopes: envelopes, skipped: skipped, next: next)
    }

    /// Returns at the next wake-up (a `NOTIFY` received by ``run()``), or after `timeout`.
    /// The position of the newest event a reader can read now (one whose transaction is older
    /// than every transaction still running), found with the store's order index; nil when
    /// there is none.
    public func endPosition() async throws -> Position? {
      let query: PostgresQuery = """
        SELECT tx::text AS tx_text, position FROM \(unescaped: schema).events
        WHERE tx < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY tx DESC, position DESC LIMIT 1
        """
      let logger = logger
      return try await withLiveConnection { connection in
        for try await (tx, sequence) in try await connection.query(query, logger: logger).decode((String, Int64).self) {
          return Position(transaction: UInt64(tx) ?? 0, sequence: sequence)
        }
        return nil
      }
    }

    public func waitForEnvelopes(after position: Position?, timeout: Duration) async throws {
      await wakeUps.wait(timeout: timeout)
    }
  }
#endif
