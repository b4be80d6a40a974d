#if PostgreSQL
  import Foundation
  import PostgresNIO
  import TypedEvents

  extension PostgresEventStore: IdempotentEventStore, ValidatedEnvelopesAppending {
    /// Appends the envelopes whose `source` and `id` the store does not hold, in one
    /// transaction, and returns where each is; readers are woken once it commits. Both are
    /// compared as bytes (PostgreSQL's deterministic collations compare `text` so), and no source
    /// counts as the empty one, as `EventLog` counts them.
    public func appendOnce(_ envelopes: [EventEnvelope]) async throws -> [AppendedEnvelope<Position>] {
      try await appendOnce(envelopes, validating: true)
    }

    /// ``appendOnce(_:)`` without validating each envelope again (`ValidatedEnvelopesAppending`).
    package func appendOnce(validated envelopes: [EventEnvelope]) async throws -> [AppendedEnvelope<Position>] {
      try await appendOnce(envelopes, validating: false)
    }

    private func appendOnce(
      _ envelopes: [EventEnvelope], validating: Bool
    ) async throws -> [AppendedEnvelope<Position>] {
      guard !envelopes.isEmpty else { return [] }
      let logger = logger
      var answers: [AppendedEnvelope<Position>] = []
      try await sending(envelopes) { traced in
        let statements = try self.insertStatements(traced, validating: validating)
        answers = try await self.withLiveConnection { connection in
          try await connection.withTransaction(logger: logger) { connection in
            for statement in statements { try await connection.query(statement, logger: logger) }
            return try await Self.stored(envelopes, on: connection, schema: self.schema, logger: logger)
          }
        }
      }
      if answers.contains(where: { !$0.wasStored }) { await wakeReaders() }
      return answers
    }

    /// Where each of `envelopes` is stored, inside the transaction that inserted what was new:
    /// a row that transaction wrote is new, the first time its identity comes.
    private static func stored(
      _ envelopes: [EventEnvelope], on connection: PostgresConnection, schema: String, logger: Logger
    ) async throws -> [AppendedEnvelope<Position>] {
      // Keyed by bytes: `String` keys would take an NFC and an NFD id for one.
      var rows: [EnvelopeIdentity: (position: Position, new: Bool)] = [:]
      var asked: [EnvelopeIdentity: EventEnvelope] = [:]
      for envelope in envelopes { asked[EnvelopeIdentity(envelope)] = envelope }
      let unique = Array(asked.values)
      var binds = PostgresBindings(capacity: 2)
      binds.append(unique.map { $0.source ?? "" })
      binds.append(unique.map(\.id))
      let query = PostgresQuery(
        unsafeSQL: """
          SELECT e.tx::text, e.position, coalesce(e.source, ''), e.id, e.tx = pg_current_xact_id()
          FROM unnest($1::text[], $2::text[]) AS asked(source, id)
          JOIN \(schema).events e ON coalesce(e.source, '') = asked.source AND e.id = asked.id
          """, binds: binds)
      for try await (tx, sequence, source, id, new) in try await connection.query(query, logger: logger)
        .decode((String, Int64, String, String, Bool).self)
      {
        rows[EnvelopeIdentity(source: source, id: id)] = (
          Position(transaction: UInt64(tx) ?? 0, sequence: sequence), new
        )
      }
      var answered = Set<EnvelopeIdentity>()
      return try envelopes.map { envelope in
        let identity = EnvelopeIdentity(envelope)
        guard let row = rows[identity] else {
          throw EventLogError.malformed("the envelope \(envelope.id) was inserted but not found")
        }
        let first = answered.insert(identity).inserted
        return AppendedEnvelope(position: row.position, wasStored: !(row.new && first))
      }
    }
  }
#endif
