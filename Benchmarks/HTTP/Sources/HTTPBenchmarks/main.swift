// Throughput and latency of the HTTP endpoint and its client over loopback (Benchmarks/http.sh
// runs them in release), each case against a baseline doing the same work in the same run:
//
// - fan-out: events from the endpoint's Server-Sent Events stream to 10 and 100 clients, from
//   its feed and live (appended while the clients read), against a bare Hummingbird handler
//   that writes the same frames, encoded beforehand;
// - batch POST: CloudEvents batches POSTed to the endpoint, against the store's own batch
//   append (`appendOnce`) of the same batches, on an `EventLog` and, with
//   TYPEDEVENTS_POSTGRES_URL set, on PostgreSQL; beside them, the same bodies POSTed to a bare
//   handler, which gives the share of the HTTP exchange alone; POSTed by a lean socket client
//   and by AsyncHTTPClient, in rows of their own;
// - latency: append → an `EventsClient`'s bus, one event at a time on an idle loopback;
// - hostile bodies: 1 MiB of 65,000 keys, or of 65,000 null attributes, against an ordinary
//   1 MiB batch POSTed to the same endpoint;
// - filtered reads: an `EventLog` read for one subject in a hundred, against the same log read
//   whole;
// - idle streams: the peak resident memory of a server with 1,000 streams whose clients read
//   nothing while events of 1 MiB are appended, against the same server before the events,
//   each in a child process of its own (`--idle-streams-child`), as a peak is per process.
//
// Every case runs several times, each on a new server and a new log; the report gives min,
// median and max, and ratios of medians. `--quick` is a smoke run at tiny sizes; `--output FILE`
// writes the report there too; `--only fan-out|post|latency|hostile|filtered-read|idle-streams|concurrent-post|outbox` runs one case (to profile it);
// `--server http1` builds every server with Hummingbird's `.http1()` instead of
// `.http1OnEventLoop()`, the example server's (the batch POST's rows run on both either way).

import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO
import ServiceLifecycle
@_spi(Generated) import TypedEvents
import TypedEventsHTTPClient
import TypedEventsHTTPServer
import TypedEventsPostgres

#if canImport(Glibc)
  import Glibc
#endif

/// The event sent: small, as a domain event is, and coded as generated code codes it (through
/// `FieldCodable`), since an endpoint's catalog holds generated types.
struct Tick: Event, FieldCodable {
  static var eventName: String { "Bench.Tick" }
  static var eventVersion: Int { 1 }
  var index: Int
  var text: String

  init(index: Int, text: String = "a tick of the benchmark") {
    self.index = index
    self.text = text
  }

  init<Reader: FieldReader>(fields reader: Reader) throws(Reader.Failure) {
    try self.init(index: reader.decode(Int.self, forKey: "index"), text: reader.decode(String.self, forKey: "text"))
  }

  func write<Writer: FieldWriter>(fields writer: inout Writer) {
    writer.encode(index, forKey: "index")
    writer.encode(text, forKey: "text")
  }
}

let catalog = EventCatalog([Tick.self])
let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
let outputPath = arguments.firstIndex(of: "--output").flatMap {
  arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
}
let repetitions = quick ? 2 : 5
let only = arguments.firstIndex(of: "--only").flatMap {
  arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
}
/// Whether the case named `name` runs: all do unless `--only` names one.
func runs(_ name: String) -> Bool { only == nil || only == name }
/// What builds the servers of every case: `.http1OnEventLoop()`, as the example server is built,
/// or Hummingbird's `.http1()` with `--server http1` (the batch POST's rows name their own).
let serverName = arguments.firstIndex(of: "--server").flatMap {
  arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
}
let defaultServer: HTTPServerBuilder
switch serverName {
case nil: defaultServer = .http1OnEventLoop()
case "http1": defaultServer = .http1()
case let other?:
  FileHandle.standardError.write(Data("--server takes http1, not \(other)\n".utf8))
  exit(2)
}
let logger: Logger = {
  var logger = Logger(label: "typed-events-http-benchmarks")
  logger.logLevel = .error
  return logger
}()

/// Everyone may read and append: the benchmark measures the endpoint, not a policy.
let openAccess = EventAccess<Bool>(authenticate: { _ in true }, authorize: { _, _ in true })

func envelopes(_ range: Range<Int>) throws -> [EventEnvelope] {
  try range.map { try EventEnvelope(Tick(index: $0), id: "tick-\($0)", source: "/bench") }
}

/// Where this process keeps its logs, each in a folder of its own: removed when it ends, so
/// that runs do not fill the disk (an idle-streams child writes 256 MiB).
let runFolder = FileManager.default.temporaryDirectory.appendingPathComponent("http-bench-\(UUID().uuidString)")

/// A new, empty log in a folder of its own, in ``runFolder``.
func freshLog(durability: EventLog.Durability) throws -> EventLog {
  let folder = runFolder.appendingPathComponent(UUID().uuidString)
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  return EventLog(url: folder.appendingPathComponent("events.log"), durability: durability)
}

/// Runs a Hummingbird application with `router` and `services` on a free port of 127.0.0.1,
/// built by `server` (by default the run's, ``defaultServer``), while `body` runs with that
/// port; then shuts it down gracefully.
func withServer(
  _ router: Router<BasicRequestContext>, server: HTTPServerBuilder = defaultServer,
  services: [any Service] = [], _ body: (Int) async throws -> Void
) async throws {
  let (ports, boundPort) = AsyncStream<Int>.makeStream()
  let app = Application(
    router: router, server: server, configuration: .init(address: .hostname("127.0.0.1", port: 0)), services: services,
    onServerRunning: { channel in boundPort.yield(channel.localAddress?.port ?? 0) }, logger: logger)
  let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
  try await withThrowingTaskGroup(of: Void.self) { tasks in
    tasks.addTask { try await group.run() }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else { throw BenchmarkError("the server did not start") }
    do {
      try await body(port)
    } catch {
      await group.triggerGracefulShutdown()
      throw error
    }
    await group.triggerGracefulShutdown()
    try await tasks.waitForAll()
  }
}

struct BenchmarkError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

// MARK: Server-Sent Events clients

/// Counts the events of one Server-Sent Events response as its bytes arrive: it skips the
/// head, takes the chunked body apart, and counts the lines that begin with `data:`.
struct EventCounter {
  /// Bytes of the head's closing CRLF CRLF matched; 4 once in the body.
  var headMatched = 0
  /// Bytes left in the current chunk.
  var chunkLeft = 0
  /// The chunk size being read, in hexadecimal digits.
  var chunkSize = 0
  /// Bytes of `data:` matched at the start of the current line; -1 elsewhere in a line.
  var lineMatched = 0
  var events = 0

  static let headEnd = Array("\r\n\r\n".utf8)

  static func hexDigit(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
    default: nil
    }
  }
  static let data = Array("data:".utf8)

  /// Counts the events in `bytes`, the next bytes of the response. Within a line that is not a
  /// `data:` line it skips to the line's end with memchr: the clients are to cost little.
  mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress else { return }
    var index = 0
    while index < bytes.count {
      if headMatched == 4, chunkLeft > 0, lineMatched < 0 {
        let span = min(chunkLeft, bytes.count - index)
        guard let newline = memchr(base + index, 0x0A, span) else {
          chunkLeft -= span
          index += span
          continue
        }
        let skipped = UnsafeRawPointer(newline) - UnsafeRawPointer(base + index)
        chunkLeft -= skipped
        index += skipped
      }
      add(bytes[index])
      index += 1
    }
  }

  mutating func add(_ byte: UInt8) {
    if headMatched < 4 {
      headMatched = byte == Self.headEnd[headMatched] ? headMatched + 1 : (byte == 0x0D ? 1 : 0)
    } else if chunkLeft > 0 {
      chunkLeft -= 1
      if byte == 0x0A {
        lineMatched = 0
      } else if lineMatched >= 0 {
        lineMatched = byte == Self.data[lineMatched] ? lineMatched + 1 : -1
        if lineMatched == Self.data.count {
          events += 1
          lineMatched = -1
        }
      }
    } else if let digit = Self.hexDigit(byte) {
      chunkSize = chunkSize * 16 + digit
    } else if byte == 0x0A {
      // The end of a size line, or of the empty line after a chunk's data (size 0).
      (chunkLeft, chunkSize) = (chunkSize, 0)
    }
  }
}

/// Clients on plain sockets, read by one thread with poll(2): they cost the same whatever
/// server they read, and little, so that the servers are what is measured.
final class SSEClients: Sendable {
  let sockets: [Int32]
  /// The clients that have received their first bytes.
  let started = NIOLockedValueBox(0)

  init(port: Int, path: String, count: Int) throws {
    sockets = try (0..<count).map { _ in
      let socket = try connectToLoopback(port: port)
      let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
      guard send(socket, request, request.count, 0) == request.count else {
        throw BenchmarkError("cannot send to 127.0.0.1:\(port): errno \(errno)")
      }
      return socket
    }
  }

  deinit { for socket in sockets { close(socket) } }

  /// Reads until every client has `events` events; throws when one's connection ends first, or
  /// nothing arrives for 10 seconds.
  func receive(events: Int) async throws {
    let sockets = sockets
    let started = started
    let complete = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      Thread {
        var polled = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var counters = Array(repeating: EventCounter(), count: sockets.count)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var open = sockets.count
        while open > 0 {
          guard poll(&polled, nfds_t(polled.count), 10_000) > 0 else { break }
          for index in polled.indices where polled[index].fd >= 0 && polled[index].revents != 0 {
            let received = recv(polled[index].fd, &buffer, buffer.count, 0)
            guard received > 0 else {
              continuation.resume(returning: false)
              return
            }
            if counters[index].headMatched == 0 && counters[index].events == 0 {
              started.withLockedValue { $0 += 1 }
            }
            buffer.withUnsafeBufferPointer { counters[index].add(UnsafeBufferPointer(rebasing: $0[..<received])) }
            if counters[index].events >= events {
              polled[index].fd = -1
              open -= 1
            }
          }
        }
        continuation.resume(returning: open == 0)
      }.start()
    }
    guard complete else { throw BenchmarkError("a client's stream ended or stalled before it had \(events) events") }
  }

  /// Waits until every client has received the first bytes of its stream (``receive(events:)``
  /// running).
  func waitUntilStarted() async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while started.withLockedValue({ $0 }) < sockets.count {
      guard ContinuousClock.now < deadline else { throw BenchmarkError("clients did not start") }
      try await Task.sleep(for: .milliseconds(1))
    }
  }
}

/// A gate the floor's handlers wait at until the measurement starts.
final class Gate: Sendable {
  private let state = NIOLockedValueBox<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

  func wait() async {
    await withCheckedContinuation { continuation in
      let now = state.withLockedValue { state -> Bool in
        if state.open { return true }
        state.waiting.append(continuation)
        return false
      }
      if now { continuation.resume() }
    }
  }

  func open() {
    let waiting = state.withLockedValue { state in
      state.open = true
      defer { state.waiting = [] }
      return state.waiting
    }
    for continuation in waiting { continuation.resume() }
  }
}

/// Streams `events` events to `clients` clients from the endpoint, appended in batches of 256
/// once every client's stream has begun; returns the time from the first append until every
/// client has them all.
func endpointFanOut(clients: Int, events: Int) async throws -> Duration {
  // Without fsync: the stream is measured, not the disk.
  let log = try freshLog(durability: .operatingSystem)
  let endpoint = EventsEndpoint(store: log, catalog: catalog, access: openAccess, logger: logger)
  let router = Router()
  endpoint.addRoutes(to: router, at: "events")
  let batches = try stride(from: 0, to: events, by: 256).map { try envelopes($0..<min($0 + 256, events)) }
  var elapsed = Duration.zero
  try await withServer(router, services: [endpoint]) { port in
    let readers = try SSEClients(port: port, path: "/events", count: clients)
    async let received: Void = readers.receive(events: events)
    try await readers.waitUntilStarted()
    let start = ContinuousClock.now
    for batch in batches { try await log.append(contentsOf: batch) }
    try await received
    elapsed = ContinuousClock.now - start
  }
  return elapsed
}

/// Streams `events` events that the endpoint's feed already holds, framed, to `clients`
/// clients that connect without a `Last-Event-ID` (the feed started on the empty log, so they
/// are served from it); returns the time from the first client's connect until every client
/// has them all. Appending, reading back and framing are done before, as the floor's frames are
/// encoded before.
func endpointFeedFanOut(clients: Int, events: Int) async throws -> Duration {
  let log = try freshLog(durability: .operatingSystem)
  var configuration = EventsEndpoint<EventLog, Bool>.Configuration()
  configuration.feedCapacity = events
  let endpoint = EventsEndpoint(
    store: log, catalog: catalog, access: openAccess, configuration: configuration, logger: logger)
  let router = Router()
  endpoint.addRoutes(to: router, at: "events")
  let batches = try stride(from: 0, to: events, by: 256).map { try envelopes($0..<min($0 + 256, events)) }
  var elapsed = Duration.zero
  try await withServer(router, services: [endpoint]) { port in
    // A first client that receives them all: then the feed holds them all.
    let probe = try SSEClients(port: port, path: "/events", count: 1)
    async let probed: Void = probe.receive(events: events)
    try await probe.waitUntilStarted()
    for batch in batches { try await log.append(contentsOf: batch) }
    try await probed
    let start = ContinuousClock.now
    let readers = try SSEClients(port: port, path: "/events", count: clients)
    try await readers.receive(events: events)
    elapsed = ContinuousClock.now - start
  }
  return elapsed
}

/// The floor: a Hummingbird handler that writes the same frames, encoded beforehand, in the same
/// batches of 256, to each of `clients` clients once the gate opens.
///
/// With `fromConnect`, the handlers write at once, and the time runs from the first client's
/// connect, as it does for ``endpointFeedFanOut(clients:events:)``.
func bareFanOut(clients: Int, events: Int, fromConnect: Bool = false) async throws -> Duration {
  let frames = try stride(from: 0, to: events, by: 256).map { first in
    var buffer = ByteBuffer()
    for envelope in try envelopes(first..<min(first + 256, events)) {
      buffer.writeString("id: \(envelope.id)\nevent: \(Tick.eventName)\ndata: ")
      buffer.writeBytes(try envelope.cloudEventJSON())
      buffer.writeString("\n\n")
    }
    return buffer
  }
  let gate = Gate()
  let router = Router()
  router.get("events") { _, _ in
    Response(
      status: .ok, headers: [.contentType: "text/event-stream"],
      body: ResponseBody { writer in
        try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
        await gate.wait()
        for batch in frames { try await writer.write(batch) }
        try await writer.finish(nil)
      })
  }
  var elapsed = Duration.zero
  try await withServer(router) { port in
    if fromConnect {
      gate.open()
      let start = ContinuousClock.now
      let readers = try SSEClients(port: port, path: "/events", count: clients)
      try await readers.receive(events: events)
      elapsed = ContinuousClock.now - start
      return
    }
    let readers = try SSEClients(port: port, path: "/events", count: clients)
    async let received: Void = readers.receive(events: events)
    try await readers.waitUntilStarted()
    let start = ContinuousClock.now
    gate.open()
    try await received
    elapsed = ContinuousClock.now - start
  }
  return elapsed
}

// MARK: Batch POST

/// What POSTs the batches of ``batchAppend(direct:posted:batches:client:server:)``.
enum PostClient {
  /// ``SocketClient``: what the server's side of the exchange costs, as under a load generator.
  case socket
  /// `HTTPClient.shared`, in this process: its CPU and its hand-overs between threads count too.
  case asyncHTTPClient
}

/// The times of one run of ``batchAppend(direct:posted:batches:client:server:)``, each summed over its batches.
struct BatchAppendTimes {
  /// The store's own `appendOnce`.
  var direct = Duration.zero
  /// POSTs to the endpoint.
  var posted = Duration.zero
  /// POSTs of the same bodies to a bare handler that reads each body and answers 201: the HTTP
  /// exchange alone, which no endpoint can do without.
  var bare = Duration.zero
}

/// A router with the endpoint on `store` at `/events`, and at `/bare` a bare handler that reads
/// each body and answers 201 with about as many bytes as the endpoint's answer (one entry of about
/// 100 bytes an event): the HTTP exchange alone, which no endpoint can do without.
func endpointBesideBareHandler<Store: EventStore>(
  on store: Store
) -> (Router<BasicRequestContext>, EventsEndpoint<Store, Bool>) {
  let endpoint = EventsEndpoint(store: store, catalog: catalog, access: openAccess, logger: logger)
  let router = Router()
  endpoint.addRoutes(to: router, at: "events")
  let bareAnswer = ByteBuffer(string: "[" + String(repeating: "0", count: 100 * 100) + "]")
  router.post("bare") { request, _ -> Response in
    _ = try await request.body.collect(upTo: 1 << 20)
    return Response(
      status: .created, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: bareAnswer))
  }
  return (router, endpoint)
}

/// Appends `batches` batches of 100 to `direct` with the store's `appendOnce`, POSTs the same
/// batches, encoded beforehand as CloudEvents batches, to an endpoint on `posted`, and POSTs
/// them to a bare handler beside it. The three take turns batch by batch in each of their six
/// orders alike, so that all meet the same state of the disk and the machine. The server is built
/// by `server`.
func batchAppend<Store: IdempotentEventStore>(
  direct: Store, posted: Store, batches: Int, client: PostClient, server: HTTPServerBuilder = .http1OnEventLoop()
) async throws -> BatchAppendTimes {
  let all = try (0..<batches).map { try envelopes($0 * 100..<$0 * 100 + 100) }
  let bodies = try all.map { try EventEnvelope.cloudEventBatchJSON($0) }
  let (router, endpoint) = endpointBesideBareHandler(on: posted)
  var times = BatchAppendTimes()
  try await withServer(router, server: server, services: [endpoint]) { port in
    let socket = client == .socket ? try SocketClient(port: port) : nil
    let requests = bodies.map { body in
      ["events", "bare"].map {
        SocketClient.request(path: $0, contentType: EventEnvelope.cloudEventBatchContentType, body: body)
      }
    }
    func post(_ body: Data, to path: String, request: [UInt8]) async throws -> Duration {
      if let socket {
        let (time, status) = try await socket.exchange(request)
        guard status / 100 == 2 else { throw BenchmarkError("POST answered \(status)") }
        return time
      }
      let start = ContinuousClock.now
      var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/\(path)")
      request.method = .POST
      request.headers.add(name: "Content-Type", value: EventEnvelope.cloudEventBatchContentType)
      request.body = .bytes(ByteBuffer(bytes: body))
      let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
      _ = try await response.body.collect(upTo: 1 << 20)
      guard response.status.code / 100 == 2 else { throw BenchmarkError("POST answered \(response.status)") }
      return ContinuousClock.now - start
    }
    // Every order of the three in turn (`batches` is a multiple of 6): each goes first, second
    // and third, and after each of the others, equally often.
    let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
    for (index, (batch, body)) in zip(all, bodies).enumerated() {
      for party in orders[index % orders.count] {
        switch party {
        case 0:
          let start = ContinuousClock.now
          _ = try await direct.appendOnce(batch)
          times.direct += ContinuousClock.now - start
        case 1: times.posted += try await post(body, to: "events", request: requests[index][0])
        default: times.bare += try await post(body, to: "bare", request: requests[index][1])
        }
      }
    }
  }
  for store in [direct, posted] {
    guard try await count(store) == batches * 100 else { throw BenchmarkError("a store misses events") }
  }
  return times
}

/// `clients` clients each POST `perClient` events, one a request (a structured CloudEvent), over
/// a kept-alive connection of their own (``SocketClient``), to an endpoint on an `EventLog` that
/// fsyncs each append; against `clients` tasks appending the same events one at a time with
/// `appendOnce` to another such log. Events a second of each, the direct appends first.
func concurrentPosts(clients: Int, perClient: Int) async throws -> (direct: Double, posted: Double) {
  let direct = try freshLog(durability: .fsyncEachAppend)
  let posted = try freshLog(durability: .fsyncEachAppend)
  let events = try (0..<clients).map { client in
    try (0..<perClient).map {
      try EventEnvelope(Tick(index: client * perClient + $0), id: "c\(client)-\($0)", source: "/bench")
    }
  }
  let total = Double(clients * perClient)
  var start = ContinuousClock.now
  try await withThrowingTaskGroup(of: Void.self) { group in
    for mine in events {
      group.addTask { for event in mine { _ = try await direct.appendOnce([event]) } }
    }
    try await group.waitForAll()
  }
  let directRate = total / seconds(ContinuousClock.now - start)
  let endpoint = EventsEndpoint(store: posted, catalog: catalog, access: openAccess, logger: logger)
  let router = Router()
  endpoint.addRoutes(to: router, at: "events")
  var postedRate = 0.0
  try await withServer(router, services: [endpoint]) { port in
    let sockets = try (0..<clients).map { _ in try SocketClient(port: port) }
    let requests = try events.map { mine in
      try mine.map {
        SocketClient.request(path: "events", contentType: "application/cloudevents+json", body: try $0.cloudEventJSON())
      }
    }
    start = ContinuousClock.now
    try await withThrowingTaskGroup(of: [Int].self) { group in
      for (socket, mine) in zip(sockets, requests) { group.addTask { try await socket.exchange(all: mine) } }
      for try await statuses in group where statuses.contains(where: { $0 / 100 != 2 }) {
        throw BenchmarkError("a POST answered \(statuses.first { $0 / 100 != 2 } ?? 0)")
      }
    }
    postedRate = total / seconds(ContinuousClock.now - start)
  }
  for store in [direct, posted] {
    guard try await count(store) == clients * perClient else { throw BenchmarkError("a store misses events") }
  }
  try? FileManager.default.removeItem(at: direct.url.deletingLastPathComponent())
  try? FileManager.default.removeItem(at: posted.url.deletingLastPathComponent())
  return (directRate, postedRate)
}

/// The events of the ordinary 1 MiB batch of the hostile case: 1 KB each.
let hostileBatchEvents = 860

/// The times of ``hostileBodies(rounds:)``, in seconds, and the size of each body.
struct HostileTimes {
  var ordinary: [Double] = []
  var wide: [Double] = []
  var nulls: [Double] = []
  var bytes = (ordinary: 0, wide: 0, nulls: 0)
}

/// POSTs an ordinary batch of about 1 MiB, one event whose data has 65,000 keys, and one with
/// 65,000 null attributes, each `rounds` times with new ids, taking turns in every order.
func hostileBodies(rounds: Int) async throws -> HostileTimes {
  let text = String(repeating: "x", count: 1_000)
  func ordinary(_ round: Int) throws -> Data {
    try EventEnvelope.cloudEventBatchJSON(
      (0..<hostileBatchEvents).map {
        try EventEnvelope(Tick(index: $0, text: text), id: "o-\(round)-\($0)", source: "/bench")
      })
  }
  // 16 bytes a member: about 1 MiB in all.
  let keys = (0..<65_000).map { #""k\#(10_000 + $0)":\#(100_000 + $0)"# }.joined(separator: ",")
  let nulls = (0..<65_000).map { #""a\#(10_000 + $0)":null"# }.joined(separator: ",")
  func event(_ id: String, extra: String, data: String) -> Data {
    Data(
      #"{"specversion":"1.0","id":"\#(id)","source":"/bench","type":"\#(Tick.eventName)"\#(extra),"data":\#(data)}"#
        .utf8)
  }
  var times = HostileTimes()
  let log = try freshLog(durability: .fsyncEachAppend)
  let endpoint = EventsEndpoint(store: log, catalog: catalog, access: openAccess, logger: logger)
  let router = Router()
  endpoint.addRoutes(to: router, at: "events")
  try await withServer(router, services: [endpoint]) { port in
    func post(_ body: Data, as type: String) async throws -> Double {
      let start = ContinuousClock.now
      var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/events")
      request.method = .POST
      request.headers.add(name: "Content-Type", value: type)
      request.body = .bytes(ByteBuffer(bytes: body))
      let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
      let answer = try await response.body.collect(upTo: 1 << 20)
      guard response.status.code == 201 else {
        throw BenchmarkError("POST answered \(response.status): \(String(buffer: answer).prefix(300))")
      }
      return seconds(ContinuousClock.now - start)
    }
    let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
    for round in 0..<rounds {
      let bodies = [
        try ordinary(round), event("w-\(round)", extra: "", data: #"{"index":1,"text":"t","# + keys + "}"),
        event("n-\(round)", extra: "," + nulls, data: #"{"index":1,"text":"t"}"#),
      ]
      times.bytes = (bodies[0].count, bodies[1].count, bodies[2].count)
      for party in orders[round % orders.count] {
        switch party {
        case 0: times.ordinary.append(try await post(bodies[0], as: EventEnvelope.cloudEventBatchContentType))
        case 1: times.wide.append(try await post(bodies[1], as: "application/cloudevents+json"))
        default: times.nulls.append(try await post(bodies[2], as: "application/cloudevents+json"))
        }
      }
    }
  }
  guard try await count(log) == rounds * (hostileBatchEvents + 2) else { throw BenchmarkError("the log misses events") }
  return times
}

/// How many envelopes `store` holds, read from its beginning.
func count(_ store: some EventStore) async throws -> Int {
  var total = 0
  var batch = try await store.read(after: nil, limit: 1_000)
  while !batch.envelopes.isEmpty {
    total += batch.envelopes.count
    batch = try await store.read(after: batch.next, limit: 1_000)
  }
  return total
}

/// Runs `body` with a PostgreSQL store in a fresh schema of the server TYPEDEVENTS_POSTGRES_URL
/// names (Benchmarks/http.sh starts one), its client and store running; drops the schema after.
func withPostgresStore<R: Sendable>(
  url: String, _ body: @Sendable (PostgresEventStore) async throws -> R
) async throws -> R {
  let client = PostgresClient(configuration: try PostgresEventStore.clientConfiguration(url: url, tls: .disable))
  return try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { await client.run() }
    defer { group.cancelAll() }
    let store = try PostgresEventStore(
      client: client, schema: "bench_" + UUID().uuidString.lowercased().filter { $0 != "-" }.prefix(20),
      logger: logger)
    try await store.migrate()
    group.addTask { try await store.run() }
    let result = try await body(store)
    try await client.query("DROP SCHEMA \(unescaped: store.schema) CASCADE")
    return result
  }
}

// MARK: Latency

/// Appends `probes` events one at a time, 10 ms apart, while an `EventsClient` runs into a bus;
/// returns each event's time from the start of its append to its delivery on the bus.
func appendToBusLatencies(probes: Int) async throws -> [Duration] {
  let log = try freshLog(durability: .operatingSystem)
  let endpoint = EventsEndpoint(store: log, catalog: catalog, access: openAccess, logger: logger)
  let router = Router()
  endpoint.addRoutes(to: router, at: "events")
  let sent = NIOLockedValueBox([Int: ContinuousClock.Instant]())
  let latencies = NIOLockedValueBox([Duration]())
  let bus = EventBus()
  let subscription = bus.subscribe(Tick.self, delivery: .immediate) { tick in
    let now = ContinuousClock.now
    if let start = sent.withLockedValue({ $0[tick.index] }) { latencies.withLockedValue { $0.append(now - start) } }
  }
  try await withServer(router, services: [endpoint]) { port in
    guard let url = URL(string: "http://127.0.0.1:\(port)/events") else { throw BenchmarkError("no URL") }
    let client = EventsClient(url: url, catalog: catalog)
    let running = Task { try await client.run(from: MemoryCheckpoint<String>(), into: bus) }
    defer { running.cancel() }
    // One event first, so that the stream is open and caught up before the probes.
    try await log.append(try EventEnvelope(Tick(index: -1), source: "/bench"))
    let deadline = ContinuousClock.now + .seconds(30)
    for index in 0..<probes {
      try await Task.sleep(for: .milliseconds(10))
      sent.withLockedValue { $0[index] = ContinuousClock.now }
      try await log.append(try EventEnvelope(Tick(index: index), source: "/bench"))
    }
    while latencies.withLockedValue({ $0.count }) < probes {
      guard ContinuousClock.now < deadline else { throw BenchmarkError("probes did not arrive") }
      try await Task.sleep(for: .milliseconds(5))
    }
  }
  withExtendedLifetime(subscription) {}
  return latencies.withLockedValue { $0 }
}

// MARK: Filtered reads

/// A log of `events` ticks of about 1 KiB, about 100 subjects in turn.
func subjectsLog(events: Int) throws -> EventLog {
  let log = try freshLog(durability: .operatingSystem)
  let text = String(repeating: "t", count: 1_000)
  for start in stride(from: 0, to: events, by: 1_000) {
    try log.append(
      contentsOf: try (start..<min(events, start + 1_000)).map { index in
        EventEnvelope(
          id: "tick-\(index)", source: "/bench", time: Date(), name: Tick.eventName, version: 1,
          subject: "user-\(index % 100)", payload: try JSONEncoder().encode(Tick(index: index, text: text)))
      })
  }
  return log
}

/// The time to read all of `log` with `filter`, a read of 256 events and 8 MiB at a time (the
/// endpoint's defaults for a stream catching up), and how many envelopes came.
func readAll(_ log: EventLog, matching filter: EventReadFilter) async throws -> (Duration, Int) {
  let clock = ContinuousClock()
  let start = clock.now
  var position: EventLog.Position?
  var count = 0
  while true {
    let batch = try await log.read(after: position, limit: 256, maximumBytes: 8 << 20, matching: filter)
    count += batch.envelopes.count
    if batch.next == position ?? .start { break }
    position = batch.next
  }
  return (clock.now - start, count)
}

// MARK: Idle streams

/// A line of `/proc/self/status` in KiB: `VmRSS` (resident now) or `VmHWM` (its peak).
func residentKiB(_ field: String) throws -> Int {
  let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
  guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
    let value = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
  else { throw BenchmarkError("no \(field) in /proc/self/status") }
  return value
}

/// The child of the idle-streams case: a server on a new `EventLog` (no fsync) with the
/// endpoint's default configuration, `streams` clients that read nothing after their request,
/// then `events` events of 1 MiB appended one at a time. Prints the resident memory with the
/// streams open and before any event, and the peak at the end, in KiB, as `baseline peak`.
func idleStreamsChild(streams: Int, events: Int, eventBytes: Int = 1 << 20) async throws {
  let log = try freshLog(durability: .operatingSystem)
  let endpoint = EventsEndpoint(store: log, catalog: catalog, access: openAccess, logger: logger)
  let router = Router()
  endpoint.addRoutes(to: router, at: "events")
  let text = String(repeating: "x", count: eventBytes)
  try await withServer(router, services: [endpoint]) { port in
    let clients = try SSEClients(port: port, path: "/events", count: streams)
    // Every stream open, waiting on the feed; the allocator settled.
    try await Task.sleep(for: .seconds(2))
    let baseline = try residentKiB("VmRSS")
    for index in 0..<events {
      try await log.append(try EventEnvelope(Tick(index: index, text: text), id: "big-\(index)", source: "/bench"))
    }
    // The feed reads them all (at most `readByteBudget` a read, every `pollInterval` at worst)
    // and the streams write what their clients' sockets take.
    try await Task.sleep(for: .seconds(3))
    let peak = try residentKiB("VmHWM")
    withExtendedLifetime(clients) {}
    // Ended here: a graceful shutdown would wait for streams whose clients read nothing.
    FileHandle.standardOutput.write(Data("\(baseline) \(peak)\n".utf8))
    try? FileManager.default.removeItem(at: runFolder)
    exit(0)
  }
}

/// The glibc tunable that EventsToEveryClient's "Limits" has a server set: blocks of 128 KiB and
/// more go back to the system when freed, instead of glibc's threshold rising to the largest
/// block freed, after which such blocks come from its heaps and stay resident once freed.
let fixedMmapThreshold = "glibc.malloc.mmap_threshold=131072"

/// Runs ``idleStreamsChild(streams:events:eventBytes:)`` in a new process of this executable,
/// with glibc's mmap threshold fixed at 128 KiB (``fixedMmapThreshold``) unless `glibcDefaults`;
/// its resident memory before the events and its peak, in MiB.
func idleStreamsRun(streams: Int, events: Int, glibcDefaults: Bool) throws -> (baseline: Double, peak: Double) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
  process.arguments =
    ["--idle-streams-child", "\(streams)", "\(events)"] + (serverName.map { ["--server", $0] } ?? [])
  var environment = ProcessInfo.processInfo.environment
  environment["GLIBC_TUNABLES"] = glibcDefaults ? nil : fixedMmapThreshold
  process.environment = environment
  let output = Pipe()
  process.standardOutput = output
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let numbers = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
  guard process.terminationStatus == 0, numbers.count == 2 else {
    throw BenchmarkError(
      "the idle-streams child failed (\(process.terminationStatus)): \(String(decoding: data, as: UTF8.self))")
  }
  return (numbers[0] / 1024, numbers[1] / 1024)
}

// MARK: Outbox

/// The time to publish `count` events to a new outbox (fsync on) three ways: one after another,
/// all at once from concurrent tasks, and as one batch. Nothing is sent: the outbox's client
/// names a port nothing listens on, and no `run()` goes.
func outboxPublishing(count: Int) async throws -> (sequential: Duration, concurrent: Duration, batch: Duration) {
  func outbox() throws -> EventOutbox {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-bench-\(UUID().uuidString)")
    guard let url = URL(string: "http://127.0.0.1:9/events") else { throw BenchmarkError("no URL") }
    return try EventOutbox(folder: folder, source: "bench/outbox", client: EventsClient(url: url, catalog: catalog))
  }
  let clock = ContinuousClock()
  let one = try outbox()
  var start = clock.now
  for index in 0..<count { try await one.publish(Tick(index: index)) }
  let sequential = clock.now - start
  let two = try outbox()
  start = clock.now
  try await withThrowingTaskGroup(of: Void.self) { group in
    for index in 0..<count { group.addTask { try await two.publish(Tick(index: index)) } }
    try await group.waitForAll()
  }
  let concurrent = clock.now - start
  let three = try outbox()
  let events: [any Event] = (0..<count).map { Tick(index: $0) }
  start = clock.now
  try await three.publish(contentsOf: events)
  let batch = clock.now - start
  for outbox in [one, two, three] {
    try? FileManager.default.removeItem(at: outbox.log.url.deletingLastPathComponent())
  }
  return (sequential, concurrent, batch)
}

// MARK: Report

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func spread(_ values: [Double], _ format: (Double) -> String) -> String {
  "\(format(values.min() ?? 0)) / \(format(median(values))) / \(format(values.max() ?? 0))"
}
func rate(_ value: Double) -> String { String(format: "%.0f", value) }
func milliseconds(_ value: Double) -> String { String(format: "%.2f ms", value * 1_000) }
func percentile(_ values: [Duration], _ fraction: Double) -> Double {
  let sorted = values.map(seconds).sorted()
  return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

var report: [String] = []
@MainActor func emit(_ line: String) {
  // Unbuffered, also into a pipe: the report shows as it is measured.
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
  report.append(line)
}

/// A section of the report: its heading, what it measures, and its table's header row.
@MainActor func section(_ heading: String, _ text: String, header: String) {
  emit(heading)
  emit("")
  emit(text)
  emit("")
  emit(header)
  emit("|" + String(repeating: "---:|", count: header.filter { $0 == "|" }.count - 1))
}

let fanOutEvents = quick ? 300 : 4_000
/// A multiple of 6, so that ``batchAppend(direct:posted:batches:client:server:)`` runs every order alike.
let postBatches = quick ? 6 : 102
let probes = quick ? 20 : 300
if let index = arguments.firstIndex(of: "--idle-streams-child"), arguments.count > index + 2,
  let streams = Int(arguments[index + 1]), let events = Int(arguments[index + 2])
{
  let eventBytes = arguments.count > index + 3 ? Int(arguments[index + 3]) ?? (1 << 20) : 1 << 20
  try await idleStreamsChild(streams: streams, events: events, eventBytes: eventBytes)
  exit(0)
}
emit("# HTTP benchmarks")
emit("")
emit(
  "Release build over loopback, \(repetitions) repetitions per row, each on a new server and a new log: "
    + "min / median / max. Ratios are of medians measured in the same run. Regenerate with `Benchmarks/http.sh`. "
    + (serverName == nil
      ? "Servers are built with `.http1OnEventLoop()`, as the example server is (each connection handled on its event loop); the batch POST's rows on `.http1()` too."
      : "Servers are built with Hummingbird's `.http1()` (`--server http1`)."))
emit("")
if runs("fan-out") {
  section(
    "## Fan-out: \(fanOutEvents) events to every client",
    "The floor is a bare Hummingbird handler writing the frames, encoded beforehand, in batches of 256, until every client has all of them; it is timed two ways, to match each way the endpoint is. The endpoint serves an `EventLog` (no fsync). *From its feed*: the events were appended, read back and framed before the clients connect, as the floor's frames were encoded before; the time runs from the first client's connect, and so does the floor's it is compared with (*floor from connect*, whose handlers write at once). *Live*: the events are appended in batches of 256 once every stream has begun, and the floor's handlers begin to write once every client is connected (*floor, connected*); the time counts appending each event, reading it back and framing it, which the floor does not do. Clients are plain sockets read by one thread. Goal: ≥ 0.5× the floor, on the floor's terms (from the feed).",
    header:
      "| clients | floor from connect: delivered events/s | from the feed: delivered events/s | feed / floor | floor, connected: delivered events/s | live: delivered events/s | live / floor |"
  )
  for clients in quick ? [2, 5] : [10, 100] {
    var floorFromConnect: [Double] = []
    var fromFeed: [Double] = []
    var floorConnected: [Double] = []
    var live: [Double] = []
    let delivered = Double(fanOutEvents * clients)
    for _ in 0..<repetitions {
      floorFromConnect.append(
        delivered / seconds(try await bareFanOut(clients: clients, events: fanOutEvents, fromConnect: true)))
      fromFeed.append(delivered / seconds(try await endpointFeedFanOut(clients: clients, events: fanOutEvents)))
      floorConnected.append(delivered / seconds(try await bareFanOut(clients: clients, events: fanOutEvents)))
      live.append(delivered / seconds(try await endpointFanOut(clients: clients, events: fanOutEvents)))
    }
    func ratio(_ values: [Double], _ floor: [Double]) -> String {
      String(format: "%.2f", median(values) / median(floor)) + "×"
    }
    emit(
      "| \(clients) | \(spread(floorFromConnect, rate)) | \(spread(fromFeed, rate)) | \(ratio(fromFeed, floorFromConnect)) "
        + "| \(spread(floorConnected, rate)) | \(spread(live, rate)) | \(ratio(live, floorConnected)) |")
  }
}
emit("")
if runs("post") {
  section(
    "## Batch append: \(postBatches) batches of 100 events, one after another",
    "The same batches, appended with the store's `appendOnce` to one store, and POSTed as CloudEvents batches (encoded beforehand) to the endpoint on a second store of the same kind, which decodes and checks each event against the catalog. A third party POSTs the same bodies to a bare handler that only reads each body and answers 201 with about as many bytes as the endpoint's answer: the HTTP exchange alone, which no endpoint can do without. The three take turns batch by batch, in each of their six orders alike, so all meet the same state of the disk; each is timed alone. *Ceiling* is the store's time a batch / (that time + the bare exchange's), from the medians: the ratio if the endpoint's own work (reading the CloudEvents, checking each event, answering) took no time. Each repetition on new stores: an `EventLog` (fsync each append, the default) in a new folder, a PostgreSQL schema (fsync and synchronous commit on, the server's defaults) on a throw-away server on 127.0.0.1. The server is built by `.http1OnEventLoop()`, as the example server is: each connection's requests are handled on the event loop that reads and writes it; the rows *`.http1()`* use Hummingbird's default instead, which hands each request to a thread of Swift's pool and its answer back to the event loop (both builders serve the endpoint and the bare handler alike). Two clients POST, each in rows of its own: *a socket*, one kept-alive connection written and read with blocking calls on a thread of its own, as a load generator or a client on another machine costs the server's machine next to nothing; and *AsyncHTTPClient* in this process, whose own CPU and hand-overs between threads, on the same two cores as the server, count in both the POST's time and the bare exchange's. *The endpoint's own time an event* is the POST's time a batch less the store's and the bare exchange's, from the medians, over its 100 events: what the ratio weighs against the store's time. Goal: ≥ 0.7×.",
    header:
      "| store | client | server | store's batch append: events/s | batch POST: events/s | POST / store | bare exchange: time a batch | ceiling | the endpoint's own time an event |"
  )
  func row(_ name: String, client: String, server: String, _ measure: () async throws -> BatchAppendTimes) async throws
  {
    var store: [Double] = []
    var post: [Double] = []
    var bare: [Double] = []
    for _ in 0..<repetitions {
      let times = try await measure()
      store.append(Double(postBatches * 100) / seconds(times.direct))
      post.append(Double(postBatches * 100) / seconds(times.posted))
      bare.append(seconds(times.bare) / Double(postBatches))
    }
    let ratio = String(format: "%.2f", median(post) / median(store))
    // From the medians, as the ratio beside it: the store's time a batch against that time
    // plus the bare exchange's.
    let storeTime = 100 / median(store)
    let ceiling = String(format: "%.2f", storeTime / (storeTime + median(bare)))
    // What the POST takes beyond the store's append and the bare exchange, an event: the
    // endpoint's reading, checking and answering, which the ratio compares with the store's time.
    let own = String(format: "%.2f µs", (100 / median(post) - storeTime - median(bare)) / 100 * 1e6)
    emit(
      "| \(name) | \(client) | \(server) | \(spread(store, rate)) | \(spread(post, rate)) | \(ratio)× | \(spread(bare, milliseconds)) "
        + "| \(ceiling)× | \(own) |")
  }
  let servers = [(HTTPServerBuilder.http1OnEventLoop(), "`.http1OnEventLoop()`"), (.http1(), "`.http1()`")]
  for (client, name) in [(PostClient.socket, "a socket"), (.asyncHTTPClient, "AsyncHTTPClient")] {
    for (server, label) in servers {
      try await row("`EventLog`", client: name, server: label) {
        try await batchAppend(
          direct: try freshLog(durability: .fsyncEachAppend), posted: try freshLog(durability: .fsyncEachAppend),
          batches: postBatches, client: client, server: server)
      }
    }
  }
  if let url = ProcessInfo.processInfo.environment["TYPEDEVENTS_POSTGRES_URL"] {
    for (client, name) in [(PostClient.socket, "a socket"), (.asyncHTTPClient, "AsyncHTTPClient")] {
      try await row("PostgreSQL", client: name, server: servers[0].1) {
        try await withPostgresStore(url: url) { direct in
          try await withPostgresStore(url: url) { posted in
            try await batchAppend(direct: direct, posted: posted, batches: postBatches, client: client)
          }
        }
      }
    }
  } else {
    emit("| PostgreSQL | | | skipped: TYPEDEVENTS_POSTGRES_URL is not set (Benchmarks/http.sh sets it) | | | | | |")
  }
  emit("")
  let ownBatches = quick ? 6 : 600
  emit(
    "The endpoint's own time, in this process: \(ownBatches) batches of 100 events each repetition, appended with "
      + "`appendOnce` to an `EventLog` without fsync, and POSTed to the endpoint on another and to the bare handler "
      + "through HummingbirdTesting's router client (no socket, no HTTP parsing), taking turns as above. Each cell "
      + "is the median of a repetition's batches; *own* is the POST's time less the store's and the bare "
      + "exchange's: the reading, checking and answering that the ratio above weighs, without the disk's and the "
      + "network's spread.")
  emit("")
  emit(
    "| store's append: µs a batch | POST: µs a batch | bare exchange: µs a batch | own: µs a batch | own: µs an event |"
  )
  emit("|---:|---:|---:|---:|---:|")
  var direct: [Double] = []
  var posted: [Double] = []
  var bare: [Double] = []
  var own: [Double] = []
  for _ in 0..<repetitions {
    let times = try await endpointOwnTime(batches: ownBatches)
    direct.append(median(times.direct))
    posted.append(median(times.posted))
    bare.append(median(times.bare))
    own.append(median(times.posted) - median(times.bare) - median(times.direct))
  }
  func microseconds(_ value: Double) -> String { String(format: "%.1f", value) }
  emit(
    "| \(spread(direct, microseconds)) | \(spread(posted, microseconds)) | \(spread(bare, microseconds)) "
      + "| \(spread(own, microseconds)) | \(String(format: "%.2f", median(own) / 100)) |")
}
emit("")
if runs("latency") {
  section(
    "## Latency: append → a client's bus, idle",
    "\(probes) events appended one at a time, 10 ms apart, to an `EventLog` (no fsync) served by the endpoint; an `EventsClient` runs into an `EventBus`. From the start of each append to the subscriber's call. Goal: p50 ≤ 10 ms, p99 ≤ 50 ms.",
    header: "| p50: min / median / max | p99: min / median / max |")
  do {
    var p50: [Double] = []
    var p99: [Double] = []
    for _ in 0..<repetitions {
      let latencies = try await appendToBusLatencies(probes: probes)
      p50.append(percentile(latencies, 0.5))
      p99.append(percentile(latencies, 0.99))
    }
    emit("| \(spread(p50, milliseconds)) | \(spread(p99, milliseconds)) |")
  }
}
emit("")
if runs("hostile") {
  section(
    "## Hostile bodies: 1 MiB of 65,000 keys, or of 65,000 null attributes, against an ordinary 1 MiB batch",
    "Three POSTs of about 1 MiB each to the endpoint on an `EventLog` (fsync each append): a batch of \(hostileBatchEvents) events of 1 KB (the ordinary body), one event whose data has 65,000 keys, and one event with 65,000 null extension attributes. Each is checked by the strict grammar, its repeated keys looked for with a hash past a dozen members, and appended. They take turns in each of their six orders alike; the time of each POST, from its start to its whole answer. Goal: each hostile body ≤ 2× the ordinary one, from the medians.",
    header: "| body | bytes | time a POST: min / median / max | / ordinary |")
  let times = try await hostileBodies(rounds: quick ? 6 : 36)
  let ordinary = median(times.ordinary)
  for (name, bytes, values) in [
    ("ordinary batch", times.bytes.ordinary, times.ordinary), ("65,000 keys in data", times.bytes.wide, times.wide),
    ("65,000 null attributes", times.bytes.nulls, times.nulls),
  ] {
    emit(
      "| \(name) | \(bytes) | \(spread(values, milliseconds)) | \(String(format: "%.2f", median(values) / ordinary))× |"
    )
  }
}
emit("")
if runs("filtered-read") {
  let events = quick ? 2_000 : 50_000
  section(
    "## Filtered reads: one subject in 100, against the whole log",
    "An `EventLog` of \(events) events of about 1 KiB, their subjects 100 in turn, read from the start to the end in reads of 256 events and 8 MiB (a stream catching up): *whole*, with no filter, which decodes every line; *one subject*, with a filter for one subject, which reads each line's header and decodes only the lines of that subject. They take turns, each on the same file. Goal: one subject well under the whole read.",
    header: "| read | events kept | time: min / median / max | / whole |")
  let log = try subjectsLog(events: events)
  var whole: [Double] = []
  var oneSubject: [Double] = []
  var kept = (whole: 0, oneSubject: 0)
  for _ in 0..<repetitions {
    let (wholeTime, wholeCount) = try await readAll(log, matching: .all)
    let (filteredTime, filteredCount) = try await readAll(log, matching: EventReadFilter(subject: "user-7"))
    whole.append(seconds(wholeTime))
    oneSubject.append(seconds(filteredTime))
    kept = (wholeCount, filteredCount)
  }
  guard kept.whole == events, kept.oneSubject == events / 100 else {
    throw BenchmarkError("the reads kept \(kept), not \(events) and \(events / 100)")
  }
  emit("| whole | \(kept.whole) | \(spread(whole, milliseconds)) | 1.00× |")
  emit(
    "| one subject | \(kept.oneSubject) | \(spread(oneSubject, milliseconds)) "
      + "| \(String(format: "%.2f", median(oneSubject) / median(whole)))× |")
  try? FileManager.default.removeItem(at: log.url.deletingLastPathComponent())
}
emit("")
if runs("idle-streams") {
  let streams = quick ? 20 : 1_000
  let events = quick ? 8 : 256
  let budget = Double(EventsEndpoint<EventLog, Bool>.Configuration().feedByteBudget >> 20)
  let readBudget = Double(EventsEndpoint<EventLog, Bool>.Configuration().readByteBudget >> 20)
  let sharedBudget = Double(EventsEndpoint<EventLog, Bool>.Configuration().sharedReadByteBudget >> 20)
  let goal = budget + sharedBudget + 64
  section(
    "## Idle streams: \(streams) streams whose clients read nothing, while \(events) events of 1 MiB are appended",
    "A server on an `EventLog` (no fsync) with the endpoint's default configuration: the feed keeps at most `feedByteBudget` (\(Int(budget)) MiB) of data and frames, the reads of streams catching up hold at most `sharedReadByteBudget` (\(Int(sharedBudget)) MiB) of data and frames until their connections have sent them, and the feed reads at most `readByteBudget` (\(Int(readBudget)) MiB) at once. \(streams) clients connect, send their request and read nothing more, so every stream soon has writes its connection cannot send. *Baseline*: the server's resident memory with the streams open, before any event. *Peak*: its highest resident memory once \(events) events of 1 MiB (\(events) MiB, more than the budgets) were appended and read by the feed, 3 s after the last. Each run in a process of its own. Goal: peak − baseline ≤ `feedByteBudget` + `sharedReadByteBudget` + 64 MiB = \(Int(goal)) MiB. The 64 MiB are what is read and not yet counted, and the allocator's slack: the feed's read in progress (up to three times `readByteBudget`: the file's bytes, the data and the frames) and the file's bytes of the streams' reads in progress (up to half of `sharedReadByteBudget`), 56 MiB here. The goal is for a server run as the endpoint's article (\"Limits\") says, with glibc's mmap threshold fixed at 128 KiB (`GLIBC_TUNABLES=\(fixedMmapThreshold)`), so that blocks of 128 KiB and more go back to the system when freed. With glibc's defaults, the threshold rises to the largest block freed (up to 32 MiB): once a 1 MiB frame has been freed, the next come from glibc's heaps, whose freed memory stays resident, and the peak grows by what the heaps keep, which no budget counts; its row shows how much.",
    header: "| glibc's allocator | baseline: MiB | peak: MiB | peak − baseline: MiB | / goal |")
  func mebibytes(_ value: Double) -> String { String(format: "%.0f", value) }
  for glibcDefaults in [false, true] {
    var baselines: [Double] = []
    var peaks: [Double] = []
    var growths: [Double] = []
    for _ in 0..<(quick ? 1 : 3) {
      let run = try idleStreamsRun(streams: streams, events: events, glibcDefaults: glibcDefaults)
      baselines.append(run.baseline)
      peaks.append(run.peak)
      growths.append(run.peak - run.baseline)
    }
    emit(
      "| \(glibcDefaults ? "its defaults" : "`GLIBC_TUNABLES=\(fixedMmapThreshold)`") "
        + "| \(spread(baselines, mebibytes)) | \(spread(peaks, mebibytes)) | \(spread(growths, mebibytes)) "
        + "| \(String(format: "%.2f", (growths.max() ?? 0) / goal))× (the highest) |")
  }
}
if runs("concurrent-post") {
  let clients = 16
  let perClient = quick ? 5 : 100
  section(
    "## \(clients) clients POSTing one event a request, against \(clients) tasks appending directly",
    "An `EventLog` (fsync each append): \(clients) clients, each with one kept-alive connection on a thread of its own (the socket client above), POST \(perClient) structured CloudEvents each, one a request, one after another; against \(clients) tasks in the same process appending the same events with `appendOnce`, one a call, to another log. Concurrent appends share the log's fsyncs (group commit), through the endpoint as directly. Each run on new logs, the direct appends first; \(repetitions) runs; events/s min / median / max.",
    header: "| appends | events/s | against direct |")
  var directRates: [Double] = []
  var postedRates: [Double] = []
  for _ in 0..<repetitions {
    let run = try await concurrentPosts(clients: clients, perClient: perClient)
    directRates.append(run.direct)
    postedRates.append(run.posted)
  }
  emit("| direct `appendOnce` | \(spread(directRates, rate)) | 1.00× |")
  emit(
    "| POST | \(spread(postedRates, rate)) | "
      + String(format: "%.2f×", median(postedRates) / median(directRates)) + " |")
  emit("")
}
if runs("outbox") {
  let count = 50
  section(
    "## The outbox: \(count) events published one after another, concurrently, and as one batch",
    "`EventOutbox.publish` to a new outbox (its log fsyncs each append, the default), nothing sent: *sequential* awaits each publish before the next, *concurrent* starts all \(count) at once from a task group (publishes that arrive while the log's writer thread syncs share its next fsync), *batch* is one `publish(contentsOf:)`. Each way on its own new outbox, in turn, \(repetitions) times; ms min / median / max, and the median against sequential's.",
    header: "| way | time: min / median / max | against sequential |")
  var times: (sequential: [Double], concurrent: [Double], batch: [Double]) = ([], [], [])
  for _ in 0..<repetitions {
    let run = try await outboxPublishing(count: count)
    times.sequential.append(seconds(run.sequential))
    times.concurrent.append(seconds(run.concurrent))
    times.batch.append(seconds(run.batch))
  }
  for (name, values) in [("sequential", times.sequential), ("concurrent", times.concurrent), ("batch", times.batch)] {
    emit(
      "| \(name) | \(spread(values, milliseconds)) | "
        + String(format: "%.2f×", median(values) / median(times.sequential)) + " |")
  }
  emit("")
}
if let outputPath {
  try (report.joined(separator: "\n") + "\n").write(toFile: outputPath, atomically: true, encoding: .utf8)
}
try? FileManager.default.removeItem(at: runFolder)
