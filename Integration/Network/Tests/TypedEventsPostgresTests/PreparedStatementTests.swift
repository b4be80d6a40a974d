#if PostgreSQL
  import Foundation
  import PostgresNIO
  import SampleEvents
  import Testing
  import TypedEvents
  import TypedEventsPostgres

  extension PostgresEventStoreTests {
    /// The store's prepared statements on `connection`'s session: name and SQL, by name.
    static func preparedStatements(on connection: PostgresConnection) async throws -> [(name: String, sql: String)] {
      var statements: [(name: String, sql: String)] = []
      let rows = try await connection.query(
        "SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'typedevents\\_%' ORDER BY name",
        logger: Logger(label: "test"))
      for try await (name, sql) in rows.decode((String, String).self) { statements.append((name, sql)) }
      return statements
    }

    /// Every envelope of the store, in order, as it reads them back.
    static func stored(_ store: PostgresEventStore) async throws -> [EventEnvelope] {
      try await store.read(after: nil, limit: 100).envelopes.map(\.envelope)
    }

    @Test func anEventAppendedAloneGoesAsAStatementPreparedOnceAConnectionAndIsStoredAsWritten() async throws {
      try await withStore { store in
        let envelopes = try (0..<4).map {
          try EventEnvelope(
            Self.box("\($0)"), id: "box-\($0)", source: $0 == 0 ? nil : "/s",
            time: Date(timeIntervalSince1970: 1e9 + 0.25),
            metadata: $0 == 1 ? ["tenant": .string("t1")] : [:])
        }
        let batch = try (4..<6).map { try EventEnvelope(Self.box("\($0)"), id: "box-\($0)") }
        let statements = try await store.client.withConnection { connection in
          // Three transactions with the NOTIFY, one without, a repeat, and a batch of two.
          for envelope in envelopes[0..<3] {
            try await connection.withTransaction(logger: store.logger) { try await store.append([envelope], on: $0) }
          }
          try await store.append([envelopes[3]], on: connection, notify: false)
          try await store.append([envelopes[0]], on: connection)
          try await store.append(batch, on: connection)
          return try await Self.preparedStatements(on: connection)
        }
        // One statement with the NOTIFY and one without, in this store's schema; the batch's
        // multi-row INSERT is not prepared.
        #expect(statements.count == 2)
        #expect(statements.allSatisfy { $0.sql.contains("INSERT INTO \(store.schema).events") })
        #expect(statements.filter { $0.sql.contains("pg_notify") }.count == 1)
        // Stored once each, every attribute as written, as the unprepared INSERT stores them.
        let stored = try await Self.stored(store)
        #expect(stored.map(\.id) == (0..<6).map { "box-\($0)" })
        for (read, written) in zip(stored, envelopes + batch) {
          #expect(read.source == written.source && read.time == written.time && read.subject == written.subject)
          #expect(read.metadata["tenant"] == written.metadata["tenant"] && read.payload == written.payload)
          #expect(read.name == written.name && read.version == written.version)
        }
      }
    }

    @Test func twoStoresOnOneConnectionEachAppendThroughTheirOwnPreparedStatement() async throws {
      try await withStore { first in
        let second = try PostgresEventStore(client: first.client, schema: first.schema + "_b")
        try await second.migrate()
        defer { Task { try? await first.client.query("DROP SCHEMA \(unescaped: second.schema) CASCADE") } }
        let statements = try await first.client.withConnection { connection in
          try await first.append([try EventEnvelope(Self.box("first"))], on: connection)
          try await second.append([try EventEnvelope(Self.box("second"))], on: connection)
          try await first.append([try EventEnvelope(Self.box("first again"))], on: connection)
          return try await Self.preparedStatements(on: connection)
        }
        #expect(Set(statements.map(\.name)).count == 2)
        #expect(Self.titles(try await first.read(after: nil, limit: 10)) == ["first", "first again"])
        #expect(Self.titles(try await second.read(after: nil, limit: 10)) == ["second"])
      }
    }

    @Test func anAppendWhosePreparationFailedDoesNotFailLaterAppendsOnItsConnection() async throws {
      try await withStore { store in
        try await store.client.withConnection { connection in
          // In a transaction a failed statement aborted, the preparation itself fails.
          var appended = true
          do {
            try await connection.withTransaction(logger: store.logger) { connection in
              let divided = try? await connection.query("SELECT 1/0", logger: store.logger)
              #expect(divided == nil)
              try await store.append([try EventEnvelope(Self.box("in an aborted transaction"))], on: connection)
            }
          } catch {
            appended = false
          }
          #expect(!appended)
          // PostgresNIO remembers that failure for the statement's name on this connection:
          // neither this store nor another on the same schema may be handed it.
          let other = try PostgresEventStore(client: store.client, schema: store.schema)
          for (writer, title) in [(store, "after"), (other, "after, another store"), (store, "after again")] {
            try await connection.withTransaction(logger: store.logger) {
              try await writer.append([try EventEnvelope(Self.box(title))], on: $0)
            }
          }
          // A store appending before `migrate()` fails to prepare, and not after.
          let early = try PostgresEventStore(client: store.client, schema: store.schema + "_early")
          await #expect(throws: (any Error).self) {
            try await early.append([try EventEnvelope(Self.box("too early"))], on: connection)
          }
          try await early.migrate()
          try await early.append([try EventEnvelope(Self.box("migrated"))], on: connection)
          #expect(Self.titles(try await early.read(after: nil, limit: 10)) == ["migrated"])
          try await connection.query("DROP SCHEMA \(unescaped: early.schema) CASCADE", logger: store.logger)
        }
        #expect(
          Self.titles(try await store.read(after: nil, limit: 10)) == ["after", "after, another store", "after again"])
      }
    }

    @Test func anErrorRaisedWhileTheInsertRunsFailsTheAppendPreparedUnnamedOrBatched() async throws {
      try await withStore { store in
        let schema = store.schema
        try await store.client.query("CREATE TABLE \(unescaped: schema).boxes (title text)")
        // A trigger that refuses some events: an error that arrives while the statement runs,
        // after PostgreSQL has parsed and bound it, as a deadlock's or a timeout's does.
        try await store.client.query(
          PostgresQuery(
            unsafeSQL: """
              CREATE FUNCTION \(schema).refuse() RETURNS trigger LANGUAGE plpgsql AS $$
              BEGIN
                IF NEW.payload::text LIKE '%refused%' THEN RAISE EXCEPTION 'refused by a trigger'; END IF;
                RETURN NEW;
              END $$
              """))
        try await store.client.query(
          PostgresQuery(
            unsafeSQL:
              "CREATE TRIGGER refuse BEFORE INSERT ON \(schema).events FOR EACH ROW EXECUTE FUNCTION \(schema).refuse()"
          ))
        let unprepared = try PostgresEventStore(client: store.client, schema: schema, preparesStatements: false)
        for (name, writer, count) in [("prepared", store, 1), ("unnamed", unprepared, 1), ("batch", store, 2)] {
          var failed = false
          do {
            try await store.client.withTransaction(logger: store.logger) { connection in
              try await connection.query(
                "INSERT INTO \(unescaped: schema).boxes VALUES (\(name))", logger: store.logger)
              try await writer.append((0..<count).map { try EventEnvelope(Self.box("refused \($0)")) }, on: connection)
            }
          } catch {
            failed = "\(String(reflecting: error))".contains("refused by a trigger")
          }
          #expect(failed, "\(name): the append did not fail with the trigger's error")
        }
        // Nothing committed: no business row, no event.
        #expect(try await Self.committedBoxesAndEvents(store) == ([], []))
      }
    }

    @Test func aStoreThatPreparesNoStatementsSendsEachAppendUnnamed() async throws {
      try await withStore { store in
        let unprepared = try PostgresEventStore(client: store.client, schema: store.schema, preparesStatements: false)
        let statements = try await store.client.withConnection { connection in
          try await unprepared.append([try EventEnvelope(Self.box("unnamed"))], on: connection)
          try await connection.withTransaction(logger: store.logger) {
            try await unprepared.append([try EventEnvelope(Self.box("unnamed too"))], on: $0)
          }
          return try await Self.preparedStatements(on: connection)
        }
        #expect(statements.isEmpty)
        #expect(Self.titles(try await store.read(after: nil, limit: 10)) == ["unnamed", "unnamed too"])
      }
    }
  }
#endif
