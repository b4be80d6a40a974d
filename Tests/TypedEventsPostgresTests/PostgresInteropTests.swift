#if PostgreSQL
  import Foundation
  import PostgresNIO
  import SampleEvents
  import TestSupport
  import Testing
  import TypedEvents
  import TypedEventsPostgres

  extension PostgresEventStoreTests {
    @Test func anEnvelopeFromElsewhereIsStoredWhole() async throws {
      try await withStore { store in
        let foreign = EventEnvelope(
          id: "A234-1234-1234", source: "https://github.com/cloudevents/spec/pull", time: nil,
          name: "Inventory.BoxProvisioned", version: 1, subject: "123",
          dataContentType: "application/json; charset=utf-8", dataSchema: "https://example.com/box.json",
          metadata: ["retries": 3, "replayed": true, "region": "eu"],
          payload: Data(#"{"boxId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","title":"from elsewhere"}"#.utf8))
        try await store.append([foreign])
        let read = try await store.read(after: nil, limit: 10)
        #expect(read.envelopes.map(\.envelope) == [foreign])
        #expect(Self.titles(read) == ["from elsewhere"])
      }
    }

    /// A store made before envelopes carried any CloudEvent: uuid ids, times required. The
    /// migration turns it into today's, and the old rows read back as they were appended.
    @Test func aStoreOfTheOldShapeIsMigratedAndReadsItsEvents() async throws {
      try await withStore { store in
        let schema = store.schema
        let id = UUID()
        let time = Date(timeIntervalSinceReferenceDate: 785_000_000.123_456_7)
        try await store.client.query(
          """
          DROP TABLE \(unescaped: schema).events, \(unescaped: schema).dead_letters;
          """)
        try await store.client.query(
          """
          CREATE TABLE \(unescaped: schema).events (
            position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            tx xid8 NOT NULL DEFAULT pg_current_xact_id(), id uuid NOT NULL UNIQUE, time timestamptz NOT NULL,
            time_exact float8 NOT NULL, name text NOT NULL, version integer NOT NULL, subject text,
            metadata jsonb NOT NULL DEFAULT '{}', payload json NOT NULL)
          """)
        try await store.client.query(
          """
          CREATE TABLE \(unescaped: schema).dead_letters (
            group_name text NOT NULL, event_id uuid NOT NULL, tx xid8 NOT NULL, position bigint NOT NULL,
            name text NOT NULL, subject text, attempts integer NOT NULL, error text NOT NULL, envelope json NOT NULL,
            parked timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (group_name, event_id))
          """)
        let payload = #"{"boxId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","title":"old"}"#
        try await store.client.query(
          """
          INSERT INTO \(unescaped: schema).events (id, time, time_exact, name, version, metadata, payload)
          VALUES (\(id), now(), \(time.timeIntervalSinceReferenceDate), 'Inventory.BoxProvisioned', 1,
            '{"trace":"abc"}', \(payload)::json)
          """)
        try await store.migrate()
        try await store.migrate()  // idempotent: ids are not upper-cased twice, nothing else changes
        let envelope = try #require(try await store.read(after: nil, limit: 10).envelopes.first?.envelope)
        #expect(envelope.id == id.uuidString)
        #expect(envelope.time == time)
        #expect(envelope.metadata == ["trace": "abc"])
        #expect(Self.titles(try await store.read(after: nil, limit: 10)) == ["old"])
        let foreign = EventEnvelope(
          id: "lower-case-id", source: "/x", time: nil, name: "Inventory.BoxProvisioned", version: 1,
          payload: Data(payload.utf8))
        try await store.append([foreign])
        try await store.migrate()
        #expect(
          try await store.read(after: nil, limit: 10).envelopes.map(\.envelope.id) == [id.uuidString, "lower-case-id"])
      }
    }

    /// PostgreSQL's own `timestamptz` parser reads every timestamp the envelope writes, to its
    /// microsecond: a peer nobody here wrote.
    @Test func timestamptzReadsEveryTimestampToTheMicrosecond() async throws {
      try await withStore(listening: false) { store in
        var random = SplitMix64(state: 0x7157)
        var texts: [String] = []
        var dates: [Date] = []
        for _ in 0..<2_000 {
          let interval = Double(random.next() >> 11) / Double(1 << 53) * 4_134_067_200 - 978_307_200
          let date = Date(timeIntervalSinceReferenceDate: interval)
          guard let text = EventTimestamp.string(from: date) else { continue }
          texts.append(text)
          dates.append(date)
        }
        // One round trip: the text array, parsed by the server, as microseconds since 1970.
        let rows = try await store.client.query(
          """
          SELECT (extract(epoch FROM t::timestamptz) * 1000000)::bigint FROM unnest(\(texts)::text[]) AS t
          """)
        var index = 0
        for try await micros in rows.decode(Int64.self) {
          let expected = (dates[index].timeIntervalSince1970 * 1_000_000).rounded()
          #expect(abs(Double(micros) - expected) <= 1, "\(texts[index]) → \(micros)")
          index += 1
        }
        #expect(index == texts.count)
      }
    }
  }

#endif
