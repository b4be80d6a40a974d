// Throughput and latency of TypedEventsPostgres against a real server (Benchmarks/postgres.sh
// starts a throw-away one): append rates by writers and batch size, the outbox's NOTIFY cost,
// end-to-end delivery to one consumer group, and publish → handler latency in another process.
// Every case runs several times in a schema of its own; the report gives min, median and max.

import Foundation
import PostgresNIO
import TypedEvents
import TypedEventsPostgres

#if canImport(Glibc)
  import Glibc
#endif

/// What the writers append: small, as a domain event is.
struct Load: Event {
  static var eventName: String { "Bench.Load" }
  static var eventVersion: Int { 1 }
  var writer: Int
  var index: Int

  init(writer: Int, index: Int) {
    self.writer = writer
    self.index = index
  }
  init(reading reader: UserInfoReader) throws(UserInfoDecodingError) {
    writer = try reader.decode(Int.self, forKey: "writer")
    index = try reader.decode(Int.self, forKey: "index")
  }
  func write(to writer: inout UserInfoWriter) {
    writer.encode(self.writer, forKey: "writer")
    writer.encode(index, forKey: "index")
  }
}

/// The event whose latency is measured.
struct Probe: Event {
  static var eventName: String { "Bench.Probe" }
  static var eventVersion: Int { 1 }
  var index: Int

  init(index: Int) { self.index = index }
  init(reading reader: UserInfoReader) throws(UserInfoDecodingError) {
    index = try reader.decode(Int.self, forKey: "index")
  }
  func write(to writer: inout UserInfoWriter) { writer.encode(index, forKey: "index") }
}

/// What the scale runs append: an event about one of many subjects, so that a partitioned
/// group spreads them.
struct Keyed: Event, SubjectIdentifiable {
  static var eventName: String { "Bench.Keyed" }
  static var eventVersion: Int { 1 }
  var subject: String
  var index: Int

  var eventSubject: String { subject }

  init(subject: String, index: Int) {
    self.subject = subject
    self.index = index
  }
  init(reading reader: UserInfoReader) throws(UserInfoDecodingError) {
    subject = try reader.decode(String.self, forKey: "subject")
    index = try reader.decode(Int.self, forKey: "index")
  }
  func write(to writer: inout UserInfoWriter) {
    writer.encode(subject, forKey: "subject")
    writer.encode(index, forKey: "index")
  }
}

let catalog = EventCatalog([Load.self, Probe.self, Keyed.self])

func configuration() throws -> PostgresClient.Configuration {
  guard let url = ProcessInfo.processInfo.environment["TYPEDEVENTS_POSTGRES_URL"] else {
    throw BenchmarkError("TYPEDEVENTS_POSTGRES_URL is not set (Benchmarks/postgres.sh sets it)")
  }
  var configuration = try PostgresEventStore.clientConfiguration(url: url, tls: .disable)
  configuration.options.maximumConnections = 40
  return configuration
}

struct BenchmarkError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

func line(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }

/// A store in a fresh schema with its client and listener running, dropped afterwards; its
/// client's configuration changed by `configure`.
func withStore<R: Sendable>(
  preparesStatements: Bool = true, configure: (inout PostgresClient.Configuration) -> Void = { _ in },
  _ body: @Sendable (PostgresEventStore) async throws -> R
) async throws -> R {
  var configuration = try configuration()
  configure(&configuration)
  let client = PostgresClient(configuration: configuration)
  return try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { await client.run() }
    let store = try PostgresEventStore(
      client: client, schema: "bench_" + UUID().uuidString.lowercased().filter { $0 != "-" }.prefix(20),
      preparesStatements: preparesStatements)
    try await store.migrate()
    group.addTask { try await store.run() }
    defer { group.cancelAll() }
    let result = try await body(store)
    try await client.query("DROP SCHEMA \(unescaped: store.schema) CASCADE")
    return result
  }
}

/// Appends `total` events from `writers` concurrent writers in batches of `batch`; events/s.
func appendRate(
  _ store: PostgresEventStore, writers: Int, batch: Int, total: Int, outbox: Bool = false, notify: Bool = true
) async throws -> Double {
  let perWriter = total / writers
  let start = ContinuousClock.now
  try await withThrowingTaskGroup(of: Void.self) { group in
    for writer in 0..<writers {
      group.addTask {
        var index = 0
        while index < perWriter {
          let envelopes = try (index..<min(index + batch, perWriter)).map {
            try EventEnvelope(Load(writer: writer, index: $0))
          }
          if outbox {
            try await store.client.withTransaction(logger: store.logger) { connection in
              try await store.append(envelopes, on: connection, notify: notify)
            }
          } else {
            try await store.append(envelopes)
          }
          index += envelopes.count
        }
      }
    }
    try await group.waitForAll()
  }
  return Double(perWriter * writers) / seconds(ContinuousClock.now - start)
}

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Counts deliveries from any task.
actor Counter {
  var count = 0
  func add() { count += 1 }
}

/// What a consumer group delivered, checked after the clock stops: a rate over a delivery that
/// lost, repeated or reordered events would measure nothing.
actor Deliveries {
  private(set) var count = 0
  private var next: [Int: Int] = [:]  // writer → the index its next event must have
  private var faults: [String] = []

  func add(_ event: any Event) {
    count += 1
    guard let load = event as? Load else { return faults.append("not a Load: \(event)") }
    if next[load.writer, default: 0] != load.index {
      faults.append("writer \(load.writer): \(load.index) after \(next[load.writer, default: 0] - 1)")
    }
    next[load.writer] = load.index + 1
  }

  /// Throws unless every writer's `perWriter` events came exactly once, in its order.
  func check(writers: Int, perWriter: Int) throws {
    let short = (0..<writers).filter { next[$0, default: 0] != perWriter }
    guard faults.isEmpty, short.isEmpty, count == writers * perWriter else {
      throw BenchmarkError(
        "end to end delivered \(count) of \(writers * perWriter): \(faults.prefix(5)) short: \(short)")
    }
  }
}

/// 4 writers append `total` events in batches of 100 while one consumer group (batches of 100)
/// delivers them in this process; events/s from the first append to the last delivery.
func endToEndRate(_ store: PostgresEventStore, total: Int) async throws -> Double {
  let writers = 4
  let delivered = Deliveries()
  let group = try PostgresConsumerGroup(
    store: store, name: "bench", catalog: catalog, batchSize: 100, pollInterval: .milliseconds(200))
  let start = ContinuousClock.now
  let consuming = Task { try await group.run { event, _ in await delivered.add(event) } }
  _ = try await appendRate(store, writers: writers, batch: 100, total: total)
  // A bound on a lost event, which the check below then reports; not a timing.
  let deadline = start + .seconds(120)
  while await delivered.count < total, ContinuousClock.now < deadline {
    try await Task.sleep(for: .milliseconds(2))
  }
  let elapsed = ContinuousClock.now - start
  consuming.cancel()
  try await consuming.value
  try await delivered.check(writers: writers, perWriter: total / writers)
  return Double(total) / seconds(elapsed)
}

/// 4 writers append `total` events in batches of 100, then one consumer group (batches of 100)
/// delivers the backlog; events/s of the delivery alone.
func catchUpRate(_ store: PostgresEventStore, total: Int) async throws -> Double {
  _ = try await appendRate(store, writers: 4, batch: 100, total: total)
  let delivered = Deliveries()
  let group = try PostgresConsumerGroup(
    store: store, name: "bench", catalog: catalog, batchSize: 100, pollInterval: .milliseconds(200))
  let start = ContinuousClock.now
  let consuming = Task { try await group.run { event, _ in await delivered.add(event) } }
  let deadline = start + .seconds(120)  // a bound on a lost event, which the check reports
  while await delivered.count < total, ContinuousClock.now < deadline {
    try await Task.sleep(for: .milliseconds(2))
  }
  let elapsed = ContinuousClock.now - start
  consuming.cancel()
  try await consuming.value
  try await delivered.check(writers: 4, perWriter: total / 4)
  return Double(total) / seconds(elapsed)
}

/// Publish → handler latency in another process: the child (this executable, `latency-reader`)
/// runs a consumer group and prints, for each probe, the time from the envelope's creation to the
/// handler. Probes are appended one at a time, 10 ms apart; `underLoad` adds 4 writers
/// appending batches of 100, about 2,000 events/s, all the while.
func latencies(_ store: PostgresEventStore, probes: Int, underLoad: Bool) async throws -> [Double] {
  let child = try Child(arguments: ["latency-reader", store.schema, "\(probes)"])
  // The child has joined when its group's partition has an owner.
  while true {
    let rows = try await store.client.query(
      "SELECT count(*) FROM \(unescaped: store.schema).consumer_group_partitions WHERE owner IS NOT NULL")
    var joined = 0
    for try await count in rows.decode(Int.self) { joined = count }
    if joined > 0 { break }
    try await Task.sleep(for: .milliseconds(20))
  }
  let load = Task {
    guard underLoad else { return }
    // About 2,000 events/s: a load the consumer keeps up with, so latency is not backlog.
    while !Task.isCancelled {
      _ = try? await appendRate(store, writers: 4, batch: 100, total: 400)
      try? await Task.sleep(for: .milliseconds(200))
    }
  }
  for index in 0..<probes {
    try await store.append(Probe(index: index))
    try await Task.sleep(for: .milliseconds(10))
  }
  let status = await child.exitStatus()
  load.cancel()
  _ = await load.value
  guard status == 0 else { throw BenchmarkError("latency-reader exited with \(status): \(child.output)") }
  return child.output.split(separator: "\n").compactMap { Double($0) }
}

/// The child: receives `count` probes as group "latency" and prints each one's latency in ms.
func latencyReader(schema: String, count: Int) async throws {
  let client = PostgresClient(configuration: try configuration())
  try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { await client.run() }
    let store = try PostgresEventStore(client: client, schema: schema)
    group.addTask { try await store.run() }
    let received = Counter()
    let consumer = try PostgresConsumerGroup(
      store: store, name: "latency", catalog: catalog, batchSize: 100, pollInterval: .seconds(1))
    let reading = Task {
      try await consumer.run(Probe.self) { _, delivery in
        guard let time = delivery.envelope.time else { return }
        line(String(format: "%.3f", Date().timeIntervalSince(time) * 1000))
        await received.add()
      }
    }
    while await received.count < count { try await Task.sleep(for: .milliseconds(5)) }
    reading.cancel()
    try await reading.value
    group.cancelAll()
  }
}

/// This executable again, as a child process whose output goes to a file.
final class Child: Sendable {
  let pid: pid_t
  let outputPath: String

  init(arguments: [String]) throws {
    let executable = CommandLine.arguments[0]
    outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("latency-\(UUID()).txt").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else {
      throw BenchmarkError("cannot start \(executable)")
    }
    self.pid = pid
  }

  var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

  /// Waits on a thread of its own, so that no thread of the cooperative pool blocks.
  func exitStatus() async -> Int32 {
    let pid = pid
    return await withCheckedContinuation { continuation in
      Thread {
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        continuation.resume(returning: status)
      }.start()
    }
  }

  deinit { unlink(outputPath) }
}

// MARK: Scale: one group over member processes

/// The partitions of the scale runs' group: 8, so that 1, 2 and 4 members get equal shares.
let scalePartitions = 8

/// The child: a member of group "scale" that waits `delay` per event and prints how many it
/// has handled and how long its waits took in all (`handled COUNT MICROSECONDS`) whenever that
/// changed (every 10 ms at most), and a line for any subject whose events arrive out of order.
/// Runs until killed.
func scaleMember(schema: String, delay: Duration, lease: Duration) async throws {
  let client = PostgresClient(configuration: try configuration())
  try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { await client.run() }
    let store = try PostgresEventStore(client: client, schema: schema)
    group.addTask { try await store.run() }
    let handled = Tally()
    let member = try PostgresConsumerGroup(
      store: store, name: "scale", catalog: catalog, batchSize: 100, pollInterval: .milliseconds(200), lease: lease,
      partitions: scalePartitions)
    group.addTask {
      try await member.run { event, _ in
        guard let keyed = event as? Keyed else { return }
        // How long the wait really took: with more processes than cores, a sleeper wakes late.
        let asleep = ContinuousClock.now
        if delay > .zero { try await Task.sleep(for: delay) }
        await handled.add(keyed, waited: delay > .zero ? ContinuousClock.now - asleep : .zero)
      }
    }
    group.addTask {
      var printed = -1
      while !Task.isCancelled {
        let (count, waited, faults) = await handled.report()
        for fault in faults { line("fault \(fault)") }
        if count != printed {
          line("handled \(count) \(Int(seconds(waited) * 1_000_000))")
          printed = count
        }
        try await Task.sleep(for: .milliseconds(10))
      }
    }
    try await group.waitForAll()
  }
}

/// What one member handled, how long its handler waited in all, and every subject whose events
/// came out of order.
actor Tally {
  private var count = 0
  private var waited = Duration.zero
  private var next: [String: Int] = [:]
  private var faults: [String] = []

  func add(_ event: Keyed, waited: Duration) {
    count += 1
    self.waited += waited
    if event.index < next[event.subject, default: 0] {
      faults.append("\(event.subject): \(event.index) after \(next[event.subject, default: 0] - 1)")
    }
    next[event.subject] = event.index + 1
  }

  func report() -> (Int, Duration, [String]) {
    defer { faults = [] }
    return (count, waited, faults)
  }
}

/// How many partitions of group "scale" live members hold, by member.
func scaleOwners(_ store: PostgresEventStore) async throws -> [UUID: Int] {
  var owners: [UUID: Int] = [:]
  let rows = try await store.client.query(
    """
    SELECT owner, count(*) FROM \(unescaped: store.schema).consumer_group_partitions
    WHERE group_name = 'scale' AND owner IS NOT NULL AND lease_expires > now() GROUP BY owner
    """)
  for try await (owner, count) in rows.decode((UUID, Int).self) { owners[owner] = count }
  return owners
}

/// The member processes of one scale run.
struct Members {
  let children: [Child]

  init(_ count: Int, schema: String, delay: Duration, lease: Duration = .seconds(15)) throws {
    func milliseconds(_ duration: Duration) -> Int { Int((seconds(duration) * 1000).rounded()) }
    children = try (0..<count).map { _ in
      try Child(arguments: ["scale-member", schema, "\(milliseconds(delay))", "\(milliseconds(lease))"])
    }
  }

  init(children: [Child]) { self.children = children }

  /// Events handled by all members so far; throws at an out-of-order delivery.
  func handled() throws -> Int { try progress().reduce(0) { $0 + $1.handled } }

  /// Each member's events handled so far and the seconds its handler waited in all; throws at an
  /// out-of-order delivery.
  func progress() throws -> [(handled: Int, waited: Double)] {
    try children.map { child in
      let lines = child.output.split(separator: "\n")
      if let fault = lines.first(where: { $0.hasPrefix("fault ") }) { throw BenchmarkError(String(fault)) }
      let fields = lines.last(where: { $0.hasPrefix("handled ") })?.split(separator: " ") ?? []
      return (
        fields.count > 1 ? Int(fields[1]) ?? 0 : 0, fields.count > 2 ? (Double(fields[2]) ?? 0) / 1_000_000 : 0
      )
    }
  }

  /// Ends the members with SIGKILL: what is measured is over, and the next run uses a schema of
  /// its own (stopping gracefully is the fault test's business).
  func stop() async {
    for child in children { kill(child.pid, SIGKILL) }
    for child in children { _ = await child.exitStatus() }
  }
}

/// 4 writers append `total` events about 1,024 subjects in batches of 100 while `count` member
/// processes of one 8-partition group handle them, each waiting `delay` per event; events/s from
/// the first append to the last event handled, and the busiest member's share of the events (the
/// subjects' hash split decides it, and the run lasts as long as that member works), with that
/// member's mean wait per handler call in seconds. Fails unless every event was handled once.
func scaleRate(
  _ store: PostgresEventStore, members count: Int, delay: Duration, total: Int
) async throws -> (rate: Double, busiest: Double, wait: Double) {
  try await store.repartition(group: "scale", partitions: scalePartitions)
  let members = try Members(count, schema: store.schema, delay: delay)
  // Joined and settled: every member holds its share of the partitions.
  let settled = ContinuousClock.now + .seconds(60)
  while try await scaleOwners(store).values.sorted() != Array(repeating: scalePartitions / count, count: count) {
    guard ContinuousClock.now < settled else { throw BenchmarkError("\(count) members did not share the partitions") }
    try await Task.sleep(for: .milliseconds(20))
  }
  let start = ContinuousClock.now
  try await withThrowingTaskGroup(of: Void.self) { group in
    for writer in 0..<4 {
      group.addTask {
        let end = (writer + 1) * (total / 4)
        for first in stride(from: writer * (total / 4), to: end, by: 100) {
          try await store.append(
            try (first..<min(first + 100, end)).map { index in
              // 256 subjects per writer, so each subject's events come in its writer's order. An
              // app has more subjects than 1,024; fewer would make the hash split (which bounds
              // what more members give) more uneven than an app's.
              try EventEnvelope(Keyed(subject: "w\(writer)-s\(index % 256)", index: index))
            })
        }
      }
    }
    try await group.waitForAll()
  }
  let deadline = start + .seconds(300)  // a bound on a lost event, which the check reports; not a timing
  while try members.handled() < total, ContinuousClock.now < deadline {
    try await Task.sleep(for: .milliseconds(5))
  }
  let elapsed = ContinuousClock.now - start
  let each = try members.progress()
  await members.stop()
  let handled = each.reduce(0) { $0 + $1.handled }
  guard handled == total else { throw BenchmarkError("\(count) members handled \(handled) of \(total)") }
  let busiest = each.max { $0.handled < $1.handled } ?? (0, 0)
  return (
    Double(total) / seconds(elapsed), Double(busiest.handled) / Double(total),
    busiest.waited / Double(max(1, busiest.handled))
  )
}

/// 4 members of one group (lease `lease`) while events keep coming; one is killed with SIGKILL,
/// and the time until the other three hold all 8 partitions is returned.
func rebalanceAfterKill(_ store: PostgresEventStore, lease: Duration) async throws -> Double {
  try await store.repartition(group: "scale", partitions: scalePartitions)
  let members = try Members(4, schema: store.schema, delay: .zero, lease: lease)
  while try await scaleOwners(store).values.sorted() != [2, 2, 2, 2] { try await Task.sleep(for: .milliseconds(20)) }
  let load = Task {
    var index = 0
    while !Task.isCancelled {
      try? await store.append([EventEnvelope(Keyed(subject: "s\(index % 256)", index: index))])
      index += 1
      try? await Task.sleep(for: .milliseconds(5))
    }
  }
  kill(members.children[0].pid, SIGKILL)
  let killed = ContinuousClock.now
  _ = await members.children[0].exitStatus()
  while true {
    let owners = try await scaleOwners(store)
    if owners.count == 3 && owners.values.reduce(0, +) == scalePartitions { break }
    try await Task.sleep(for: .milliseconds(10))
  }
  let rebalance = seconds(ContinuousClock.now - killed)
  load.cancel()
  _ = await load.value
  await Members(children: Array(members.children.dropFirst())).stop()
  return rebalance
}

/// The median of `values` (the upper one of an even count).
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// min / median / max of `values`, formatted by `format`.
func spread(_ values: [Double], _ format: (Double) -> String) -> String {
  "\(format(values.min() ?? 0)) / \(format(median(values))) / \(format(values.max() ?? 0))"
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
  sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

func rate(_ value: Double) -> String { String(format: "%.0f", value) }

// MARK: The outbox against pgbench

/// One side's figures for a round: transactions a second, and the client process's CPU time
/// and context switches a transaction.
struct ClientCost {
  var rate: Double
  var cpu: Double
  var switches: Double
}

/// The process's CPU time (µs) and context switches so far.
func processUsage() -> (cpu: Double, switches: Double) {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  func microseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1e6 + Double(time.tv_usec) }
  return (
    microseconds(usage.ru_utime) + microseconds(usage.ru_stime), Double(usage.ru_nvcsw + usage.ru_nivcsw)
  )
}

/// One writer's business transactions: a row of the business's own table, and one event
/// through the outbox (`append(_:on:)`, with its NOTIFY), committed together; in
/// `PostgresClient.withTransaction`, or in `store.withTransaction` (on the connection's event
/// loop) when `onLoop`.
func outboxTransactionRate(_ store: PostgresEventStore, transactions: Int, onLoop: Bool) async throws -> ClientCost {
  let logger = store.logger
  let schema = store.schema
  try await store.client.query(
    "CREATE TABLE IF NOT EXISTS \(unescaped: schema).orders (id bigserial PRIMARY KEY, note text NOT NULL)",
    logger: logger)
  let before = processUsage()
  let start = ContinuousClock.now
  for index in 0..<transactions {
    let work = { @Sendable (connection: PostgresConnection) async throws in
      try await connection.query(
        "INSERT INTO \(unescaped: schema).orders (note) VALUES (\("order \(index)"))", logger: logger)
      try await store.append([try EventEnvelope(Load(writer: 0, index: index))], on: connection)
    }
    if onLoop {
      try await store.withTransaction(work)
    } else {
      try await store.client.withTransaction(logger: logger) { try await work($0) }
    }
  }
  let elapsed = seconds(ContinuousClock.now - start)
  let after = processUsage()
  let count = Double(transactions)
  return ClientCost(
    rate: count / elapsed, cpu: (after.cpu - before.cpu) / count, switches: (after.switches - before.switches) / count)
}

/// pgbench's transactions a second for the same transaction on the same server, with one
/// client: BEGIN, the business row, the event's INSERT with its NOTIFY as the store sends them
/// (values as pgbench variables where pgbench has them), COMMIT. `mode` is `prepared` or
/// `extended`.
func pgbenchRate(schema: String, channel: String, transactions: Int, mode: String) throws -> Double {
  guard let url = ProcessInfo.processInfo.environment["TYPEDEVENTS_POSTGRES_URL"].flatMap(URLComponents.init),
    let host = url.host, let port = url.port
  else { throw BenchmarkError("TYPEDEVENTS_POSTGRES_URL is not a postgres:// URL with a host and port") }
  let script = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).sql")
  defer { try? FileManager.default.removeItem(at: script) }
  try """
  \\set n random(1, 1000000000000)
  BEGIN;
  INSERT INTO \(schema).orders (note) VALUES ('order ' || :n);
  WITH inserted AS (INSERT INTO \(schema).events (id, source, time, time_exact, name, version, subject, data_content_type, data_schema, metadata, payload) VALUES (('pgbench-' || :n)::text, NULL::text, now()::timestamptz, 0::float8, 'Bench.Load'::text, 1::integer, NULL::text, NULL::text, NULL::text, '{}'::jsonb, ('{"writer":0,"index":' || :n || '}')::json) ON CONFLICT ((coalesce(source, '')), id) DO NOTHING) SELECT pg_notify('\(channel)', '');
  COMMIT;

  """.write(to: script, atomically: true, encoding: .utf8)
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [
    "pgbench", "-h", host, "-p", "\(port)", "-U", url.user ?? "postgres", "-n", "-c", "1", "-t", "\(transactions)",
    "-M", mode, "-f", script.path, String(url.path.dropFirst()),
  ]
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  try process.run()
  let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  // "tps = 1234.567890 (without initial connection time)"
  guard process.terminationStatus == 0,
    let figure = text.split(separator: "\n").first(where: { $0.hasPrefix("tps = ") })?.dropFirst(6)
      .prefix(while: { $0 != " " }),
    let tps = Double(figure)
  else { throw BenchmarkError("pgbench failed (status \(process.terminationStatus)): \(text)") }
  return tps
}

/// One round of the outbox against pgbench: the store's client costs in each setting, and
/// pgbench's transactions a second.
struct OutboxRound {
  /// `store.withTransaction`, the pool's default configuration: the baseline.
  var onLoop: ClientCost
  /// The same, with a pool that sets no timer when a connection is released.
  var withoutPoolTimers: ClientCost
  /// The same as the baseline, with every INSERT sent unnamed.
  var unprepared: ClientCost
  /// `PostgresClient.withTransaction`.
  var pooled: ClientCost
  var extended: Double
  var prepared: Double
}

/// The outbox against pgbench in rounds, each side in a fresh schema; in each round the store in
/// its own `withTransaction` (as it is, with a pool without timers, and without prepared
/// statements), in `PostgresClient.withTransaction`, and pgbench with `-M extended` and `-M prepared`.
func outboxAgainstPgbench(rounds: Int, transactions: Int) async throws -> [OutboxRound] {
  var figures: [OutboxRound] = []
  for _ in 0..<rounds {
    let onLoop = try await withStore { try await outboxTransactionRate($0, transactions: transactions, onLoop: true) }
    // PostgresNIO's pool starts a keep-alive timer, and an idle timer for a connection beyond
    // the minimum, each time a connection is released; each timer is a task and a sleep.
    let withoutPoolTimers = try await withStore(configure: {
      $0.options.minimumConnections = 2
      $0.options.keepAliveBehavior = nil
    }) { try await outboxTransactionRate($0, transactions: transactions, onLoop: true) }
    let unprepared = try await withStore(preparesStatements: false) {
      try await outboxTransactionRate($0, transactions: transactions, onLoop: true)
    }
    let pooled = try await withStore { try await outboxTransactionRate($0, transactions: transactions, onLoop: false) }
    let (extended, prepared) = try await withStore { store in
      // The same tables: the store's migration, and the same CREATE TABLE.
      _ = try await outboxTransactionRate(store, transactions: 1, onLoop: false)
      return (
        try pgbenchRate(schema: store.schema, channel: store.channel, transactions: transactions, mode: "extended"),
        try pgbenchRate(schema: store.schema, channel: store.channel, transactions: transactions, mode: "prepared")
      )
    }
    figures.append(
      OutboxRound(
        onLoop: onLoop, withoutPoolTimers: withoutPoolTimers, unprepared: unprepared, pooled: pooled,
        extended: extended, prepared: prepared))
  }
  return figures
}

/// The report's section on the outbox against pgbench.
func outboxSection(_ figures: [OutboxRound], transactions: Int) -> [String] {
  let store = figures.map(\.onLoop.rate)
  func ratio(_ peer: [Double]) -> String {
    let perRound = zip(peer, store).map { $0 / $1 }
    return String(format: "%.2f× (%.2f–%.2f)", median(perRound), perRound.min() ?? 0, perRound.max() ?? 0)
  }
  func row(_ name: String, _ costs: [ClientCost]) -> String {
    "| \(name) | \(spread(costs.map(\.rate), rate)) | \(ratio(costs.map(\.rate))) | "
      + String(format: "%.0f | %.1f |", median(costs.map(\.cpu)), median(costs.map(\.switches)))
  }
  return [
    "## The outbox transaction against pgbench (one writer, one event per business transaction)",
    "",
    "Each round: \(transactions) transactions of `BEGIN`, an `INSERT` of a business row, "
      + "`store.append(event, on: connection)` and `COMMIT` from the store, then the same SQL from pgbench "
      + "(`-c 1`; the event's INSERT carries its `pg_notify` in one statement, as the store sends it), "
      + "`-M extended` and `-M prepared`, each in a fresh schema on the same server. The store runs the "
      + "transaction in its own `withTransaction`, which keeps the task on the connection's event loop: as it "
      + "is (the event's INSERT a prepared statement), with a pool that sets no timer when a connection is "
      + "released (`minimumConnections` 2: the store's listener holds one; `keepAliveBehavior` nil), and with `preparesStatements: false`; and "
      + "in `PostgresClient.withTransaction`. \(figures.count) rounds; transactions/s min / median / max; "
      + "*rate against the store's*: the row's rate ÷ the first row's, per round, median (min–max); "
      + "the client's CPU time and context switches a transaction (getrusage, medians). "
      + "Goal (issue 57): pgbench -M prepared at most 1.3× the store's rate.",
    "",
    "| client | transactions/s | rate against the store's | client CPU µs/tx | context switches/tx |",
    "|---|---|---|---:|---:|",
    row("store, `store.withTransaction` (event loop)", figures.map(\.onLoop)),
    row("the same, a pool without timers", figures.map(\.withoutPoolTimers)),
    row("the same, no prepared statement", figures.map(\.unprepared)),
    row("store, `PostgresClient.withTransaction`", figures.map(\.pooled)),
    "| pgbench -M extended | \(spread(figures.map(\.extended), rate)) | \(ratio(figures.map(\.extended))) | | |",
    "| pgbench -M prepared | \(spread(figures.map(\.prepared), rate)) | \(ratio(figures.map(\.prepared))) | | |",
    "",
  ]
}

// MARK: The run

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "latency-reader", arguments.count == 3, let count = Int(arguments[2]) {
  try await latencyReader(schema: arguments[1], count: count)
  exit(0)
}
if arguments.first == "scale-member", arguments.count == 4, let delay = Int(arguments[2]),
  let lease = Int(arguments[3])
{
  try await scaleMember(schema: arguments[1], delay: .milliseconds(delay), lease: .milliseconds(lease))
  exit(0)
}
// One end-to-end run alone, for a profiler: `typed-events-postgres-benchmarks end-to-end 40000`.
if arguments.first == "end-to-end", arguments.count == 2, let total = Int(arguments[1]) {
  line("\(rate(try await withStore { try await endToEndRate($0, total: total) })) events/s")
  exit(0)
}
// One append run alone, for a profiler or an A/B of two builds:
// `typed-events-postgres-benchmarks append 4 100 48000` (writers, events per append, events).
if arguments.first == "append", arguments.count == 4, let writers = Int(arguments[1]),
  let batch = Int(arguments[2]), let total = Int(arguments[3])
{
  line(
    "\(rate(try await withStore { try await appendRate($0, writers: writers, batch: batch, total: total) })) events/s")
  exit(0)
}
// One group catching up on a backlog alone, no writer competing for the CPU, for an A/B of
// two builds: `typed-events-postgres-benchmarks catch-up 40000`.
if arguments.first == "catch-up", arguments.count == 2, let total = Int(arguments[1]) {
  line("\(rate(try await withStore { try await catchUpRate($0, total: total) })) events/s")
  exit(0)
}
// The outbox against pgbench alone: `typed-events-postgres-benchmarks outbox 5 2000` (rounds,
// transactions a round).
if arguments.first == "outbox", arguments.count == 3, let rounds = Int(arguments[1]),
  let transactions = Int(arguments[2])
{
  for text in outboxSection(
    try await outboxAgainstPgbench(rounds: rounds, transactions: transactions), transactions: transactions)
  {
    line(text)
  }
  exit(0)
}
let quick = arguments.contains("--quick")
let repetitions = quick ? 1 : 3
let scale = quick ? 20 : 1

var report: [String] = []
@MainActor func emit(_ text: String) {
  report.append(text)
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

let version = try await withStore { store in
  var text = ""
  for try await row in try await store.client.query("SHOW server_version").decode(String.self) { text = row }
  for try await row in try await store.client.query("SHOW fsync").decode(String.self) { text += ", fsync \(row)" }
  for try await row in try await store.client.query("SHOW synchronous_commit").decode(String.self) {
    text += ", synchronous_commit \(row)"
  }
  return text
}
emit("# TypedEventsPostgres benchmarks")
emit("")
emit(
  "PostgreSQL \(version), on 127.0.0.1; \(ProcessInfo.processInfo.activeProcessorCount) cores. Release build; "
    + "\(repetitions) repetitions per row, each in a fresh schema: min / median / max. "
    + "Command: `Benchmarks/postgres.sh`\(quick ? " --quick (tiny sizes: the numbers mean nothing)" : "").")
emit("")
emit("## Append rate (events/s; each append is its own committed transaction)")
emit("")
emit("| writers | events per append | events | events/s: min / median / max |")
emit("|---:|---:|---:|---|")
var appendMedians: [String: Double] = [:]
for batch in [1, 100] {
  for writers in [1, 4, 16] {
    let total = (batch == 1 ? 3_200 : 48_000) / scale
    var rates: [Double] = []
    for _ in 0..<repetitions {
      rates.append(try await withStore { try await appendRate($0, writers: writers, batch: batch, total: total) })
    }
    appendMedians["\(writers)x\(batch)"] = median(rates)
    emit("| \(writers) | \(batch) | \(total) | \(spread(rates, rate)) |")
  }
}
emit("")
emit("## The outbox's NOTIFY (16 writers, one event per business transaction)")
emit("")
emit("| wake-up | events/s: min / median / max |")
emit("|---|---|")
for notify in [true, false] {
  var rates: [Double] = []
  for _ in 0..<repetitions {
    rates.append(
      try await withStore {
        try await appendRate($0, writers: 16, batch: 1, total: 3_200 / scale, outbox: true, notify: notify)
      })
  }
  emit(
    "| \(notify ? "NOTIFY in the transaction (default)" : "none: readers poll (`notify: false`)") | \(spread(rates, rate)) |"
  )
}
emit("")
let outboxTransactions = quick ? 50 : 2_000
for text in outboxSection(
  try await outboxAgainstPgbench(rounds: quick ? 1 : 5, transactions: outboxTransactions),
  transactions: outboxTransactions)
{
  emit(text)
}
emit("## End to end: 4 writers, batches of 100, one consumer group in the same process")
emit("")
emit("Each run fails unless every event arrived exactly once, each writer's in its order.")
emit("")
emit("| events | delivered events/s: min / median / max |")
emit("|---:|---|")
var endToEnd: [Double] = []
for _ in 0..<repetitions {
  endToEnd.append(try await withStore { try await endToEndRate($0, total: 40_000 / scale) })
}
emit("| \(40_000 / scale) | \(spread(endToEnd, rate)) |")
emit("")
emit("## One group over member processes: 8 partitions, 4 writers, 1,024 subjects")
emit("")
emit(
  "Each run starts the members, waits until they share the partitions, then times from the first append to the "
    + "last event handled; it fails unless every event was handled once and each subject's in order.")
emit("")
emit(
  "The busiest member's share of the events bounds what more members can give: with the 1,024 subjects' hash "
    + "split, the run lasts as long as that member works, so `1 / share` is the most they can deliver against one. "
    + "Its handler's waits are timed too: with more processes than cores, a 2 ms sleep ends later, and that "
    + "member's calls last longer than one member's.")
emit("")
emit(
  "| handler | members | events | events/s: min / median / max | against 1 member (medians) "
    + "| busiest member's share (median) | bound: 1 / share | busiest member's wait per call (median) |")
emit("|---|---:|---:|---|---:|---:|---:|---:|")
/// Each scale row's medians, by handler and members ("waits 2 ms 4").
var scaleFigures: [String: (rate: Double, bound: Double, wait: Double)] = [:]
for (handler, delay, total) in [
  ("empty", Duration.zero, 40_000 / scale), ("waits 2 ms", .milliseconds(2), 4_000 / scale),
] {
  for members in [1, 2, 4] {
    var rates: [Double] = []
    var shares: [Double] = []
    var waits: [Double] = []
    for _ in 0..<repetitions {
      let run = try await withStore { try await scaleRate($0, members: members, delay: delay, total: total) }
      rates.append(run.rate)
      shares.append(run.busiest)
      waits.append(run.wait)
    }
    let (rateMedian, share, wait) = (median(rates), median(shares), median(waits))
    scaleFigures["\(handler) \(members)"] = (rateMedian, 1 / share, wait)
    let ratio = rateMedian / (scaleFigures["\(handler) 1"]?.rate ?? rateMedian)
    emit(
      "| \(handler) | \(members) | \(total) | \(spread(rates, rate)) | \(String(format: "%.2f", ratio))× "
        + "| \(String(format: "%.1f", share * 100))% | \(String(format: "%.2f", 1 / share))× "
        + "| \(delay > .zero ? String(format: "%.3f ms", wait * 1000) : "–") |")
  }
}
emit("")
let rebalanceLease = Duration.seconds(3)
var rebalances: [Double] = []
for _ in 0..<repetitions {
  rebalances.append(try await withStore { try await rebalanceAfterKill($0, lease: rebalanceLease) })
}
emit(
  "Rebalance after a SIGKILL (4 members, lease 3 s, events arriving): the other three hold all 8 partitions "
    + "after \(spread(rebalances) { String(format: "%.2f s", $0) }) (min / median / max).")
emit("")
emit("## Latency: append → handler in another process (ms)")
emit("")
emit("| load | probes | p50 | p99 | max |")
emit("|---|---:|---:|---:|---:|")
var latencyFigures: [String: (Double, Double)] = [:]
for underLoad in [false, true] {
  let probes = quick ? 20 : 500
  let values = try await withStore { try await latencies($0, probes: probes, underLoad: underLoad) }.sorted()
  guard values.count == probes else { throw BenchmarkError("\(values.count) of \(probes) latencies") }
  let (p50, p99) = (percentile(values, 0.50), percentile(values, 0.99))
  latencyFigures[underLoad ? "load" : "idle"] = (p50, p99)
  emit(
    "| \(underLoad ? "4 writers, batches of 100, ~2,000 events/s" : "idle") | \(probes) | "
      + "\(String(format: "%.2f", p50)) | \(String(format: "%.2f", p99)) | \(String(format: "%.2f", values.last ?? 0)) |"
  )
}
emit("")
emit("## Goals (issue 15, 2 cores, fsync on)")
emit("")
let appended = appendMedians["4x100"] ?? 0
let idle = latencyFigures["idle"] ?? (0, 0)
let deliveredRate = median(endToEnd)
func verdict(_ met: Bool) -> String { met ? "met" : "**missed**" }
emit("| goal | measured (median) | |")
emit("|---|---|---|")
emit(
  "| ≥ 10,000 events/s appended in batches of 100 (4 writers) | \(rate(appended)) | \(verdict(appended >= 10_000)) |")
emit("| ≥ 10,000 events/s delivered end to end | \(rate(deliveredRate)) | \(verdict(deliveredRate >= 10_000)) |")
emit("| p50 ≤ 5 ms idle | \(String(format: "%.2f", idle.0)) ms | \(verdict(idle.0 <= 5)) |")
emit("| p99 ≤ 25 ms idle | \(String(format: "%.2f", idle.1)) ms | \(verdict(idle.1 <= 25)) |")
let scaled = (scaleFigures["waits 2 ms 4"]?.rate ?? 0) / max(1, scaleFigures["waits 2 ms 1"]?.rate ?? 1)
let oneMember = scaleFigures["empty 1"]?.rate ?? 0
let rebalanceMedian = median(rebalances)
// Below the goal, the row says what bounds the members: the split, and how much longer the busiest
// one's waits took than one member's; and how much of both together they reached.
let bound = scaleFigures["waits 2 ms 4"]?.bound ?? 0
let (oneWait, fourWait) = (scaleFigures["waits 2 ms 1"]?.wait ?? 0, scaleFigures["waits 2 ms 4"]?.wait ?? 0)
let slowerWaits = bound * oneWait / max(fourWait, 1e-9)
let scaledVerdict =
  scaled >= 3.5
  ? "met"
  : "**missed**: the subjects' split bounds 4 members at \(String(format: "%.2f", bound))×; the busiest one's "
    + "2 ms waits took \(String(format: "%.3f", fourWait * 1000)) ms against \(String(format: "%.3f", oneWait * 1000)) "
    + "ms with one member, which leaves \(String(format: "%.2f", slowerWaits))×, of which they reached "
    + "\(String(format: "%.0f", scaled / max(slowerWaits, 0.01) * 100))%"
emit("| 2 ms handler: 4 members ≥ 3.5× one member (issue 32) | \(String(format: "%.2f", scaled))× | \(scaledVerdict) |")
// Issue 32's 20,700 events/s is the end-to-end figure of a faster day: a run judges it only with
// the machine's speed beside it, and the comparison that holds is an A/B in one sitting.
let singleCommits = appendMedians["1x1"] ?? 0
emit(
  "| empty handler, one member: no loss against the build before partitions (issue 32: 20,700 events/s end to "
    + "end on 2026-11-24, when one writer committed 1,015 events/s) | end to end \(rate(deliveredRate)); one writer "
    + "committed \(rate(singleCommits))/s; one member process of 8 partitions: \(rate(oneMember)) | not judged from "
    + "one run: see the A/B in one sitting in AcrossProcesses.md |")
emit(
  "| rebalance after a SIGKILL within lease + 1 s (4 s) | \(String(format: "%.2f", rebalanceMedian)) s | "
    + "\(verdict(rebalanceMedian <= 4)) |")

if let index = arguments.firstIndex(of: "--output"), index + 1 < arguments.count {
  try (report.joined(separator: "\n") + "\n").write(toFile: arguments[index + 1], atomically: true, encoding: .utf8)
}
