#if PostgreSQL
  import Foundation
  import PostgresNIO
  import SampleEvents
  import Testing
  import TypedEvents
  import TypedEventsPostgres

  /// Every PostgreSQL test in one serialized suite: the fault tests restart the server. Each
  /// test is bounded, so a hang fails with the test's name instead of stalling CI.
  @Suite(
    "PostgreSQL event store", .serialized, .timeLimit(.minutes(3)),
    .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
  struct PostgresEventStoreTests {
    static func box(_ title: String, _ id: BoxID = BoxID(UUID())) -> BoxProvisioned {
      BoxProvisioned(boxId: id, title: title)
    }

    /// The titles in the `boxes` table an outbox test made, and those of the store's events.
    static func committedBoxesAndEvents(_ store: PostgresEventStore) async throws -> ([String], [String]) {
      var rows: [String] = []
      for try await title in try await store.client.query("SELECT title FROM \(unescaped: store.schema).boxes")
        .decode(String.self)
      { rows.append(title) }
      return (rows, titles(try await store.read(after: nil, limit: 10)))
    }

    static func titles(_ batch: StoredBatch<PostgresEventPosition>) -> [String] {
      batch.envelopes.compactMap { try? $0.envelope.decode(using: GeneratedEvents.catalog) as? BoxProvisioned }.map(
        \.title)
    }

    /// Every title in the store, read from the start `limit` at a time, as a reader pages.
    static func pagedTitles(_ store: PostgresEventStore, limit: Int) async throws -> [String] {
      var titles: [String] = []
      var position: PostgresEventPosition?
      while true {
        let batch = try await store.read(after: position, limit: limit)
        if batch.envelopes.isEmpty { return titles }
        titles += Self.titles(batch)
        position = batch.next
      }
    }

    @Test func theMigrationRunsAgainAndConcurrentlyWithoutChange() async throws {
      try await withStore { store in
        try await store.append(Self.box("kept"))
        async let first: Void = store.migrate()
        async let second: Void = store.migrate()
        _ = try await (first, second)
        #expect(Self.titles(try await store.read(after: nil, limit: 10)) == ["kept"])
      }
    }

    /// The tables, columns, types, defaults and indexes of the store's schema, one line each.
    static func layout(_ store: PostgresEventStore) async throws -> [String] {
      var lines: [String] = []
      let columns = try await store.client.query(
        """
        SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' '
          || coalesce(column_default, '') || ' ' || coalesce(generation_expression, '')
        FROM information_schema.columns WHERE table_schema = \(store.schema) ORDER BY 1
        """)
      for try await line in columns.decode(String.self) { lines.append(line) }
      let indexes = try await store.client.query(
        "SELECT indexdef FROM pg_indexes WHERE schemaname = \(store.schema) ORDER BY indexname")
      for try await line in indexes.decode(String.self) {
        lines.append(line.replacingOccurrences(of: store.schema, with: "S"))
      }
      return lines
    }

    @Test func aStoreAtTheLatestLayoutMigratesToItselfAndRecordsEachStepOnce() async throws {
      try await withStore { store in
        try await store.append(Self.box("kept"))
        let before = try await Self.layout(store)
        #expect(before.contains { $0.hasPrefix("events.subject_hash integer YES") })
        #expect(before.contains { $0.hasPrefix("consumer_group_partitions.owner uuid YES") })
        try await store.migrate()
        try await store.migrate()
        #expect(try await Self.layout(store) == before)
        var versions: [Int] = []
        let rows = try await store.client.query(
          "SELECT version FROM \(unescaped: store.schema).schema_migrations ORDER BY version")
        for try await version in rows.decode(Int.self) { versions.append(version) }
        #expect(versions == Array(1...PostgresEventStore.layoutVersion))
        #expect(Self.titles(try await store.read(after: nil, limit: 10)) == ["kept"])
      }
    }

    @Test func aStoreAtLayoutOneWithEventsMigratesToLayoutTwo() async throws {
      try await withStore { store in
        let kept = try EventEnvelope(Self.box("kept"), source: "/a")
        try await store.append([kept])
        // Layout 1 as its release left it: ids unique across sources, no identity.
        let schema = store.schema
        for statement in [
          "DROP INDEX \(schema).events_identity", "DROP TABLE \(schema).store_identity",
          "ALTER TABLE \(schema).events ADD CONSTRAINT events_id_key UNIQUE (id)",
          "DELETE FROM \(schema).schema_migrations WHERE version > 1",
        ] {
          try await store.client.query(PostgresQuery(unsafeSQL: statement))
        }
        try await store.migrate()
        let identity = try #require(try await store.storeIdentity())
        #expect(UUID(uuidString: identity) != nil)
        // The same id from another source is another event now; the kept one is still there.
        var other = kept
        other.source = "/b"
        #expect(try await store.appendOnce([other, kept]).map(\.wasStored) == [false, true])
        #expect(Self.titles(try await store.read(after: nil, limit: 10)) == ["kept", "kept"])
      }
    }

    @Test func aStoreHasOneIdentityForEveryReaderAndKnowsItsPositions() async throws {
      try await withStore { store in
        try await store.append((0..<3).map { try EventEnvelope(Self.box("\($0)")) })
        let identity = try #require(try await store.storeIdentity())
        let again = try PostgresEventStore(client: store.client, schema: store.schema)
        #expect(try await again.storeIdentity() == identity)
        let positions = try await store.read(after: nil, limit: 10).envelopes.map(\.position)
        for position in positions { #expect(try await store.isPosition(position)) }
        let last = try #require(positions.last)
        // Between rows, before the first, after a deleted one: reading after them is well defined.
        for position in [
          PostgresEventPosition(transaction: last.transaction, sequence: last.sequence + 1),
          PostgresEventPosition(transaction: 0, sequence: 0),
        ] {
          #expect(try await store.isPosition(position), "\(position)")
        }
        // Past the end: a transaction that has not ended; and a negative sequence, which no row has.
        for position in [
          PostgresEventPosition(transaction: last.transaction + 1_000_000, sequence: last.sequence),
          PostgresEventPosition(transaction: last.transaction, sequence: -1),
        ] {
          #expect(try await !store.isPosition(position), "\(position)")
        }
        let otherIdentity = try await withStore { other in try await other.storeIdentity() }
        #expect(otherIdentity != nil && otherIdentity != identity)
      }
    }

    @Test func aReadBoundedInBytesEndsBeforeThePayloadThatWouldPassThemAndAlwaysTakesOne() async throws {
      try await withStore { store in
        let title = String(repeating: "t", count: 1_000)
        try await store.append((0..<5).map { try EventEnvelope(Self.box(title + "\($0)")) })
        // An envelope's data and attributes, as the read counts them (the server's measure
        // differs by a few bytes: `{}` for no metadata).
        let one = try await store.read(after: nil, limit: 1).envelopes[0].envelope.byteCount
        var titles: [String] = []
        var position: PostgresEventPosition?
        var reads = 0
        while true {
          let batch = try await store.read(after: position, limit: 10, maximumBytes: 2 * one + 10)
          if batch.envelopes.isEmpty { break }
          #expect(batch.envelopes.count <= 2)
          titles += Self.titles(batch)
          position = batch.next
          reads += 1
        }
        #expect(titles == (0..<5).map { title + "\($0)" })
        #expect(reads == 3)
        #expect(try await store.read(after: nil, limit: 10, maximumBytes: 1).envelopes.count == 1)
      }
    }

    @Test func aReadBoundedInBytesCountsAttributesToo() async throws {
      try await withStore { store in
        // Little data and 10 KB of attributes: counted by data alone, one read would take all.
        let big = String(repeating: "m", count: 10_000)
        try await store.append(
          (0..<5).map {
            var envelope = try EventEnvelope(Self.box("b\($0)"))
            envelope.metadata["note"] = .string(big)
            return envelope
          })
        let batch = try await store.read(after: nil, limit: 10, maximumBytes: 25_000)
        #expect(batch.envelopes.count == 2)
        let filtered = try await store.read(
          after: nil, limit: 10, maximumBytes: 25_000, matching: EventReadFilter(types: [BoxProvisioned.eventName]))
        #expect(filtered.envelopes.count == 2)
      }
    }

    /// The query passes over other types and subjects: the limit and the bytes count only what
    /// it keeps, and the next read starts past the others.
    @Test func aFilteredReadKeepsTheTypesAndSubjectItIsAskedForAndGoesOnPastTheRest() async throws {
      try await withStore { store in
        let wanted = BoxID(UUID())
        let item = Item(id: ItemID(UUID()), title: "an item", tags: [])
        // One wanted event in ten, between boxes about other ids and items put in the same box.
        try await store.append(
          (0..<100).map { index -> EventEnvelope in
            if index % 10 == 9 { return try EventEnvelope(Self.box("\(index)", wanted)) }
            if index % 2 == 0 { return try EventEnvelope(Self.box("\(index)")) }
            return try EventEnvelope(ItemProvisioned(boxId: wanted, item: item))
          })
        // Asked for as another language writes a UUID: lower case.
        let filter = EventReadFilter(
          types: [BoxProvisioned.eventName], subject: wanted.rawValue.uuidString.lowercased())
        let first = try await store.read(after: nil, limit: 3, maximumBytes: .max, matching: filter)
        #expect(Self.titles(first) == ["9", "19", "29"])
        #expect(first.next == first.envelopes.last?.position)
        let rest = try await store.read(after: first.next, limit: 100, maximumBytes: .max, matching: filter)
        #expect(Self.titles(rest) == stride(from: 39, to: 100, by: 10).map { "\($0)" })
        #expect(rest.next == (try await store.endPosition()))
        // Nothing after the end: the same position again.
        let none = try await store.read(after: rest.next, limit: 10, maximumBytes: .max, matching: filter)
        #expect(none.envelopes.isEmpty && none.next == rest.next)
        // The bytes count only what is kept: a budget of one kept payload keeps one.
        let one = first.envelopes[0].envelope.payload.count
        let bounded = try await store.read(after: nil, limit: 10, maximumBytes: one, matching: filter)
        #expect(Self.titles(bounded) == ["9"])
        // A type alone, and a subject alone.
        let items = try await store.read(
          after: nil, limit: 100, maximumBytes: .max, matching: EventReadFilter(types: [ItemProvisioned.eventName]))
        #expect(items.envelopes.count == 40)
        let about = try await store.read(
          after: nil, limit: 100, maximumBytes: .max, matching: EventReadFilter(subject: wanted.rawValue.uuidString))
        #expect(about.envelopes.count == 50)
        // A subject or type with NUL, which PostgreSQL's text cannot hold, matches nothing: the
        // read goes past everything instead of failing.
        for nothing in [EventReadFilter(subject: "a\u{0}b"), EventReadFilter(types: ["x\u{0}"])] {
          let empty = try await store.read(after: nil, limit: 10, maximumBytes: .max, matching: nothing)
          #expect(empty.envelopes.isEmpty && empty.next == rest.next, "\(nothing)")
        }
      }
    }

    @Test func aFilteredReadBySubjectGoesPastEventsWithoutOne() async throws {
      // An event without a subject last in the store: its `subject = $1` is NULL, not false, and
      // the read must still go past it (schemathesis found a 503 here).
      try await withStore { store in
        let wanted = BoxID(UUID())
        try await store.append([
          try EventEnvelope(Self.box("kept", wanted)),
          EventEnvelope(id: UUID().uuidString, time: Date(), name: "Test.Any", version: 1, payload: Data("{}".utf8)),
        ])
        for subject in [wanted.rawValue.uuidString, "other"] {
          let read = try await store.read(
            after: nil, limit: 10, maximumBytes: .max, matching: EventReadFilter(subject: subject))
          #expect(read.envelopes.count == (subject == "other" ? 0 : 1), "\(subject)")
          #expect(read.next == (try await store.endPosition()), "\(subject)")
        }
      }
    }

    @Test func aStoreOfAnUnreleasedBuildOrOfANewerReleaseIsRefusedAndLeftAsItIs() async throws {
      try await withStore { store in
        try await store.append(Self.box("kept"))
        let known = PostgresEventStore.layoutVersion
        try await store.client.query(
          "INSERT INTO \(unescaped: store.schema).schema_migrations (version) VALUES (\(known + 1))")
        await #expect(
          throws: PostgresEventStoreError.newerLayout(schema: store.schema, version: known + 1, known: known)
        ) {
          try await store.migrate()
        }
        // Tables without a record of their layout, as builds before the first release made them.
        try await store.client.query("DROP TABLE \(unescaped: store.schema).schema_migrations")
        await #expect(throws: PostgresEventStoreError.unversionedStore(schema: store.schema)) {
          try await store.migrate()
        }
        #expect(Self.titles(try await store.read(after: nil, limit: 10)) == ["kept"])
      }
    }

    @Test func refusesSchemaNamesThatWouldNeedQuoting() throws {
      let client = PostgresClient(configuration: try PostgresTestServer.configuration)
      for name in ["", "Events", "a-b", "a;drop", "1abc", String(repeating: "a", count: 49)] {
        #expect(throws: PostgresEventStoreError.invalidSchemaName(name)) {
          try PostgresEventStore(client: client, schema: name)
        }
      }
    }

    @Test func anEventReadBackIsEqualToTheOneAppendedToTheBit() async throws {
      try await withStore { store in
        // Sub-microsecond digits that timestamptz and millisecond ISO 8601 would round away.
        let sold = ListingSold(
          id: ListingID("l-1"), price: Money(amount: Decimal(string: "129.99") ?? 0, currency: .euro),
          soldAt: Date(timeIntervalSinceReferenceDate: 785_000_000.123_456_7), buyer: UserID(UUID()), channel: "web")
        let envelope = try EventEnvelope(sold, time: Date(), metadata: ["z": "last", "a": "first", "u": "ö"])
        try await store.append([envelope])
        let read = try await store.read(after: nil, limit: 10)
        #expect(read.envelopes.map(\.envelope) == [envelope])
        #expect(read.envelopes.first?.envelope.payload == envelope.payload)
        #expect(try read.envelopes.first?.envelope.decode(using: GeneratedEvents.catalog) as? ListingSold == sold)
        #expect(read.next == read.envelopes.last?.position)
      }
    }

    @Test func refusesAPayloadThatIsNotOneLineOfJSONAndStoresNothingOfTheBatch() async throws {
      try await withStore { store in
        let good = try EventEnvelope(Self.box("good"))
        let bad = EventEnvelope(
          id: UUID().uuidString, time: Date(), name: "Inventory.BoxProvisioned", version: 1,
          payload: Data("[1,\n2]".utf8))
        await #expect(throws: EventLogError.self) { try await store.append([good, bad]) }
        #expect(try await store.read(after: nil, limit: 10).envelopes.isEmpty)
      }
    }

    @Test func keepsAPayloadThatIsAnyJSONValueAsWrittenAndBytesAsTheyAre() async throws {
      // A message whose payload is a string, a number, a Boolean or an array is an event too,
      // and so is a binary frame, whose bytes (no UTF-8, no JSON) are kept as base64 text.
      try await withStore { store in
        let payloads = [#"[1,{"a":"b"}]"#, #""text""#, "12.50", "false"]
        let bytes = Data((0...255).map(UInt8.init) + [0x00, 0x0A])
        let frame = EventEnvelope(
          id: UUID().uuidString, time: Date(), name: "Test.Frame", version: 1, dataContentType: "audio/ogg",
          payload: bytes)
        try await store.append(
          payloads.map {
            EventEnvelope(id: UUID().uuidString, time: Date(), name: "Test.Any", version: 1, payload: Data($0.utf8))
          } + [frame])
        let read = try await store.read(after: nil, limit: 10)
        #expect(read.envelopes.prefix(4).map { String(decoding: $0.envelope.payload, as: UTF8.self) } == payloads)
        #expect(read.envelopes.last?.envelope.payload == bytes)
        #expect(read.envelopes.last?.envelope.dataContentType == "audio/ogg")
        #expect(read.skipped.isEmpty)
      }
    }

    @Test func appendingAnIdAgainStoresItOnce() async throws {
      try await withStore { store in
        let envelope = try EventEnvelope(Self.box("once"))
        try await store.append([envelope])
        try await store.append([envelope, try EventEnvelope(Self.box("twice"))])
        #expect(Self.titles(try await store.read(after: nil, limit: 10)) == ["once", "twice"])
      }
    }

    @Test func appendOnceAnswersWhereEachEnvelopeIsAndAppendsARetryNever() async throws {
      try await withStore { store in
        let first = try EventEnvelope(Self.box("first"), source: "/a")
        let second = try EventEnvelope(Self.box("second"), source: "/a")
        let appended = try await store.appendOnce([first, second, first])
        #expect(appended.map(\.wasStored) == [false, false, true])
        #expect(appended[2].position == appended[0].position)
        let third = try EventEnvelope(Self.box("third"), source: "/a")
        let retried = try await store.appendOnce([second, third])
        #expect(retried.map(\.wasStored) == [true, false])
        #expect(retried[0].position == appended[1].position)
        let batch = try await store.read(after: nil, limit: 10)
        #expect(Self.titles(batch) == ["first", "second", "third"])
        #expect(batch.envelopes.map(\.position) == [appended[0].position, appended[1].position, retried[1].position])
        // Reading after an answered position goes on with the next envelope.
        #expect(Self.titles(try await store.read(after: appended[0].position, limit: 10)) == ["second", "third"])
        // The identity is source and id, compared as bytes, as the EventLog compares them: the
        // same id from another source is another event, and so is an id in another
        // normalization of the same text.
        let other = EventEnvelope(
          id: first.id, source: "/b", time: first.time, name: first.name, version: first.version,
          subject: first.subject, payload: first.payload)
        var nfc = first
        nfc.id = "caf\u{E9}"
        var nfd = first
        nfd.id = "cafe\u{301}"
        let more = try await store.appendOnce([other, nfc, nfd, other, nfd])
        #expect(more.map(\.wasStored) == [false, false, false, true, true])
        #expect(more[3].position == more[0].position && more[4].position == more[2].position)
        #expect(try await store.read(after: nil, limit: 10).envelopes.count == 6)
      }
    }

    @Test func theEndPositionIsAfterTheNewestVisibleEventAndAheadOfNothing() async throws {
      try await withStore { store in
        #expect(try await store.endPosition() == nil)
        try await store.append((0..<5).map { try EventEnvelope(Self.box("\($0)")) })
        let end = try await store.endPosition()
        #expect(end == (try await store.read(after: nil, limit: 10)).envelopes.last?.position)
        try await store.append([try EventEnvelope(Self.box("later"))])
        #expect(Self.titles(try await store.read(after: end, limit: 10)) == ["later"])
      }
    }

    @Test func readsPageThroughTheStoreInOrder() async throws {
      try await withStore { store in
        try await store.append((0..<2_500).map { try EventEnvelope(Self.box("\($0)")) })
        let titles = try await Self.pagedTitles(store, limit: 300)
        #expect(titles == (0..<2_500).map { "\($0)" })
      }
    }

    @Test func ordersTransactionIdsByNumberAcrossDigitBoundaries() async throws {
      try await withStore { store in
        // Transaction ids below any the server hands out now, so the fence shows them all; as
        // text, 100 < 11 < 99 < 9. Inserted out of order, so the insertion order proves nothing.
        let transactions: [UInt64] = [100, 9, 99, 8, 10, 11]
        for transaction in transactions {
          let envelope = try EventEnvelope(Self.box("\(transaction)"))
          try await store.client.query(
            """
            INSERT INTO \(unescaped: store.schema).events (tx, id, time, time_exact, name, version, payload)
            VALUES (\(String(transaction))::xid8, \(envelope.id), now(), 0, \(envelope.name), 1,
              \(String(decoding: envelope.payload, as: UTF8.self))::json)
            """)
        }
        let numeric = transactions.sorted().map { "\($0)" }
        #expect(Self.titles(try await store.read(after: nil, limit: 10)) == numeric)
        let paged = try await Self.pagedTitles(store, limit: 1)
        #expect(paged == numeric)
        // The dead-letter table keeps the same order.
        for stored in try await store.read(after: nil, limit: 10).envelopes.reversed() {
          try await store.client.query(
            """
            INSERT INTO \(unescaped: store.schema).dead_letters
              (group_name, event_id, tx, position, name, attempts, error, envelope)
            VALUES ('g', \(stored.envelope.id), \(String(stored.position.transaction))::xid8,
              \(stored.position.sequence), \(stored.envelope.name), 1, 'failed',
              \(String(decoding: try stored.envelope.cloudEventJSON(source: "/test"), as: UTF8.self))::json)
            """)
        }
        #expect(
          try await store.deadLetters(group: "g").map { "\($0.position.transaction)" } == numeric)
      }
    }

    @Test func aTransactionHeldOpenHoldsBackLaterCommitsUntilItCommits() async throws {
      try await withStore { store in
        try await store.client.withConnection { held in
          try await held.query("BEGIN", logger: store.logger)
          try await store.append([try EventEnvelope(Self.box("first, committed last"))], on: held)
          try await store.append(Self.box("second, committed first"))
          // A reader that went by position would deliver "second", move past it, and never see
          // "first": the fence shows neither until the older transaction ends.
          #expect(try await store.read(after: nil, limit: 10).envelopes.isEmpty)
          try await held.query("COMMIT", logger: store.logger)
        }
        let read = try await store.read(after: nil, limit: 10)
        #expect(Self.titles(read) == ["first, committed last", "second, committed first"])
      }
    }

    @Test func outboxEventsCommitAndRollBackWithTheBusinessRows() async throws {
      try await withStore { store in
        try await store.client.query("CREATE TABLE \(unescaped: store.schema).boxes (title text)")
        struct Rollback: Error {}
        let error = await #expect(throws: PostgresTransactionError.self) {
          try await store.client.withTransaction(logger: store.logger) { connection in
            try await connection.query(
              "INSERT INTO \(unescaped: store.schema).boxes VALUES ('rolled back')", logger: store.logger)
            try await store.append(Self.box("rolled back"), on: connection)
            throw Rollback()
          }
        }
        #expect(error?.closureError is Rollback && error?.rollbackError == nil)
        try await store.client.withTransaction(logger: store.logger) { connection in
          try await connection.query(
            "INSERT INTO \(unescaped: store.schema).boxes VALUES ('committed')", logger: store.logger)
          try await store.append(Self.box("committed"), on: connection)
        }
        #expect(try await Self.committedBoxesAndEvents(store) == (["committed"], ["committed"]))
      }
    }

    @Test func theStoresTransactionRunsOnItsConnectionsEventLoopCommitsAndRollsBack() async throws {
      try await withStore { store in
        try await store.client.query("CREATE TABLE \(unescaped: store.schema).boxes (title text)")
        struct Rollback: Error {}
        await #expect(throws: (any Error).self) {
          try await store.withTransaction { connection in
            try await connection.query(
              "INSERT INTO \(unescaped: store.schema).boxes VALUES ('rolled back')", logger: store.logger)
            try await store.append(Self.box("rolled back"), on: connection)
            throw Rollback()
          }
        }
        // A reader waiting for a wake-up: the NOTIFY that rides on the INSERT reaches it at commit.
        let woken = Task { try await store.waitForEnvelopes(after: nil, timeout: .seconds(30)) }
        let onLoop = try await store.withTransaction { connection in
          try await connection.query(
            "INSERT INTO \(unescaped: store.schema).boxes VALUES ('committed')", logger: store.logger)
          // Resumed after a statement, the task is on the connection's event loop, not the pool.
          let onLoop = connection.eventLoop.inEventLoop
          try await store.append(Self.box("committed"), on: connection)
          return onLoop && connection.eventLoop.inEventLoop
        }
        #expect(onLoop)
        let clock = ContinuousClock()
        let started = clock.now
        try await woken.value
        #expect(clock.now - started < .seconds(10))
        #expect(try await Self.committedBoxesAndEvents(store) == (["committed"], ["committed"]))
      }
    }

    @Test func sixteenWritersWithRandomRollbacksGiveEveryReaderOneOrderAndNoRolledBackEvent() async throws {
      try await withStore { store in
        let committed = Collected<String>()
        let rolledBack = Collected<String>()
        // A reader that follows the store while the writers write: the one a naive position
        // checkpoint would make lose events.
        let writersDone = Collected<Int>()
        let follower = Task {
          var position: PostgresEventPosition?
          var seen: [String] = []
          let deadline = ContinuousClock.now + .seconds(60)
          while ContinuousClock.now < deadline {
            // Once the writers are done, until it has as many events as they committed: any
            // write transaction on the server (autovacuum's ANALYZE among them) may hold the
            // newest events back for a moment, never for good. A lost event ends at the deadline.
            if let expected = await writersDone.all.first, seen.count >= expected { return seen }
            let batch = try await store.read(after: position, limit: 7)
            seen += Self.titles(batch)
            position = batch.next
            if batch.envelopes.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
          }
          return seen
        }
        try await withThrowingTaskGroup(of: Void.self) { writers in
          for writer in 0..<16 {
            writers.addTask {
              var random = SystemRandomNumberGenerator()
              struct Rollback: Error {}
              for transaction in 0..<15 {
                let titles = (0...Int.random(in: 0...2, using: &random)).map { "\(writer).\(transaction).\($0)" }
                let rollBack = Bool.random(using: &random)
                do {
                  try await store.client.withTransaction(logger: store.logger) { connection in
                    try await store.append(titles.map { try EventEnvelope(Self.box($0)) }, on: connection)
                    // Let other transactions start and commit while this one is open.
                    try await Task.sleep(for: .milliseconds(Int.random(in: 0...5)))
                    if rollBack { throw Rollback() }
                  }
                  for title in titles { await committed.append(title) }
                } catch let error as PostgresTransactionError where error.closureError is Rollback {
                  for title in titles { await rolledBack.append(title) }
                }
              }
            }
          }
          try await writers.waitForAll()
        }
        await writersDone.append(await committed.count)
        let followed = try await follower.value
        let afterwards = try await Self.pagedTitles(store, limit: 100)
        #expect(followed == afterwards)
        if followed != afterwards {
          var table: [String] = []
          for try await (tx, position, payload) in try await store.client.query(
            "SELECT tx::text, position, payload::text FROM \(unescaped: store.schema).events ORDER BY tx, position"
          ).decode((String, Int64, String).self) { table.append("\(tx)/\(position) \(payload)") }
          Issue.record(
            """
            followed \(followed.count), afterwards \(afterwards.count), committed \(await committed.count), \
            rolled back \(await rolledBack.count)
            followed: \(followed)
            afterwards: \(afterwards)
            table (\(table.count)):
            \(table.joined(separator: "\n"))
            """)
        }
        #expect(Set(afterwards) == Set(await committed.all))
        #expect(afterwards.count == (await committed.count))
        #expect(Set(afterwards).isDisjoint(with: await rolledBack.all))
        #expect(await rolledBack.count > 0)
      }
    }

    @Test func prunesOnlyWhatEveryGroupHasCheckpointedPast() async throws {
      try await withStore { store in
        try await store.append((0..<10).map { try EventEnvelope(Self.box("\($0)")) })
        #expect(try await store.prune() == 0)  // no group yet
        let all = try await store.read(after: nil, limit: 10).envelopes
        let delivered = Collected<String>()
        let group = try PostgresConsumerGroup(
          store: store, name: "slow", catalog: GeneratedEvents.catalog, batchSize: 4, pollInterval: .milliseconds(50))
        let running = Task {
          try await group.run { event, _ in await delivered.append((event as? BoxProvisioned)?.title ?? "") }
        }
        try await eventually { await delivered.count == 10 }
        running.cancel()
        try await running.value
        // A second group checkpointed after the fourth event holds the rest back.
        try await store.repartition(group: "behind", partitions: 1)
        try await store.client.query(
          """
          UPDATE \(unescaped: store.schema).consumer_group_partitions
          SET tx = \(String(all[3].position.transaction))::xid8, position = \(all[3].position.sequence)
          WHERE group_name = 'behind'
          """)
        #expect(try await store.prune() == 4)
        #expect(Self.titles(try await store.read(after: nil, limit: 10)) == (4..<10).map { "\($0)" })
      }
    }
  }
#endif
