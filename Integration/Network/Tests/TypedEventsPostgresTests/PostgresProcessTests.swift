#if PostgreSQL
  import Foundation
  import Testing
  import TypedEventsPostgres

  #if canImport(Glibc)
    import Glibc
  #endif

  /// `events-postgres-example` (the PostgreSQL article's two processes) run as child processes, killed with
  /// SIGKILL where a crash is the point.
  extension PostgresEventStoreTests {
    @Test func aReaderKilledMidBatchAndRestartedGetsOnlyItsUnsavedBatchAgain() async throws {
      try await withStore(listening: false) { store in
        let writer = try ExampleProcess(["writer", "100"], schema: store.schema)
        #expect(await writer.exitStatus() == 0)
        let first = try ExampleProcess(["reader", "projector"], schema: store.schema, handlerDelayMilliseconds: 20)
        try await eventually { first.received.count >= 35 }
        first.kill(SIGKILL)
        _ = await first.exitStatus()
        let beforeCrash = first.received
        let second = try ExampleProcess(["reader", "projector"], schema: store.schema)
        try await eventually { Set(beforeCrash + second.received).count == 100 }
        second.kill(SIGTERM)
        #expect(await second.exitStatus() == 0)

        let all = beforeCrash + second.received
        var firstSeen: [String] = []
        var seen: Set<String> = []
        for id in all where seen.insert(id).inserted { firstSeen.append(id) }
        #expect(firstSeen == (0..<100).map { "l-\($0)" }, "nothing lost, first deliveries in order")
        // The restarted reader starts at the last checkpoint (saved after each batch of 10, and
        // between events when a lease round is due) and goes on in order: it repeats only what
        // the killed reader handled after its last checkpoint, at most a batch.
        let restart = try #require(second.received.first.flatMap { beforeCrash.firstIndex(of: $0) })
        #expect(beforeCrash.count - restart <= 10, "restarted at \(restart) of \(beforeCrash.count)")
        #expect(second.received == (restart..<100).map { "l-\($0)" })
      }
    }

    @Test func whenTheActiveReaderOfAGroupIsKilledTheStandbyProcessTakesOver() async throws {
      try await withStore(listening: false) { store in
        let readers = try (0..<2).map { _ in try ExampleProcess(["reader", "projector"], schema: store.schema) }
        try await eventually { readers.allSatisfy { $0.output.contains("reading as projector") } }
        #expect(await (try ExampleProcess(["writer", "20"], schema: store.schema)).exitStatus() == 0)
        try await eventually { readers.map(\.received.count).reduce(0, +) == 20 }
        let active = try #require(readers.firstIndex { !$0.received.isEmpty })
        let standby = readers[1 - active]
        #expect(standby.received.isEmpty, "one active member at a time")
        readers[active].kill(SIGKILL)
        _ = await readers[active].exitStatus()
        // The writer numbers from 0 again; the standby's deliveries end with the second 20.
        #expect(await (try ExampleProcess(["writer", "20"], schema: store.schema)).exitStatus() == 0)
        try await eventually { standby.received.count >= 20 && standby.received.last == "l-19" }
        standby.kill(SIGTERM)
        #expect(await standby.exitStatus() == 0)
        let first = (0..<20).map { "l-\($0)" }
        #expect(readers[active].received == first)
        // At least once: the killed member may have delivered its last batch (10 at most)
        // without saving the checkpoint, so the standby may start with that batch again.
        let again = standby.received.dropLast(20)
        #expect(again.count <= 10 && again.elementsEqual(first.suffix(again.count)), "redelivered \(again)")
        #expect(standby.received.suffix(20).elementsEqual(first))
      }
    }
  }

  /// A child process of `events-postgres-example` (or another executable built beside the
  /// tests, or one given by its absolute path), its output and errors going to a file. Spawned with posix_spawn and reaped with waitpid on a
  /// thread of its own, so that nothing depends on Foundation noticing the child's exit.
  final class ExampleProcess: Sendable {
    let pid: pid_t
    let outputPath: String

    init(
      _ arguments: [String], schema: String, handlerDelayMilliseconds: Int = 0,
      executable name: String = "events-postgres-example", environment extra: [String: String] = [:],
      workingDirectory: URL? = nil, removing removed: Set<String> = []
    ) throws {
      var directory = Bundle.main.bundleURL
      if directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
      // A name is one of this package's executables; a path is anything else (a browser).
      let executable = name.hasPrefix("/") ? name : directory.appendingPathComponent(name).path
      outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(UUID()).log").path
      var environment = ProcessInfo.processInfo.environment
      environment["TYPEDEVENTS_SCHEMA"] = schema
      environment["EXAMPLE_HANDLER_DELAY_MS"] = "\(handlerDelayMilliseconds)"
      environment.merge(extra) { $1 }
      for name in removed { environment[name] = nil }
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
      // In another folder through env(1): Glibc's posix_spawn_file_actions_addchdir_np is not
      // visible to Swift.
      let command = workingDirectory.map { ["/usr/bin/env", "-C", $0.path, executable] } ?? [executable]
      let argv = (command + arguments).map { strdup($0) } + [nil]
      let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
      defer { for pointer in argv + envp { free(pointer) } }
      var pid: pid_t = 0
      let result = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
      guard result == 0 else { throw PostgresTestServer.ServerError("cannot start \(executable): \(result)") }
      self.pid = pid
    }

    /// Everything the process printed so far.
    var output: String {
      (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// The listing ids the reader's bus subscriber received, in order.
    var received: [String] {
      output.split(separator: "\n").compactMap { line in
        line.hasPrefix("received ") ? String(line.dropFirst("received ".count)) : nil
      }
    }

    func kill(_ signal: Int32) {
      _ = Glibc.kill(pid, signal)
    }

    /// Waits for the process to end; its exit status, or 128 + the signal that ended it.
    func exitStatus() async -> Int32 {
      let pid = pid
      return await withCheckedContinuation { continuation in
        Thread {
          var status: Int32 = 0
          _ = waitpid(pid, &status, 0)
          let signal = status & 0x7f
          continuation.resume(returning: signal == 0 ? (status >> 8) & 0xff : 128 + signal)
        }.start()
      }
    }

    deinit {
      // A child a failed test left running; one reaped already is not ours to signal.
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == 0 {
        _ = Glibc.kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
      }
      unlink(outputPath)
    }
  }
#endif
