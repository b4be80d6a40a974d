#if PostgreSQL
  import Logging
  import PostgresNIO
  import TypedEvents

  extension PostgresEventStore {
    /// Sends the INSERT of one event (with the NOTIFY it carries, if any) as a named prepared
    /// statement: parsed and planned once a connection, then only bound and executed. Anything
    /// else goes as an unnamed statement, as before.
    ///
    /// Why one event: the outbox's usual transaction appends one, over and over; a multi-row
    /// INSERT has as many shapes as batch sizes, each sent rarely.
    func send(_ statement: PostgresQuery, rows: Int, on connection: PostgresConnection, logger: Logger) async throws {
      guard preparesStatements, rows == 1 else {
        try await connection.query(statement, logger: logger)
        return
      }
      let generation = preparedGeneration.withLock { $0 }
      let text = OneEventInsert.Text(sql: statement.sql, generation: generation, binds: statement.binds.count)
      do {
        try await OneEventInsert.$text.withValue(text) {
          // Read to the end, on this task: a row sequence dropped unread costs the connection's
          // event loop one more hand-over.
          for try await _ in try await connection.execute(OneEventInsert(binds: statement.binds), logger: logger) {}
        }
      } catch {
        // PostgresNIO remembers a statement whose preparation failed (in an aborted transaction,
        // or before `migrate()`) and fails it on that connection for as long as the connection
        // lives. A new name after any failure prepares it afresh.
        preparedGeneration.withLock { if $0 == generation { $0 &+= 1 } }
        throw error
      }
    }
  }

  /// The one-event INSERT as PostgresNIO's prepared statement. PostgresNIO takes a statement's
  /// name and SQL from static properties, and the SQL names the store's schema, chosen at run
  /// time: both come from a task-local that ``PostgresEventStore/send(_:rows:on:logger:)`` binds
  /// around the call, and PostgresNIO reads them on the calling task before it sends anything.
  /// The name is a hash of the SQL, so that one name always means one SQL text on a connection.
  struct OneEventInsert: PostgresPreparedStatement {
    typealias Row = Void

    /// The statement's SQL, name and parameter types.
    struct Text: Sendable {
      var name: String
      var sql: String
      var types: [PostgresDataType]

      init(sql: String, generation: UInt32, binds: Int) {
        self.sql = sql
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in sql.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        name = "typedevents_\(String(hash, radix: 16))_\(generation)"
        // The types the store's binds have (`insertStatements`): id, source, time, time_exact,
        // name, version, subject, data content type, data schema, metadata, payload, and the
        // NOTIFY's channel when there is one. The SQL casts each to its column's type.
        let row: [PostgresDataType] = [
          .text, .text, .timestamptz, .float8, .text, .int8, .text, .text, .text, .text, .text,
        ]
        types = row + Array(repeating: .text, count: max(0, binds - row.count))
      }
    }

    @TaskLocal static var text = Text(sql: "", generation: 0, binds: 0)

    static var name: String { text.name }
    static var sql: String { text.sql }
    static var bindingDataTypes: [PostgresDataType] { text.types }

    let binds: PostgresBindings

    func makeBindings() throws -> PostgresBindings { binds }
    func decodeRow(_ row: PostgresRow) throws {}
  }
#endif
