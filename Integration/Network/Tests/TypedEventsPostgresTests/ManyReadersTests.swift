#if PostgreSQL
  import AsyncHTTPClient
  import Foundation
  import NIOCore
  import SampleEvents
  import TestSupport
  import Testing
  @testable import TypedEvents
  import TypedEventsPostgres

  #if canImport(Glibc)
    import Glibc
  #endif

  /// 200 readers of one `events-http-example` server process while events are appended at
  /// 1,000 a second, one client that stops reading, and the server's memory throughout.
  extension PostgresEventStoreTests {
    /// The events of a `text/event-stream` body as it arrives: a box's title, or `export` for
    /// the other events. Found with `memchr` and `memcmp` rather than by decoding each event: 200 readers
    /// parse about 300 MB in a debug build.
    struct BoxTitles {
      var pending: [UInt8] = []
      var titles: [String] = []
      /// The `id` of the last whole frame that carried an event.
      var lastID: String?

      mutating func add(_ bytes: some Sequence<UInt8>) {
        pending.append(contentsOf: bytes)
        var start = 0
        while let end = Self.find("\n\n", in: pending, from: start) {
          frame(pending[start..<end])
          start = end + 2
        }
        pending.removeFirst(start)
      }

      private mutating func frame(_ frame: ArraySlice<UInt8>) {
        // A heartbeat may carry an `id` too; only a frame with `data` is an event.
        guard frame.starts(with: "id: ".utf8), let line = frame.firstIndex(of: UInt8(ascii: "\n")),
          let data = Self.find("\ndata: ", in: pending, from: line - 1), data < frame.endIndex
        else { return }
        lastID = String(decoding: frame[(frame.startIndex + 4)..<line], as: UTF8.self)
        if let key = Self.find("\"title\":\"", in: pending, from: line), key < frame.endIndex,
          let close = pending[(key + 9)..<frame.endIndex].firstIndex(of: UInt8(ascii: "\""))
        {
          titles.append(String(decoding: pending[(key + 9)..<close], as: UTF8.self))
        } else {
          titles.append("export")
        }
      }

      static func find(_ needle: String, in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        let pattern = Array(needle.utf8)
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
          guard let base = buffer.baseAddress else { return nil }
          var at = start
          // memchr for the first byte, memcmp for the rest: Glibc's memmem is not imported.
          while at + pattern.count <= buffer.count,
            let found = memchr(base + at, Int32(pattern[0]), buffer.count - at)
          {
            let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            guard index + pattern.count <= buffer.count else { return nil }
            if memcmp(base + index, pattern, pattern.count) == 0 { return index }
            at = index + 1
          }
          return nil
        }
      }
    }

    /// The body of a chunked HTTP/1.1 response as its bytes arrive.
    struct ChunkedBody {
      var raw: [UInt8] = []
      var headComplete = false
      /// The current chunk's bytes still to come, with the CRLF that ends it.
      var left = 0

      /// The body's bytes among `bytes`, which follow those given before.
      mutating func add(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        raw += bytes
        var at = 0
        if !headComplete {
          guard let end = BoxTitles.find("\r\n\r\n", in: raw, from: 0) else { return [] }
          (at, headComplete) = (end + 4, true)
        }
        var body: [UInt8] = []
        while true {
          if left > 0 {
            let taken = min(left, raw.count - at)
            body += raw[at..<at + max(0, min(taken, left - 2))]
            (at, left) = (at + taken, left - taken)
            if left > 0 { break }
          }
          guard let end = BoxTitles.find("\r\n", in: raw, from: at),
            let size = Int(String(decoding: raw[at..<end], as: UTF8.self), radix: 16), size > 0
          else { break }
          (at, left) = (end + 2, size + 2)
        }
        raw.removeFirst(at)
        return body
      }
    }

    /// A stream read through a plain socket: cheaper than an HTTP client in a debug build, and
    /// with a receive buffer as small as the test wants.
    final class RawStream: Sendable {
      let socket: Int32

      init(port: Int, path: String, receiveBuffer: Int32? = nil) throws {
        socket = try connectLoopback(port: port, receiveBuffer: receiveBuffer, timeoutSeconds: 5)
        let request = Array(
          "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer reader\r\n\r\n".utf8)
        guard send(socket, request, request.count, 0) == request.count else {
          throw PostgresTestServer.ServerError("send: errno \(errno)")
        }
      }

      deinit { close(socket) }

      /// What the server sent, read until it closed the connection; `closed` is false when it
      /// had not closed it within 20 seconds.
      func readToEnd() -> (bytes: [UInt8], closed: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
          let count = recv(socket, &chunk, chunk.count, 0)
          if count <= 0 { return (bytes, count == 0) }
          bytes += chunk[..<count]
        }
        return (bytes, false)
      }

      /// Reads `streams` on a thread of its own, with poll(2), each until it has `count` events,
      /// it ends, or two minutes pass; returns what each received. `started` counts the streams
      /// whose response head has arrived.
      static func read(_ streams: [RawStream], events count: Int, started: Locked<Int>) async -> [[String]] {
        let sockets = streams.map(\.socket)
        return await withCheckedContinuation { continuation in
          Thread {
            var bodies = Array(repeating: ChunkedBody(), count: sockets.count)
            var events = Array(repeating: BoxTitles(), count: sockets.count)
            var polled = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            var open = sockets.count
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let deadline = ContinuousClock.now + .seconds(120)
            while open > 0 && ContinuousClock.now < deadline {
              guard poll(&polled, nfds_t(polled.count), 1_000) > 0 else { continue }
              for index in polled.indices where polled[index].fd >= 0 && polled[index].revents != 0 {
                let received = recv(polled[index].fd, &buffer, buffer.count, 0)
                let wasStarted = bodies[index].headComplete
                if received > 0 { events[index].add(bodies[index].add(buffer[..<received])) }
                if !wasStarted && bodies[index].headComplete { started.withLock { $0 += 1 } }
                if received <= 0 || events[index].titles.count >= count {
                  polled[index].fd = -1
                  open -= 1
                }
              }
            }
            continuation.resume(returning: events.map(\.titles))
          }.start()
        }
      }
    }

    /// The processor time `pid` has used, user and system, in seconds, from /proc.
    static func cpuSeconds(of pid: pid_t) throws -> Double {
      let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
      // After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
      let fields = stat[(stat.lastIndex(of: ")") ?? stat.startIndex)...].split(separator: " ")
      return Double((Int(fields[12]) ?? 0) + (Int(fields[13]) ?? 0)) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The server's resident memory now and at its peak, in bytes, from /proc.
    static func memory(of process: ExampleProcess) throws -> (resident: Int, peak: Int) {
      let status = try String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8)
      func kilobytes(_ key: String) -> Int {
        let line = status.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1_024
      }
      return (kilobytes("VmRSS"), kilobytes("VmHWM"))
    }

    @Test func twoHundredReadersReceiveEveryEventAtAThousandASecondAndTheServersMemoryStaysBounded()
      async throws
    {
      try await withStore { store in
        // Started as the article's "Limits" says a server is: glibc's mmap threshold fixed.
        let (server, url) = try await Self.httpServer(
          store, environment: ["GLIBC_TUNABLES": "glibc.malloc.mmap_threshold=131072"])
        defer { server.kill(SIGKILL) }
        let port = try #require(URLComponents(string: url)?.port)
        let (readers, boxes, bulk) = (200, 3_000, 2_000)
        let before = try Self.memory(of: server)
        let testStart = ContinuousClock.now

        // A receive buffer of 4 KiB, and nothing read until the end.
        let stalled = try RawStream(port: port, path: "/events", receiveBuffer: 4_096)
        let filtered = "/events?type=\(BoxProvisioned.eventName)"
        let streams = try (0..<readers).map { _ in try RawStream(port: port, path: filtered) }
        let connected = Locked(0)
        let clock = ContinuousClock()
        var exportsAppended = clock.now
        let received = try await withThrowingTaskGroup(of: [[String]].self) { group in
          group.addTask { await RawStream.read(streams, events: boxes, started: connected) }
          try await eventually { connected.withLock { $0 } == readers }
          print("connected after \(ContinuousClock.now - testStart)")
          // First, events the readers filter out and the stalled client does not: 8 MB of
          // exports, more than the socket buffers between it and the server hold.
          let format = String(repeating: "x", count: 4_000)
          for start in stride(from: 0, to: bulk, by: 100) {
            try await store.append(
              (start..<start + 100).map { _ in try EventEnvelope(ExportRequested(format: format), source: "/tests") })
          }
          exportsAppended = clock.now
          // 1,000 a second: a hundred boxes every 100 ms, as ten transactions at once, which
          // commit in any order: readers are checked against the store's order.
          let start = clock.now
          for batch in 0..<(boxes / 100) {
            try await withThrowingTaskGroup(of: Void.self) { transactions in
              for first in stride(from: batch * 100, to: batch * 100 + 100, by: 10) {
                transactions.addTask {
                  try await store.append(
                    try (first..<first + 10).map {
                      try EventEnvelope(BoxProvisioned(boxId: BoxID(UUID()), title: "box \($0)"), source: "/tests")
                    })
                }
              }
              try await transactions.waitForAll()
            }
            try await clock.sleep(until: start + .milliseconds(100 * (batch + 1)))
          }
          let seconds = (clock.now - start) / .milliseconds(1) / 1_000
          print(
            "appended \(boxes) boxes in \(seconds) s, \(Int(Double(boxes) / seconds)) a second, while \(readers) read; CPU so far: server \(try Self.cpuSeconds(of: server.pid)) s, this process \(try Self.cpuSeconds(of: getpid())) s"
          )
          return try await group.next() ?? []
        }
        let expected = try await Self.everything(store).compactMap {
          (try? $0.decode(using: GeneratedEvents.catalog)).flatMap { $0 as? BoxProvisioned }?.title
        }
        #expect(Set(expected).count == boxes)
        print("received after \(ContinuousClock.now - testStart)")
        for (index, titles) in received.enumerated() where titles != expected {
          let first =
            zip(titles, expected).enumerated().first { $1.0 != $1.1 }?.offset ?? min(titles.count, expected.count)
          print(
            "reader \(index): \(titles.count) titles, first difference at \(first): \(titles[max(0, first - 2)..<min(titles.count, first + 3)])"
          )
          break
        }

        #expect(received.count == readers)
        #expect(received.allSatisfy { $0 == expected }, "a reader missed or repeated a box")

        // The stalled client: cut off once its writes stopped for the write timeout (10 s; the
        // watchdog looks every second), then resumed from its last id without loss. Reading
        // before the cut-off would let the writes go on, so the wait leaves the server 9 s to
        // fall behind on a loaded machine.
        try await clock.sleep(until: exportsAppended + .seconds(20))
        let cutOff = stalled.readToEnd()
        #expect(cutOff.closed, "the server kept the stalled connection open")
        var stream = BoxTitles()
        var chunked = ChunkedBody()
        stream.add(chunked.add(cutOff.bytes))
        let beforeCut = stream.titles.count
        #expect(beforeCut < bulk, "the stalled client received everything before it was cut off")
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer reader")
        request.headers.add(name: "Last-Event-ID", value: try #require(stream.lastID))
        let resumed = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        // A new stream: the cut-off one's unfinished frame is dropped.
        var rest = BoxTitles()
        for try await buffer in resumed.body {
          rest.add(buffer.readableBytesView)
          if stream.titles.count + rest.titles.count >= bulk + boxes { break }
        }
        #expect(
          stream.titles + rest.titles == Array(repeating: "export", count: bulk) + expected,
          "cut off after \(beforeCut)")

        // The bound the endpoint documents (EventsToEveryClient, "Limits"), for the example's
        // default configuration: `feedByteBudget` (64 MiB) and `sharedReadByteBudget` (64 MiB),
        // and 64 MiB for what reads in progress hold before they are counted and the
        // allocator's slack. (The defaults are checked in `theDefaultsAreThoseDocumented`.)
        let peak = try Self.memory(of: server).peak
        let bound = (64 + 64 + 64) << 20
        print(
          "server memory: \(before.resident >> 20) MiB at start, peak \(peak >> 20) MiB (\((peak - before.resident) >> 20) MiB more) with \(readers + 1) streams and \(bulk + boxes) events; the documented bound allows \(bound >> 20) MiB more"
        )
        #expect(peak - before.resident <= bound)
      }
    }
  }
#endif
