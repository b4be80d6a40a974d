#if PostgreSQL
  import Foundation
  import PostgresNIO
  import SampleEvents
  import Testing
  import TypedEvents
  @testable import TypedEventsPostgres

  extension PostgresEventStoreTests {
    static func title(_ event: any Event) -> String { (event as? BoxProvisioned)?.title ?? "?" }

    static func group(
      _ store: PostgresEventStore, _ name: String = "readers", batchSize: Int = 10,
      pollInterval: Duration = .milliseconds(100), lease: Duration = .seconds(15), partitions: Int = 1,
      attempts: Int = 3
    ) throws -> PostgresConsumerGroup {
      try PostgresConsumerGroup(
        store: store, name: name, catalog: GeneratedEvents.catalog, batchSize: batchSize, pollInterval: pollInterval,
        lease: lease, partitions: partitions, attempts: attempts, retryDelay: .milliseconds(10))
    }

    @Test func aGroupCatchesUpGoesLiveAndResumesFromItsCheckpoint() async throws {
      try await withStore { store in
        try await store.append((0..<25).map { try EventEnvelope(Self.box("\($0)")) })
        let delivered = Collected<String>()
        let bus = EventBus()
        let subscription = bus.subscribe(BoxProvisioned.self) { event in Task { await delivered.append(event.title) } }
        let first = Task { try await Self.group(store).run(into: bus) }
        try await eventually { await delivered.count == 25 }
        try await store.append(Self.box("live"))
        try await eventually { await delivered.count == 26 }
        first.cancel()
        try await first.value
        withExtendedLifetime(subscription) {}

        // A new member of the group starts after the checkpoint: only what came since.
        try await store.append(Self.box("after restart"))
        let second = Collected<String>()
        let again = Task { try await Self.group(store).run { event, _ in await second.append(Self.title(event)) } }
        try await eventually { await second.count == 1 }
        try await Task.sleep(for: .milliseconds(300))
        again.cancel()
        try await again.value
        #expect(Set(await delivered.all) == Set((0..<25).map { "\($0)" } + ["live"]))
        #expect(await second.all == ["after restart"])
      }
    }

    @Test func aMemberCancelledAfterHandlingABatchSavesItsCheckpointSoTheNextDoesNotRepeatIt() async throws {
      try await withStore { store in
        try await store.append((0..<20).map { try EventEnvelope(Self.box("\($0)")) })
        let first = Collected<String>()
        // Cancelled by its own handler at the last event of its first batch of 10: the
        // checkpoint is still saved, though a cancelled task cannot lease a connection.
        let stopping = Task {
          try await Self.group(store, batchSize: 10).run { event, _ in
            await first.append(Self.title(event))
            if Self.title(event) == "9" { withUnsafeCurrentTask { $0?.cancel() } }
          }
        }
        try await stopping.value
        let second = Collected<String>()
        let next = Task {
          try await Self.group(store, batchSize: 10).run { event, _ in await second.append(Self.title(event)) }
        }
        try await eventually { await second.count >= 10 }
        try await Task.sleep(for: .milliseconds(300))
        next.cancel()
        try await next.value
        #expect(await first.all == (0..<10).map { "\($0)" })
        #expect(await second.all == (10..<20).map { "\($0)" })
      }
    }

    @Test func aPoisonEventIsRetriedThenParkedAndLaterEventsOfItsSubjectAreDelivered() async throws {
      try await withStore { store in
        let subject = BoxID(UUID())
        try await store.append(
          ["before", "poison", "after"].map { try EventEnvelope(Self.box($0, subject)) }
            + [try EventEnvelope(Self.box("other subject"))])
        let calls = Collected<String>()
        let group = try Self.group(store, attempts: 3)
        struct Poisoned: Error, CustomStringConvertible { var description: String { "cannot handle poison" } }
        let running = Task {
          try await group.run { event, _ in
            await calls.append(Self.title(event))
            if Self.title(event) == "poison" { throw Poisoned() }
          }
        }
        try await eventually { await calls.all.last == "other subject" }
        running.cancel()
        try await running.value
        #expect(await calls.all == ["before", "poison", "poison", "poison", "after", "other subject"])
        let parked = try await store.deadLetters(group: group.name)
        #expect(try parked.map { Self.title(try $0.envelope.decode(using: GeneratedEvents.catalog)) } == ["poison"])
        #expect(parked.first?.attempts == 3)
        #expect(parked.first?.error == "cannot handle poison")
        #expect(parked.first?.envelope.subject == subject.rawValue.uuidString)
      }
    }

    @Test func envelopesTheCatalogCannotDecodeAreReportedAndSkipped() async throws {
      try await withStore { store in
        let unknown = EventEnvelope(
          id: UUID().uuidString, time: Date(), name: "Other.Thing", version: 1, payload: Data(#"{"a":1}"#.utf8))
        var newer = try EventEnvelope(Self.box("from a newer deploy"))
        newer.version = 2
        try await store.append([unknown, newer, try EventEnvelope(Self.box("known"))])
        let skipped = Collected<String>()
        let delivered = Collected<String>()
        let group = try PostgresConsumerGroup(
          store: store, name: "readers", catalog: GeneratedEvents.catalog, pollInterval: .milliseconds(50),
          onSkipped: { skip in Task { await skipped.append(skip.envelope?.name ?? "?") } })
        let running = Task { try await group.run { event, _ in await delivered.append(Self.title(event)) } }
        try await eventually {
          let (handled, reported) = (await delivered.count, await skipped.count)
          return handled == 1 && reported == 2
        }
        running.cancel()
        try await running.value
        #expect(await delivered.all == ["known"])
        #expect(await skipped.all.sorted() == ["Inventory.BoxProvisioned", "Other.Thing"])
      }
    }

    @Test func anotherMemberTakesOverWhenTheLeaseOfACrashedOneExpires() async throws {
      try await withStore { store in
        try await store.append((0..<5).map { try EventEnvelope(Self.box("\($0)")) })
        // A member that crashed while holding the lease: it renews nothing any more. The clock
        // starts before the lease is stamped, so a slow INSERT cannot shorten what it measures.
        let crashed = UUID()
        let started = ContinuousClock.now
        try await store.client.query(
          "INSERT INTO \(unescaped: store.schema).consumer_groups (name, partitions) VALUES ('readers', 1)")
        try await store.client.query(
          """
          INSERT INTO \(unescaped: store.schema).consumer_group_partitions (group_name, partition, owner, lease_expires)
          VALUES ('readers', 0, \(crashed), now() + interval '2 seconds')
          """)
        try await store.client.query(
          """
          INSERT INTO \(unescaped: store.schema).consumer_group_members (group_name, member, expires)
          VALUES ('readers', \(crashed), now() + interval '2 seconds')
          """)
        let delivered = Collected<String>()
        let running = Task {
          try await Self.group(store, lease: .seconds(1)).run { event, _ in await delivered.append(Self.title(event)) }
        }
        try await eventually { await delivered.count == 5 }
        let waited = ContinuousClock.now - started
        running.cancel()
        try await running.value
        #expect(await delivered.all == (0..<5).map { "\($0)" })
        #expect(waited >= .milliseconds(1_500), "delivered while the crashed member's lease still held")
      }
    }

    @Test func twoLiveMembersDeliverEachEventOnceInOrderAndTheSecondTakesOverWhenTheFirstStops() async throws {
      try await withStore { store in
        let delivered = Collected<String>()
        // Leases long enough that a loaded machine cannot make the first member's lapse; a
        // cancelled member gives its partition up, so the second takes over without waiting.
        let first = Task {
          try await Self.group(store, lease: .seconds(5)).run { event, _ in
            await delivered.append("1:" + Self.title(event))
          }
        }
        // The first member takes the lease before the second starts (a fixed sleep could be too
        // short on a loaded machine).
        try await eventually { try await Self.owners(store, group: "readers").count == 1 }
        let second = Task {
          try await Self.group(store, lease: .seconds(5)).run { event, _ in
            await delivered.append("2:" + Self.title(event))
          }
        }
        for index in 0..<20 { try await store.append(Self.box("\(index)")) }
        try await eventually { await delivered.count == 20 }
        first.cancel()
        try await first.value
        for index in 20..<30 { try await store.append(Self.box("\(index)")) }
        try await eventually { await delivered.count == 30 }
        second.cancel()
        try await second.value
        let all = await delivered.all
        #expect(all.map { $0.dropFirst(2) } == (0..<30).map { "\($0)"[...] })
        #expect(all.prefix(20).allSatisfy { $0.hasPrefix("1:") })
        #expect(all.suffix(10).allSatisfy { $0.hasPrefix("2:") })
      }
    }

    @Test func theListenerReconnectsAfterItsBackendIsTerminatedAndWakesReaders() async throws {
      try await withStore { store in
        let delivered = Collected<String>()
        // A poll so long that only wake-ups can deliver within the test's bounds.
        let running = Task {
          try await Self.group(store, pollInterval: .seconds(120), lease: .seconds(600)).run { event, _ in
            await delivered.append(Self.title(event))
          }
        }
        let listeners = { try await retrying { try await self.listenerPIDs(store) } }
        try await eventually { try await listeners().count == 1 }
        try await Task.sleep(for: .milliseconds(200))
        try await store.append(Self.box("before"))
        try await eventually { await delivered.count == 1 }
        let old = try await listeners()
        try await store.run("SELECT pg_terminate_backend(pid) FROM unnest(\(old)::int[]) AS pid")
        try await eventually {
          let now = try await listeners(); return now.count == 1 && now != old
        }
        try await retrying { try await store.append(Self.box("after")) }
        try await eventually { await delivered.count == 2 }
        running.cancel()
        try await running.value
        #expect(await delivered.all == ["before", "after"])
        #expect(try await listeners() != old)
      }
    }

    /// The backends listening on the store's channel. On a live connection, as the store's own
    /// queries are: right after a termination the pool can hand out the closed connection, and a
    /// query sent on it may never return (see `withLiveConnection`).
    func listenerPIDs(_ store: PostgresEventStore) async throws -> [Int32] {
      let channel = store.channel
      return try await store.withLiveConnection { connection in
        var pids: [Int32] = []
        let rows = try await connection.query(
          "SELECT pid FROM pg_stat_activity WHERE query = \("LISTEN \"\(channel)\";") ORDER BY pid",
          logger: store.logger)
        for try await pid in rows.decode(Int32.self) { pids.append(pid) }
        return pids
      }
    }

    @Test func aMemberAndTheListenerEndWhenTheirClientStops() async throws {
      try await withStore(listening: false) { shared in
        // A client of its own on the same schema, so that stopping it leaves the test's alone.
        let client = PostgresClient(configuration: try PostgresTestServer.configuration)
        let running = Task { await client.run() }
        let store = try PostgresEventStore(client: client, schema: shared.schema)
        let ended = Collected<String>()
        let handled = Collected<String>()
        let listener = Task {
          do { try await store.run() } catch {
            await ended.append(PostgresEventStore.clientStopped(error) ? "listener" : "\(error)")
          }
        }
        let member = Task {
          do {
            try await Self.group(store).run { _, _ in await handled.append("seen") }
          } catch {
            await ended.append(PostgresEventStore.clientStopped(error) ? "member" : "\(error)")
          }
        }
        try await eventually { try await retrying { try await self.listenerPIDs(shared) }.count == 1 }
        try await shared.append(Self.box("seen"))
        // Registered and delivering: stopped before it has registered, the member ends with the
        // registration's error (connection lost), as documented, not the pool's.
        try await eventually { await handled.count == 1 }
        running.cancel()
        try await eventually { await ended.count == 2 }
        listener.cancel()
        member.cancel()
        let all = await ended.all
        #expect(Set(all) == ["listener", "member"], "\(all)")
      }
    }

    @Test(
      .enabled(
        if: PostgresTestServer.dataDirectory != nil && PostgresTestServer.pgCtl != nil,
        "TYPEDEVENTS_POSTGRES_DATA and TYPEDEVENTS_PG_CTL are not set: .ci/run sets them to restart its server"))
    func aServerRestartDuringDeliveryLosesNothingAndKeepsOrder() async throws {
      try await withStore { store in
        let total = 600
        let delivered = Collected<String>()
        let running = Task {
          try await Self.group(store, batchSize: 20, pollInterval: .milliseconds(200)).run { event, _ in
            await delivered.append(Self.title(event))
            try await Task.sleep(for: .milliseconds(2))
          }
        }
        try await store.append((0..<total / 2).map { try EventEnvelope(Self.box("\($0)")) })
        try await eventually { await delivered.count > 50 }
        try await restartServer()
        // Appends retry until the server is back: what an app's own retry would do.
        var next = total / 2
        while next < total {
          do {
            try await store.append((next..<next + 50).map { try EventEnvelope(Self.box("\($0)")) })
            next += 50
          } catch {
            try await Task.sleep(for: .milliseconds(200))
          }
        }
        try await eventually { Set(await delivered.all).count == total }
        running.cancel()
        _ = try? await running.value
        let all = await delivered.all
        var firstSeen: [String] = []
        var seen: Set<String> = []
        for title in all where seen.insert(title).inserted { firstSeen.append(title) }
        #expect(firstSeen == (0..<total).map { "\($0)" }, "nothing lost, first deliveries in order")
        #expect(all.count - total <= 20, "duplicates only from the batch in flight: \(all.count - total)")
      }
    }

    /// Restarts the server with `pg_ctl restart -m fast` as the postgres user: every connection
    /// is closed, the listener's among them.
    func restartServer() async throws {
      guard let data = PostgresTestServer.dataDirectory, let pgCtl = PostgresTestServer.pgCtl else { return }
      // The restarted server logs to a file: inheriting the test's output would hold it open.
      let command =
        "runuser -u postgres -- '\(pgCtl)' -D '\(data)' -l '\(data)/restart.log' restart -m fast -w"
        + " < /dev/null > /dev/null 2>&1"
      // system() waits for its own child: Foundation's Process left this one unreaped here. On a
      // thread of its own, so that no thread of the cooperative pool blocks.
      let status = await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: system(command)) }.start()
      }
      #expect(status == 0, "pg_ctl restart failed")
    }
  }
#endif
