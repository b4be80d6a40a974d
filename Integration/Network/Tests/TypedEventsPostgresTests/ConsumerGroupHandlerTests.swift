#if PostgreSQL
  import Foundation
  import PostgresNIO
  import SampleEvents
  import Testing
  import TypedEvents
  import TypedEventsPostgres

  /// Values recorded in the order they were reported, from any thread.
  final class Recorded<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    func append(_ value: Value) { lock.withLock { values.append(value) } }
    var all: [Value] { lock.withLock { values } }
  }

  /// The consumer group as a handler meets it: typed events, where each came from, and when a
  /// member has taken its share.
  extension PostgresEventStoreTests {
    /// A box, an item provisioned in it (both in the group `BoxEvent`) and an item moved out of
    /// it (outside the group), for each of `count` boxes.
    static func inventory(boxes count: Int) throws -> [EventEnvelope] {
      try (0..<count).flatMap { index -> [EventEnvelope] in
        let box = BoxID(UUID())
        let item = Item(id: ItemID(UUID()), title: "item \(index)", tags: [])
        return [
          try EventEnvelope(BoxProvisioned(boxId: box, title: "box \(index)")),
          try EventEnvelope(ItemProvisioned(boxId: box, item: item)),
          try EventEnvelope(ItemMoved(item: item, from: box, to: BoxID(UUID()))),
        ]
      }
    }

    /// The partition the store puts `subject` in, from its `subject_hash` column.
    static func partition(of subject: String?, in store: PostgresEventStore, partitions: Int) async throws -> Int {
      guard let subject else { return 0 }
      let rows = try await store.client.query(
        "SELECT subject_hash FROM \(unescaped: store.schema).events WHERE subject = \(subject) LIMIT 1")
      for try await hash in rows.decode(Int.self) { return hash % partitions }
      return -1
    }

    @Test func typedHandlersGetTheirTypeOrTheirGroupsCasesAndSeeTheirPartition() async throws {
      try await withStore { store in
        try await store.append(try Self.inventory(boxes: 6))
        let boxes = Collected<(String, PostgresConsumerGroup.Delivery)>()
        let running = Task {
          try await Self.group(store, "boxes", partitions: 4).run(BoxProvisioned.self) { box, delivery in
            await boxes.append((box.title, delivery))
          }
        }
        let cases = Collected<BoxEvent>()
        let grouped = Task {
          try await Self.group(store, "box-screens").run(BoxEvent.self) { value, _ in await cases.append(value) }
        }
        try await eventually { await boxes.count == 6 }
        try await eventually { await cases.count == 12 }
        try await Task.sleep(for: .milliseconds(300))  // time to deliver more, were it wrong
        running.cancel()
        grouped.cancel()
        try await running.value
        try await grouped.value
        #expect(await boxes.all.map(\.0) == (0..<6).map { "box \($0)" })
        for (_, delivery) in await boxes.all {
          #expect(delivery.envelope.name == BoxProvisioned.eventName)
          #expect(
            delivery.partition == (try await Self.partition(of: delivery.envelope.subject, in: store, partitions: 4)))
        }
        #expect(Set(await boxes.all.map(\.1.member)).count == 1)
        let kinds = await cases.all.map { value -> String in
          switch value {
          case .boxProvisioned: "box"
          case .itemProvisioned: "item"
          }
        }
        #expect(kinds == Array(repeating: ["box", "item"], count: 6).flatMap { $0 })
      }
    }

    @Test func membersSayWhenTheyHaveTakenTheirShare() async throws {
      try await withStore { store in
        let assignments = Recorded<PostgresConsumerGroup.Assignment>()
        func member() throws -> PostgresConsumerGroup {
          try PostgresConsumerGroup(
            store: store, name: "shares", catalog: GeneratedEvents.catalog, pollInterval: .milliseconds(100),
            lease: .seconds(3), partitions: 4, onAssignment: { assignments.append($0) }
          )
        }
        let first = Task { try await member().run { _, _ in } }
        // Alone, it reports all four after its first round.
        try await eventually { assignments.all.contains { $0.partitions == [0, 1, 2, 3] } }
        let second = Task { try await member().run { _, _ in } }
        // Two members, two partitions each: both say so, and between them they hold all four.
        let split = { (all: [PostgresConsumerGroup.Assignment]) -> [UUID: [Int]] in
          all.reduce(into: [:]) { latest, assignment in latest[assignment.member] = assignment.partitions }
        }
        try await eventually { split(assignments.all).values.map(\.count).sorted() == [2, 2] }
        let latest = split(assignments.all)
        #expect(latest.count == 2)
        #expect(latest.values.flatMap { $0 }.sorted() == [0, 1, 2, 3])
        #expect(assignments.all.last?.members == 2)
        first.cancel()
        second.cancel()
        try await first.value
        try await second.value
      }
    }
  }
#endif
