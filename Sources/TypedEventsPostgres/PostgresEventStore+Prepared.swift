#if PostgreSQL
  import Foundation
  import Logging
  import PostgresNIO
  import TypedEvents

  extension PostgresEventStore {
    /// Sends an INSERT of the store's (with the NOTIFY it carries, if any) and reads its result
    /// to the end. The INSERT of one event goes as a named prepared statement, parsed once a
    /// connection, then only bound and executed; anything else goes unnamed.
    ///
    /// Why one event: the outbox's usual transaction appends one, over and over; a multi-row
    /// INSERT has as many shapes as batch sizes, each sent rarely.
    func send(_ statement: PostgresQuery, rows: Int, on connection: PostgresConnection, logger: Logger) async throws {
      // Read to the end: PostgresNIO hands an error raised while a statement that returns rows
      // runs (the NOTIFY's `SELECT`; a trigger, a deadlock) only to the reader of its rows. A
      // sequence dropped unread loses it, and the transaction's COMMIT then rolls back in silence.
      guard preparesStatements, rows == 1 else {
        for try await _ in try await connection.query(statement, logger: logger) {}
        return
      }
      let key = PreparedNames.Key(connection: ObjectIdentifier(connection), sql: statement.sql)
      let generation = PreparedNames.shared.generation(for: key, on: connection)
      let text = OneEventInsert.Text(sql: statement.sql, generation: generation, binds: statement.binds.count)
      do {
        try await OneEventInsert.$text.withValue(text) {
          for try await _ in try await connection.execute(OneEventInsert(binds: statement.binds), logger: logger) {}
        }
      } catch {
        PreparedNames.shared.failed(key, generation: generation)
        throw error
      }
      PreparedNames.shared.succeeded(key, generation: generation)
    }
  }

  /// Which name each connection's prepared INSERT has, for every store of the process.
  ///
  /// PostgresNIO remembers a statement whose preparation failed (in an aborted transaction, or
  /// before `migrate()`) and fails it on that connection for as long as the connection lives. So
  /// a failure before the name has once succeeded on a connection moves that connection to a new
  /// name, which is prepared afresh; after a success, a failure (a deadlock, a trigger) is the
  /// execution's, and the name stays. Kept for the process, not the store: two stores on one
  /// schema send the same SQL, and one must not be handed the name the other left failed.
  final class PreparedNames: Sendable {
    static let shared = PreparedNames()

    struct Key: Hashable {
      var connection: ObjectIdentifier
      var sql: String
    }

    private struct Entry {
      /// Tells a live connection from a new one at the same address.
      weak var connection: PostgresConnection?
      var generation: UInt32 = 0
      var succeeded = false
    }

    private struct State {
      var entries: [Key: Entry] = [:]
      /// The count past which the entries of gone connections are dropped.
      var sweepAt = 64
    }

    private let state = Locked(State())

    func generation(for key: Key, on connection: PostgresConnection) -> UInt32 {
      state.withLock { state in
        if let entry = state.entries[key], entry.connection === connection { return entry.generation }
        if state.entries.count >= state.sweepAt {
          state.entries = state.entries.filter { $0.value.connection != nil }
          state.sweepAt = max(64, 2 * state.entries.count)
        }
        state.entries[key] = Entry(connection: connection)
        return 0
      }
    }

    func succeeded(_ key: Key, generation: UInt32) {
      state.withLock { state in
        if state.entries[key]?.generation == generation { state.entries[key]?.succeeded = true }
      }
    }

    func failed(_ key: Key, generation: UInt32) {
      state.withLock { state in
        guard let entry = state.entries[key], entry.generation == generation, !entry.succeeded else { return }
        state.entries[key]?.generation = generation &+ 1
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
        // The types of the store's binds as PostgresNIO encodes them (`insertStatements`): id,
        // source, time, time_exact, name, version, subject, data content type, data schema,
        // metadata, payload, and the NOTIFY's channel when there is one. The SQL casts each.
        let row = [
          String.psqlType, String.psqlType, Date.psqlType, Double.psqlType, String.psqlType, Int.psqlType,
          String.psqlType, String.psqlType, String.psqlType, String.psqlType, String.psqlType,
        ]
        types = row + Array(repeating: String.psqlType, count: max(0, binds - row.count))
      }
    }

    @TaskLocal static var text = Text(sql: "", generation: 0, binds: 0)

    // Read only inside `send`'s binding of `text`; an empty SQL means PostgresNIO read them
    // elsewhere, which would send a statement that is not the store's.
    static var name: String {
      precondition(!text.sql.isEmpty, "read outside PostgresEventStore.send")
      return text.name
    }
    static var sql: String {
      precondition(!text.sql.isEmpty, "read outside PostgresEventStore.send")
      return text.sql
    }
    static var bindingDataTypes: [PostgresDataType] { text.types }

    let binds: PostgresBindings

    func makeBindings() throws -> PostgresBindings { binds }
    func decodeRow(_ row: PostgresRow) throws {}
  }
#endif
