#if PostgreSQL
  import Foundation
  import PostgresNIO
  import SampleEvents
  import Testing
  import TypedEvents
  import TypedEventsPostgres

  #if canImport(Glibc)
    import Glibc
  #endif

  /// One partitioned group over separate processes (`postgres-group-member`), under faults:
  /// a member killed with SIGKILL mid-batch, one added later, one stopped gracefully, while 16
  /// writers append with random rollbacks.
  extension PostgresEventStoreTests {
    static let faultPartitions = 8
    static let faultBatch = 10  // postgres-group-member's batch size

    /// One line of a member's log.
    struct Handled {
      var member: Int
      var nanoseconds: Int64
      var id: String
      var subject: String
      var sequence: Int
    }

    static func handled(by process: ExampleProcess, member: Int) -> [Handled] {
      process.output.split(separator: "\n").compactMap { line in
        let words = line.split(separator: " ")
        guard words.count == 5, words[0] == "handled", let time = Int64(words[1]), let sequence = Int(words[4])
        else { return nil }
        return Handled(
          member: member, nanoseconds: time, id: String(words[2]), subject: String(words[3]), sequence: sequence)
      }
    }

    /// The ids that committed, and how many transactions rolled back.
    actor Ledger {
      var committed: Set<String> = []
      var rolledBack = 0
      var stopped = false
      func commit(_ ids: [String]) { committed.formUnion(ids) }
      func rollBack() { rolledBack += 1 }
      func stop() { stopped = true }
    }

    struct Rollback: Error {}

    /// Writer `index` appends 1 to 3 events per transaction about its own 4 subjects, each
    /// subject's titles counting up, and rolls a quarter of its transactions back, until told to
    /// stop (and at least 20 transactions).
    static func write(_ store: PostgresEventStore, index: Int, ledger: Ledger) async throws {
      let subjects = (0..<4).map { _ in BoxID(UUID()) }
      var next = [Int](repeating: 0, count: subjects.count)
      var random = SystemRandomNumberGenerator()
      var transactions = 0
      while await !ledger.stopped || transactions < 20 {
        transactions += 1
        var envelopes: [EventEnvelope] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
          let subject = Int.random(in: 0..<subjects.count, using: &random)
          envelopes.append(try EventEnvelope(Self.box("\(next[subject])", subjects[subject])))
          next[subject] += 1
        }
        let rollBack = Int.random(in: 0..<4, using: &random) == 0
        do {
          try await store.client.withTransaction(logger: store.logger) { connection in
            try await store.append(envelopes, on: connection)
            if rollBack { throw Rollback() }
          }
          await ledger.commit(envelopes.map(\.id))
        } catch {
          // Rolled back: its titles are never seen, so a subject's committed titles have gaps.
          await ledger.rollBack()
        }
        try await Task.sleep(for: .milliseconds(Int.random(in: 5...25, using: &random)))
      }
    }

    @Test(.timeLimit(.minutes(3)))
    func aGroupOfMemberProcessesKeepsItsPromisesThroughAKillAJoinAndAGracefulStop() async throws {
      try await withStore(listening: false) { store in
        let group = "fault"
        try await store.repartition(group: group, partitions: Self.faultPartitions)
        func member() throws -> ExampleProcess {
          try ExampleProcess(
            [group, "\(Self.faultPartitions)", "2"], schema: store.schema, executable: "postgres-group-member")
        }
        var members = try (0..<4).map { _ in try member() }
        try await eventually { try await Self.owners(store, group: group).values.sorted() == [2, 2, 2, 2] }
        #expect(try await Self.owners(store, group: group).values.sorted() == [2, 2, 2, 2])

        let ledger = Ledger()
        let writers = Task {
          try await withThrowingTaskGroup(of: Void.self) { tasks in
            for index in 0..<16 { tasks.addTask { try await Self.write(store, index: index, ledger: ledger) } }
            try await tasks.waitForAll()
          }
        }

        // 1. Member 0 is killed in the middle of a batch.
        try await eventually { Self.handled(by: members[0], member: 0).count >= 35 }
        members[0].kill(SIGKILL)
        let killed = ContinuousClock.now
        #expect(await members[0].exitStatus() == 128 + SIGKILL)
        // Rebalanced: the three live members hold every partition (the dead one's leases expired).
        try await eventually {
          let owners = try await Self.owners(store, group: group)
          return owners.count == 3 && owners.values.reduce(0, +) == Self.faultPartitions
        }
        let rebalance = ContinuousClock.now - killed

        // 2. A fifth member joins, and gets its share.
        members.append(try member())
        try await eventually { try await Self.owners(store, group: group).count == 4 }

        // 3. Member 1 stops gracefully: it checkpoints its batch and leaves.
        members[1].kill(SIGTERM)
        #expect(await members[1].exitStatus() == 0)
        #expect(members[1].output.contains("left \(group)"))

        await ledger.stop()
        try await writers.value
        let committed = await ledger.committed
        func everything() -> [Handled] {
          members.enumerated().flatMap { Self.handled(by: $1, member: $0) }
        }
        try await eventually { committed.isSubset(of: Set(everything().map(\.id))) }
        for index in [2, 3, 4] { members[index].kill(SIGTERM) }
        for index in [2, 3, 4] { #expect(await members[index].exitStatus() == 0) }

        let all = everything()
        let rolledBack = await ledger.rolledBack
        // What the members logged besides their events: errors and warnings, for a failure's reader.
        for (index, process) in members.enumerated() {
          let notes = process.output.split(separator: "\n").filter { !$0.hasPrefix("handled ") }.suffix(20)
          print("member \(index):\n  " + notes.joined(separator: "\n  "))
        }
        // Every committed event was handled, and nothing else: no rolled-back event.
        #expect(Set(all.map(\.id)) == committed)
        #expect(rolledBack > 0 && committed.count > 300, "\(committed.count) committed, \(rolledBack) rolled back")

        // Each member's log keeps every subject's order.
        for index in members.indices {
          let log = all.filter { $0.member == index }
          for (subject, events) in Dictionary(grouping: log, by: \.subject) {
            let sequences = events.map(\.sequence)
            #expect(
              sequences == sequences.sorted() && Set(sequences).count == sequences.count,
              "member \(index), subject \(subject): \(sequences)")
          }
        }

        // Duplicates: only the killed member's unsaved batch, handled again by its successors. The
        // member stopped gracefully saved what it had handled, though its handler was cancelled.
        let counts = Dictionary(grouping: all, by: \.id).mapValues(\.count)
        let duplicates = counts.filter { $0.value > 1 }
        #expect(duplicates.values.allSatisfy { $0 == 2 })
        #expect(duplicates.count <= Self.faultBatch, "\(duplicates.count) events handled twice")
        for id in duplicates.keys {
          #expect(all.contains { $0.id == id && $0.member == 0 }, "\(id) handled twice, not after the kill")
        }

        // A partition is handled by one member at a time: in time order, its handler changes
        // only when membership changed (the first shares, the kill, the join, the stop), never
        // back and forth as two members delivering at once would.
        let partitions = try await Self.partitionsOfEvents(store, count: Self.faultPartitions)
        var switches: [Int: Int] = [:]
        for (partition, events) in Dictionary(grouping: all, by: { partitions[$0.id] ?? -1 }) {
          let handlers = events.sorted { $0.nanoseconds < $1.nanoseconds }.map(\.member)
          switches[partition] = zip(handlers, handlers.dropFirst()).filter { $0 != $1 }.count
        }
        #expect(switches.values.allSatisfy { $0 <= 4 }, "handler changes per partition: \(switches)")
        print(
          """
          partition fault test: \(committed.count) events committed by 16 writers (\(rolledBack) transactions \
          rolled back), \(all.count) handled by 5 member processes, \(duplicates.count) twice (the killed \
          member's unsaved batch); \(Self.faultPartitions) partitions rebalanced \(rebalance) after the SIGKILL \
          (lease 2 s); handler changes per partition \(switches.sorted { $0.key < $1.key }.map(\.value))
          """)
      }
    }

    /// Each event's partition in a group of `count`, as the store computes it.
    static func partitionsOfEvents(_ store: PostgresEventStore, count: Int) async throws -> [String: Int] {
      var partitions: [String: Int] = [:]
      let rows = try await store.client.query(
        "SELECT id, coalesce(subject_hash, 0) % \(count) FROM \(unescaped: store.schema).events")
      for try await (id, partition) in rows.decode((String, Int).self) { partitions[id] = partition }
      return partitions
    }
  }
#endif
