#if PostgreSQL
  import Foundation
  import PostgresNIO
  import TypedEvents

  extension PostgresEventStore: IdempotentEventStore, ParsedPayloadsAppending {
    /// Appends the envelopes whose `id` the store does not hold, in one transaction, and returns
    /// where each is; readers are woken once it commits.
    ///
    /// The store keeps ids unique across sources (its `id` column is unique), which is stricter
    /// than CloudEvents' `source` + `id`: an envelope whose `id` is stored with another `source`
    /// is refused with `EventLogError.malformed`, and nothing of the call is appended.
    public func appendOnce(_ envelopes: [EventEnvelope]) async throws -> [AppendedEnvelope<Position>] {
      try await appendOnce(envelopes, parsingPayloads: true)
    }

    /// ``appendOnce(_:)`` without parsing each payload again (`ParsedPayloadsAppending`).
    package func appendOnce(parsedPayloads envelopes: [EventEnvelope]) async throws -> [AppendedEnvelope<Position>] {
      try await appendOnce(envelopes, parsingPayloads: false)
    }

    private func appendOnce(
      _ envelopes: [EventEnvelope], parsingPayloads: Bool
    ) async throws -> [AppendedEnvelope<Position>] {
      guard !envelopes.isEmpty else { return [] }
      let logger = logger
      var answers: [AppendedEnvelope<Position>] = []
      try await sending(envelopes) { traced in
        let statements = try self.insertStatements(traced, parsingPayloads: parsingPayloads)
        do {
          answers = try await self.withLiveConnection { connection in
            try await connection.withTransaction(logger: logger) { connection in
              for statement in statements { try await connection.query(statement, logger: logger) }
              return try await Self.stored(envelopes, on: connection, schema: self.schema, logger: logger)
            }
          }
        } catch let error as PostgresTransactionError {
          // Rolled back because an id is stored with another source: that is the error to say.
          if let refusal = error.closureError as? EventLogError { throw refusal }
          throw error
        }
      }
      if answers.contains(where: { !$0.wasStored }) { await wakeReaders() }
      return answers
    }

    /// Where each of `envelopes` is stored, inside the transaction that inserted what was new:
    /// a row that transaction wrote is new, the first time its id comes.
    private static func stored(
      _ envelopes: [EventEnvelope], on connection: PostgresConnection, schema: String, logger: Logger
    ) async throws -> [AppendedEnvelope<Position>] {
      var rows: [String: (position: Position, source: String?, new: Bool)] = [:]
      let ids = Array(Set(envelopes.map(\.id)))
      let query = PostgresQuery(
        unsafeSQL: """
          SELECT tx::text, position, id, source, tx = pg_current_xact_id() FROM \(schema).events
          WHERE id = ANY($1::text[])
          """, binds: Self.textArray(ids))
      for try await (tx, sequence, id, source, new) in try await connection.query(query, logger: logger)
        .decode((String, Int64, String, String?, Bool).self)
      {
        rows[id] = (Position(transaction: UInt64(tx) ?? 0, sequence: sequence), source, new)
      }
      var answered = Set<String>()
      return try envelopes.map { envelope in
        guard let row = rows[envelope.id] else {
          throw EventLogError.malformed("the envelope \(envelope.id) was inserted but not found")
        }
        guard row.source == envelope.source else {
          throw EventLogError.malformed(
            "the id \(envelope.id) is stored with the source \(row.source ?? "(none)"), not \(envelope.source ?? "(none)"): "
              + "the PostgreSQL store keeps ids unique across sources")
        }
        let first = answered.insert(envelope.id).inserted
        return AppendedEnvelope(position: row.position, wasStored: !(row.new && first))
      }
    }

    private static func textArray(_ values: [String]) -> PostgresBindings {
      var binds = PostgresBindings(capacity: 1)
      binds.append(values)
      return binds
    }
  }
#endif
