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
