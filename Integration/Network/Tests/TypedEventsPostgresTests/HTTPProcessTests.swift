#if PostgreSQL
  import Foundation
  import SampleEvents
  import Testing
  import TypedEvents
  import TypedEventsPostgres

  #if canImport(Glibc)
    import Glibc
  #endif

  /// `events-http-example` as child processes against the PostgreSQL store: a server serving it
  /// over HTTP, readers that receive into their buses, and a publisher with an offline outbox,
  /// each killed with SIGKILL where a crash is the point.
  extension PostgresEventStoreTests {

    /// A folder for the processes' files.
    static func processFolder() throws -> URL {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("http-processes-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      return folder
    }

    /// Starts the example's server on `port` (0 for a free one) for `store`; returns it and its
    /// events URL once it serves.
    static func httpServer(
      _ store: PostgresEventStore, port: Int = 0, environment: [String: String] = [:]
    ) async throws -> (ExampleProcess, String) {
      let server = try ExampleProcess(
        ["server", "\(port)"], schema: store.schema, executable: "events-http-example", environment: environment)
      var url: String?
      let deadline = ContinuousClock.now + .seconds(30)
      while url == nil && ContinuousClock.now < deadline {
        url = server.output.split(separator: "\n").first { $0.hasPrefix("serving ") }.map {
          String($0.dropFirst("serving ".count))
        }
        if url == nil { try await Task.sleep(for: .milliseconds(20)) }
      }
      return (server, try #require(url, "the server did not start: \(server.output)"))
    }

    /// Appends boxes titled `box <index>` for `indices`, in that order, ten to a transaction.
    static func appendBoxes(_ store: PostgresEventStore, _ indices: Range<Int>) async throws {
      for start in stride(from: indices.lowerBound, to: indices.upperBound, by: 10) {
        try await store.append(
          (start..<min(start + 10, indices.upperBound)).map {
            try EventEnvelope(BoxProvisioned(boxId: BoxID(UUID()), title: "box \($0)"), source: "/tests")
          })
      }
    }

    /// Every envelope of `store`, in its order.
    static func everything(_ store: PostgresEventStore) async throws -> [EventEnvelope] {
      try await store.read(after: nil, limit: 100_000).envelopes.map(\.envelope)
    }

    @Test func theReadmesHTTPExampleRunsAServerOnItsFileLogAReaderAndAPublisher() async throws {
      // As README's table runs it, each in a terminal of its own, in one folder: without a
      // PostgreSQL URL the server keeps `events.log` there.
      let folder = try Self.processFolder()
      defer { try? FileManager.default.removeItem(at: folder) }
      func example(_ arguments: [String]) throws -> ExampleProcess {
        try ExampleProcess(
          arguments, schema: "unused", executable: "events-http-example", workingDirectory: folder,
          removing: ["TYPEDEVENTS_POSTGRES_URL"])
      }
      let server = try example(["server", "0"])
      var url: String?
      try await eventually {
        url = server.output.split(separator: "\n").first { $0.hasPrefix("serving ") }.map {
          String($0.dropFirst("serving ".count))
        }
        return url != nil
      }
      let events = try #require(url, "the server did not start: \(server.output)")
      let reader = try example(["reader", events, "reader.checkpoint"])
      let publisher = try example(["publisher", events, "outbox", "5"])
      try await eventually { reader.received.count >= 5 && publisher.output.contains("\nsent") }
      #expect(publisher.output.contains("published 5\n"), "\(publisher.output)")
      #expect(publisher.output.hasSuffix("sent\n"), "\(publisher.output)")
      #expect(reader.received == (0..<5).map { "box \($0)" }, "\(reader.output)")
      let log = EventLog(url: folder.appendingPathComponent("events.log"))
      #expect(try log.read().envelopes.count == 5)
      // The processes' deinit reaps them.
      for process in [publisher, reader, server] { process.kill(SIGKILL) }
    }

    @Test func aServerKilledMidStreamAndRestartedLeavesEveryReaderWithEveryEventOnceInOrder() async throws {
      try await withStore { store in
        let folder = try Self.processFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = try await Self.httpServer(store)
        var server = started.0
        let url = started.1
        let port = try #require(URLComponents(string: url)?.port)
        let readers = try (0..<2).map {
          try ExampleProcess(
            ["reader", url, folder.appendingPathComponent("reader-\($0).checkpoint").path], schema: store.schema,
            executable: "events-http-example")
        }
        try await Self.appendBoxes(store, 0..<150)
        try await eventually { readers.allSatisfy { $0.received.count >= 100 } }
        #expect(readers.allSatisfy { $0.received.count >= 100 }, "\(readers.map(\.output))")

        // Mid-stream: the readers are still receiving the first 150.
        server.kill(SIGKILL)
        _ = await server.exitStatus()
        try await Self.appendBoxes(store, 150..<300)
        server = try await Self.httpServer(store, port: port).0
        try await eventually { readers.allSatisfy { $0.received.count >= 300 } }

        let expected = (0..<300).map { "box \($0)" }
        #expect(try await Self.everything(store).count == 300)
        for reader in readers {
          #expect(reader.received == expected, "\(reader.output.suffix(2_000))")
        }
        for process in readers + [server] { process.kill(SIGKILL) }
      }
    }

    @Test func aReaderKilledMidStreamAndRestartedGetsAgainOnlyTheEventItWasPublishing() async throws {
      try await withStore { store in
        let folder = try Self.processFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, url) = try await Self.httpServer(store)
        try await Self.appendBoxes(store, 0..<2_000)
        let checkpoint = folder.appendingPathComponent("reader.checkpoint").path
        func reader() throws -> ExampleProcess {
          try ExampleProcess(["reader", url, checkpoint], schema: store.schema, executable: "events-http-example")
        }
        // Killed while it catches up: between two saves of its checkpoint, mid-burst.
        let first = try reader()
        let deadline = ContinuousClock.now + .seconds(60)
        while first.received.count < 200 && ContinuousClock.now < deadline {
          try await Task.sleep(for: .milliseconds(2))
        }
        first.kill(SIGKILL)
        _ = await first.exitStatus()
        let before = first.received
        #expect(before.count >= 200 && before.count < 2_000, "killed after \(before.count)")

        let second = try reader()
        try await eventually { before.count + second.received.count >= 2_000 }
        let after = second.received
        let expected = (0..<2_000).map { "box \($0)" }
        // The event it was publishing when killed comes again at most: every event it had
        // published before is noted beside the checkpoint, and the new run goes on after it.
        let repeated = before.count + after.count - 2_000
        #expect((0...1).contains(repeated), "\(repeated) events came again")
        let delivered = Array(before + after.dropFirst(max(0, repeated)))
        let inOrder = delivered == expected
        #expect(inOrder, "the second run began with \(after.prefix(3)) after \(before.suffix(3))")
        for process in [second, server] { process.kill(SIGKILL) }
      }
    }

    /// Headless Chromium from the machine's packages (`apt-get install chromium`), or
    /// `TYPEDEVENTS_CHROMIUM`.
    static let chromium: String? = {
      let environment = ProcessInfo.processInfo.environment
      let path = environment["TYPEDEVENTS_CHROMIUM"].map { [$0] } ?? []
      let candidates = (environment["PATH"] ?? "/usr/bin").split(separator: ":").flatMap { folder in
        ["chromium", "chromium-browser", "google-chrome"].map { "\(folder)/\($0)" }
      }
      return (path + candidates).first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The box titles the page's script logged to the browser's console, in order. Chromium
    /// writes each `console.log` to its standard error as `…:INFO:CONSOLE…] "text", source: …`.
    static func boxesReceived(by browser: ExampleProcess) -> [String] {
      browser.output.split(separator: "\n").compactMap { line in
        guard line.contains(":CONSOLE"), let start = line.range(of: "\"received "),
          let end = line.range(of: "\", source:", range: start.upperBound..<line.endIndex)
        else { return nil }
        return String(line[start.upperBound..<end.lowerBound])
      }
    }

    @Test(
      "A browser's own EventSource receives every event once, in order, across a server killed and restarted",
      .enabled(
        if: PostgresEventStoreTests.chromium != nil,
        "needs headless Chromium: apt-get install chromium, or set TYPEDEVENTS_CHROMIUM"))
    func aBrowserResumesAfterTheServerIsKilledAndRestarted() async throws {
      try await withStore { store in
        let folder = try Self.processFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = try await Self.httpServer(store)
        var server = started.0
        let page = try #require(URL(string: started.1)?.deletingLastPathComponent().absoluteString)
        let port = try #require(URLComponents(string: page)?.port)
        // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
        let browser = try ExampleProcess(
          [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--enable-logging=stderr", "--v=0",
            "--user-data-dir=\(folder.appendingPathComponent("profile").path)", page + "?token=reader",
          ], schema: store.schema, executable: try #require(Self.chromium))
        try await Self.appendBoxes(store, 0..<50)
        // A cold Chromium on a loaded machine may take many seconds to start.
        try await eventually(seconds: 90) { Self.boxesReceived(by: browser).count >= 50 }
        #expect(Self.boxesReceived(by: browser).count >= 50, "\(browser.output.suffix(3_000))")

        server.kill(SIGKILL)
        _ = await server.exitStatus()
        try await Self.appendBoxes(store, 50..<100)
        server = try await Self.httpServer(store, port: port).0
        try await eventually { Self.boxesReceived(by: browser).count >= 100 }

        #expect(Self.boxesReceived(by: browser) == (0..<100).map { "box \($0)" }, "\(browser.output.suffix(3_000))")
        for process in [browser, server] { process.kill(SIGKILL) }
      }
    }

    /// Python 3 on `PATH`: the hostile client uses its standard library only.
    static let python3: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
      .map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(
      """
      A client that is not ours, as a process of its own: more than 100 bad requests each get their \
      problem, none appends, and everything served is strict JSON
      """,
      .enabled(
        if: PostgresEventStoreTests.python3 != nil, "needs python3 on PATH for Scripts/peers/hostile_http_client.py"))
    func aHostileClientGetsAProblemForEachBadRequestAndBreaksNothing() async throws {
      try await withStore { store in
        try await Self.appendBoxes(store, 0..<3)
        let (server, url) = try await Self.httpServer(store)
        // The repository's root: this file is in Integration/Network/Tests/TypedEventsPostgresTests.
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { root.deleteLastPathComponent() }
        let client = try ExampleProcess(
          [root.appendingPathComponent("Scripts/peers/hostile_http_client.py").path, url], schema: store.schema,
          executable: try #require(Self.python3))
        let status = await client.exitStatus()
        #expect(status == 0, "\(client.output)")
        let summary = try #require(client.output.split(separator: "\n").last.map(String.init))
        let sent = try #require(summary.split(separator: " ").first.flatMap { Int($0) }, "\(client.output)")
        #expect(sent > 100, "\(summary)")
        // What the client found is what the store holds: the three boxes and its five good events.
        #expect(try await Self.everything(store).count == 3 + 5, "\(summary)")
        #expect(summary.contains("3 events before, 5 appended by 5 good ones"), "\(summary)")
        // The client read its pages and its stream after the bad requests: the server they went to
        // still served, and has not fallen over since.
        #expect(!server.output.contains("Fatal error"), "\(server.output.suffix(2_000))")
        server.kill(SIGKILL)
      }
    }

    /// schemathesis in the virtual environment `Scripts/peers/setup` makes under `.build/`.
    static let schemathesis: String? = {
      var root = URL(fileURLWithPath: #filePath)
      for _ in 0..<5 { root.deleteLastPathComponent() }
      let path = root.appendingPathComponent(".build/schemathesis-venv/bin/schemathesis").path
      return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    /// schemathesis reads the OpenAPI description the server serves and sends what it generates
    /// from it, valid and invalid, as a principal that may append every type. Every check but
    /// one: `positive_data_acceptance` wants every request the description allows accepted, and
    /// a description cannot say that a subject equals its data's identity or that a position
    /// must be one this store gave. Pages only (`Accept`): a stream never ends, and the browser
    /// and the CloudEvents SDK read streams in their own tests.
    @Test(
      "schemathesis, from the description the server serves, gets no 5xx and no answer that breaks it",
      .enabled(
        if: PostgresEventStoreTests.schemathesis != nil,
        "needs schemathesis: run Scripts/peers/setup (it pip-installs it into .build/schemathesis-venv)"))
    func schemathesisFindsNoAnswerThatBreaksTheDescription() async throws {
      try await withStore { store in
        let folder = try Self.processFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.appendBoxes(store, 0..<3)
        let (server, url) = try await Self.httpServer(store)
        let base = String(url.dropLast("/events".count))
        // A fixed seed: CI runs the same requests each time; run it by hand with another to
        // look further.
        let fuzzer = try ExampleProcess(
          [
            "run", url + "/openapi.json", "--url", base, "-H", "Authorization: Bearer admin",
            "-H", "Accept: \(EventEnvelope.cloudEventBatchContentType)", "--checks", "all",
            "--exclude-checks", "positive_data_acceptance", "--max-examples", "100", "--seed", "20261129",
            "--request-timeout", "10",
          ], schema: store.schema, executable: try #require(Self.schemathesis), environment: ["NO_COLOR": "1"],
          // It keeps a cache in the folder it runs in.
          workingDirectory: folder)
        let status = await fuzzer.exitStatus()
        #expect(status == 0, "\(fuzzer.output)")
        // How many requests it sent: enough that passing means something.
        let counts = fuzzer.output.split(separator: "\n").first { $0.contains(" generated, ") }
        let generated = try #require(
          counts.flatMap { $0.split(separator: " ").first.flatMap { Int($0) } }, "\(fuzzer.output)")
        #expect(generated >= 1_000, "\(counts ?? "")")
        #expect(!server.output.contains("Fatal error"), "\(server.output.suffix(2_000))")
        // Whatever it got appended is served: the whole store still reads as events.
        let events = try await Self.everything(store)
        for envelope in events { _ = try envelope.decode(using: GeneratedEvents.catalog) }
        server.kill(SIGKILL)
      }
    }

    @Test func aPublisherKilledWithAPostInFlightHasEachOfItsEventsStoredOnceAfterARestart() async throws {
      try await withStore { store in
        let folder = try Self.processFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The server answers each POST 300 ms after it has appended its events, and says so.
        let (server, url) = try await Self.httpServer(store, environment: ["EXAMPLE_POST_ANSWER_DELAY_MS": "300"])
        let outbox = folder.appendingPathComponent("outbox").path
        // Five events a request: twenty requests.
        let batches = ["EXAMPLE_BATCH_SIZE": "5"]
        let publisher = try ExampleProcess(
          ["publisher", url, outbox, "100"], schema: store.schema, executable: "events-http-example",
          environment: batches)
        /// Requests whose events the server has appended but not yet answered.
        func unanswered(_ output: String) -> Int {
          let lines = output.split(separator: "\n")
          return lines.count { $0 == "POST appended" } - lines.count { $0 == "POST answered" }
        }
        // Killed once 20 events are stored and a request is in flight: appended, not answered.
        var atKill = ""
        try await eventually {
          guard try await Self.everything(store).count >= 20, unanswered(server.output) > 0 else { return false }
          atKill = server.output
          publisher.kill(SIGKILL)
          return true
        }
        #expect(unanswered(atKill) == 1, "the server's output when the publisher was killed: \(atKill)")
        #expect(await publisher.exitStatus() == 128 + SIGKILL)
        #expect(publisher.output.contains("published 100"))
        let beforeRestart = try await Self.everything(store).count
        #expect(beforeRestart < 100, "the publisher had sent everything before it was killed")

        let restarted = try ExampleProcess(
          ["publisher", url, outbox, "0"], schema: store.schema, executable: "events-http-example",
          environment: batches)
        #expect(await restarted.exitStatus() == 0, "\(restarted.output)")

        let stored = try await Self.everything(store)
        let published = try EventLog(url: URL(fileURLWithPath: outbox).appendingPathComponent("outbox.log")).read()
          .envelopes.map(\.id)
        #expect(published.count == 100)
        #expect(stored.map(\.id) == published, "killed with \(beforeRestart) stored")
        server.kill(SIGKILL)
      }
    }
  }
#endif
