import AsyncHTTPClient
import BoardEvents
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Synchronization
import Testing
import TypedEvents
import TypedEventsHTTPServer

/// A response body writer that holds what it is given, as NIO holds what a connection has not
/// yet handed to its socket: a client that reads nothing, without the socket buffers that make
/// a real one's timing uncertain. Or one that copies each buffer and lets go of it at once: a
/// client that takes everything.
final class HoldingWriter: ResponseBodyWriter, Sendable {
  private let held = Mutex<[ByteBuffer]>([])
  private let copied = Mutex<[UInt8]>([])
  private let releasing: Bool
  /// Nil while the body is written to it; then how that ended.
  let ended = Mutex<Result<Void, any Error>?>(nil)

  init(releasing: Bool = false) { self.releasing = releasing }

  func write(_ buffer: ByteBuffer) async throws {
    if releasing {
      copied.withLock { $0.append(contentsOf: buffer.readableBytesView) }
    } else {
      held.withLock { $0.append(buffer) }
    }
  }
  func finish(_ trailingHeaders: HTTPFields?) async throws {}

  /// The bytes held.
  var heldBytes: Int { held.withLock { $0.reduce(0) { $0 + $1.readableBytes } } }
  /// The last 256 KiB copied, as text: cheap enough to look at often.
  var recentText: String { copied.withLock { String(decoding: $0.suffix(256 << 10), as: UTF8.self) } }
  /// What was written to it, as text.
  var text: String {
    if releasing { return copied.withLock { String(decoding: $0, as: UTF8.self) } }
    return held.withLock { $0.map { String(buffer: $0) }.joined() }
  }
}

/// Hands each response's body a ``HoldingWriter`` instead of the connection's writer (the
/// client gets headers and nothing more), and keeps how the body's writing ended in it.
struct HoldingMiddleware: RouterMiddleware {
  let writer: HoldingWriter
  /// Whether every request's body goes to the writer, or only those with an `X-Hold` header.
  var onEveryRequest = true
  func handle(
    _ request: Request, context: BasicRequestContext,
    next: (Request, BasicRequestContext) async throws -> Response
  ) async throws -> Response {
    var response = try await next(request, context)
    // Only requests that ask for it: others are answered as usual.
    guard request.headers[HTTPField.Name("X-Hold")!] != nil || onEveryRequest else { return response }
    let original = response.body
    response.body = ResponseBody { [writer] connection in
      do {
        try await original.write(writer)
        writer.ended.withLock { $0 = .success(()) }
      } catch {
        writer.ended.withLock { $0 = .failure(error) }
        throw error
      }
      try await connection.finish(nil)
    }
    return response
  }
}

@Suite("What a stream has written and its connection not yet sent", .timeLimit(.minutes(2)))
struct UnflushedWritesTests {
  /// Runs the stream of `endpoint` for `alice` into `writer`, and appends `count` events of
  /// about 64 KB to `log`, four at a time, once it is open; returns how the stream ended, or
  /// nil when `done` held first.
  func stream(
    _ endpoint: EventsEndpoint<EventLog, Reader>, log: EventLog, into writer: HoldingWriter, count: Int,
    until done: @escaping @Sendable () -> Bool = { false }
  ) async throws -> Result<Void, any Error>? {
    let middleware = HoldingMiddleware(writer: writer)
    let router = Router()
    router.add(middleware: middleware)
    endpoint.addRoutes(to: router, at: "events")
    let text = String(repeating: "h", count: 64_000)
    var outcome: Result<Void, any Error>?
    try await withServer(router, services: [endpoint]) { url in
      // Kept, unread: dropping it would close the connection.
      let (response, reader) = try await openStream(url)
      try #require(response.status == .ok)
      func append(_ indices: Range<Int>) async throws {
        _ = try await log.appendOnce(
          indices.map { index in
            try EventEnvelope(
              NoteAdded(board: BoardID("b1"), text: text, author: "a"), id: "h\(index)", source: "/tests")
          })
      }
      // The stream writes its first line once the feed reads the store, from its end: from
      // then on the stream takes new events from the feed.
      while !writer.text.hasPrefix("retry:") { try await Task.sleep(for: .milliseconds(10)) }
      // Twenty (2.6 MB with their frames, less than the feed's 4 MiB), until the stream has
      // written them all or its allowance of 1 MiB: it took them from the feed, which still
      // holds them all. Then the rest, which push them out of the feed.
      try await append(0..<20)
      while writer.heldBytes < 1 << 20 && !writer.text.contains(#""id":"h19""#) {
        try await Task.sleep(for: .milliseconds(10))
      }
      for start in stride(from: 20, to: count, by: 4) { try await append(start..<min(start + 4, count)) }
      while true {
        outcome = writer.ended.withLock { $0 }
        if outcome != nil || done() { break }
        try await Task.sleep(for: .milliseconds(20))
      }
      withExtendedLifetime(reader) {}
    }
    return outcome
  }

  /// How the body written into `writer` ended, once it has: with an error, else the test fails.
  func endedWithError(_ writer: HoldingWriter) async throws -> any Error {
    while true {
      switch writer.ended.withLock({ $0 }) {
      case .failure(let error): return error
      case .success: throw BodyEndedWithoutError()
      case nil: try await Task.sleep(for: .milliseconds(10))
      }
    }
  }

  struct BodyEndedWithoutError: Error {}

  func endpoint(_ log: EventLog) -> EventsEndpoint<EventLog, Reader> {
    boardEndpoint(log) { configuration in
      // Never the reason here.
      configuration.writeTimeout = .seconds(3_600)
      configuration.feedByteBudget = 4 << 20
      configuration.readByteBudget = 256 << 10
      // A stream waits this long for the feed to start; the feed's reads wake on each append.
      configuration.pollInterval = .seconds(10)
    }
  }

  @Test("a stream whose connection sends nothing holds one turn, and ends once the feed drops what it holds")
  func aStreamThatSendsNothingEndsOnceTheFeedDropsWhatItHolds() async throws {
    let log = try temporaryLog()
    let writer = HoldingWriter()
    // 200 events of 64 KB: 12.8 MB, three times the feed's budget.
    let outcome = try await stream(endpoint(log), log: log, into: writer, count: 200)
    guard case .failure(let error) = outcome else {
      Issue.record("the stream did not end with an error: \(String(describing: outcome))")
      return
    }
    #expect("\(error)" == "the client fell behind the feed's byte budget: its stream is closed")
    // It stopped taking events once it held its allowance (1 MiB): it holds at most that and
    // one turn (a read of the feed: 256 KiB of data, and its frames), not the 12.8 MB.
    #expect(writer.heldBytes < 2 << 20, "the stream wrote \(writer.heldBytes) bytes its connection had not sent")
  }

  @Test("a stream whose connection sends everything at once writes every event in order and is not ended")
  func aStreamWhoseConnectionSendsEverythingIsNotEnded() async throws {
    let log = try temporaryLog()
    let writer = HoldingWriter(releasing: true)
    let outcome = try await stream(endpoint(log), log: log, into: writer, count: 200) {
      writer.recentText.contains(#""id":"h199""#)
    }
    #expect(outcome == nil, "the stream ended: \(String(describing: outcome))")
    let ids = writer.text.split(separator: "\n").compactMap { line -> String? in
      guard line.hasPrefix("data: "), let range = line.range(of: #""id":"h"#) else { return nil }
      return String(line[range.upperBound...].prefix { $0 != "\"" })
    }
    #expect(ids == (0..<200).map { "\($0)" })
  }

  /// Runs `body` against an endpoint whose shared read budget is one read's share (256 KiB),
  /// with a write timeout of 1 s, on a log of four events of 64 KB (ids `ids` + 0…3); requests
  /// with an `X-Hold` header have their body written into the writer `body` gets.
  func withOneReadsBudget(
    ids: String, _ body: (String, HoldingWriter) async throws -> Void
  ) async throws {
    let log = try temporaryLog()
    let endpoint = boardEndpoint(log) { configuration in
      configuration.sharedReadByteBudget = 256 << 10
      configuration.readByteBudget = 256 << 10
      configuration.maximumPageBytes = 256 << 10
      configuration.writeTimeout = .seconds(1)
    }
    let text = String(repeating: "o", count: 64_000)
    _ = try await log.appendOnce(
      (0..<4).map { index in
        try EventEnvelope(
          NoteAdded(board: BoardID("b1"), text: text, author: "a"), id: "\(ids)\(index)", source: "/tests")
      })
    let writer = HoldingWriter()
    let router = Router()
    router.add(middleware: HoldingMiddleware(writer: writer, onEveryRequest: false))
    endpoint.addRoutes(to: router, at: "events")
    try await withServer(router, services: [endpoint]) { url in try await body(url, writer) }
  }

  @Test("a page whose connection sends nothing holds its share of the read budget until it is cut off")
  func aPageWhoseConnectionSendsNothingHoldsItsShare() async throws {
    try await withOneReadsBudget(ids: "p") { url, writer in
      // The first page goes to the holding writer, and takes the whole budget.
      // Its head only: its body never comes.
      let held = try await HTTPClient.shared.execute(
        request(url, headers: [("Accept", EventEnvelope.cloudEventBatchContentType), ("X-Hold", "1")]),
        timeout: .seconds(60))
      #expect(held.status == .ok)
      // The second waits for the budget: it is answered once the first is cut off.
      let sent = ContinuousClock.now
      let second = try await send(request(url, headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      #expect(second.status == 200)
      #expect(
        ContinuousClock.now - sent > .milliseconds(500),
        "the second page was answered while the first still held the budget")
      let error = try await endedWithError(writer)
      #expect("\(error)" == "the client took no write for 1.0 seconds: its connection is closed")
      #expect(second.body.contains(#""id":"p3""#))
      withExtendedLifetime(held) {}
    }
  }

  @Test(
    "a stream catching up whose connection sends nothing holds its share of the read budget until it is cut off after the write timeout"
  )
  func aStreamCatchingUpHoldsItsShareUntilCutOff() async throws {
    try await withOneReadsBudget(ids: "c") { url, writer in
      // A stream from the beginning reads the store (the feed starts at its end), into the
      // holding writer: its connection sends nothing of what it wrote.
      // Kept, unread: dropping it would close the connection.
      let (held, reader) = try await openStream(url, headers: [("X-Hold", "1")])
      #expect(held.status == .ok)
      while !writer.text.contains(#""id":"c0""#) { try await Task.sleep(for: .milliseconds(10)) }
      let written = ContinuousClock.now
      // A page waits for the budget the stream holds: it is answered once the stream is cut off,
      // a write timeout after its write.
      let page = try await send(request(url, headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      #expect(page.status == 200)
      #expect(
        ContinuousClock.now - written > .milliseconds(500),
        "the page was answered while the stream still held the budget")
      let error = try await endedWithError(writer)
      #expect("\(error)" == "the client took no write for 1.0 seconds: its connection is closed")
      #expect(page.body.contains(#""id":"c3""#))
      withExtendedLifetime(reader) {}
    }
  }
}
