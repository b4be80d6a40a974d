#if PostgreSQL
  import Foundation
  import PostgresNIO
  import TypedEvents

  /// An event a consumer group parked, with why.
  public struct PostgresDeadLetter: Sendable, Hashable {
    /// The parked event's envelope.
    public var envelope: EventEnvelope
    /// Where it sits in the store.
    public var position: PostgresEventPosition
    /// How many times the handler was called.
    public var attempts: Int
    /// The handler's last error, as text.
    public var error: String
  }

  extension PostgresEventStore {
    /// The events that `group` parked, in the store's order.
    public func deadLetters(group: String) async throws -> [PostgresDeadLetter] {
      let query: PostgresQuery = """
        SELECT tx::text AS tx_text, position, attempts, error, envelope::text FROM \(unescaped: schema).dead_letters
        WHERE group_name = \(group) ORDER BY tx, position  -- the xid8 column, not tx_text
        """
      let logger = logger
      return try await withLiveConnection { connection in
        var letters: [PostgresDeadLetter] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (tx, sequence, attempts, error, envelope) in rows.decode(
          (String, Int64, Int, String, String).self)
        {
          letters.append(
            PostgresDeadLetter(
              envelope: try EventEnvelope(cloudEventJSON: Data(envelope.utf8)),
              position: PostgresEventPosition(transaction: UInt64(tx) ?? 0, sequence: sequence), attempts: attempts,
              error: error))
        }
        return letters
      }
    }
  }
#endif
