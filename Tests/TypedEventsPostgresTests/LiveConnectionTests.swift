#if PostgreSQL
  import Testing
  import TypedEvents
  @testable import TypedEventsPostgres

  /// `abandonedWhenClosed`, which keeps a query lost on a closing connection from stopping its
  /// caller for good: no server needed. The connection's state is a flag here, and the watch's
  /// clock is the test's.
  @Suite(.timeLimit(.minutes(1))) struct LiveConnectionTests {
    /// Something that waits until the test lets it go, as a lost query waits forever.
    final class Gate: Sendable {
      private let state = Locked<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

      func wait() async {
        await withCheckedContinuation { continuation in
          let open = state.withLock { state in
            if !state.open { state.waiting.append(continuation) }
            return state.open
          }
          if open { continuation.resume() }
        }
      }

      func open() {
        let waiting = state.withLock { state in
          state.open = true
          defer { state.waiting = [] }
          return state.waiting
        }
        for continuation in waiting { continuation.resume() }
      }
    }

    /// The watch's clock: each tick waits until the test advances it.
    final class ManualTicks: Sendable {
      private let state = Locked<(ticks: Int, waiting: CheckedContinuation<Void, Never>?)>((0, nil))

      /// The watch's side: how many times it has asked for a tick, and the wait.
      func tick() async {
        await withCheckedContinuation { continuation in
          state.withLock { state in
            state.ticks += 1
            state.waiting = continuation
          }
        }
      }

      /// Lets the watch's pending tick end, so that it checks once more.
      func advance() async {
        await waitUntilAsked(times: 1)
        state.withLock { $0.waiting.take() }?.resume()
      }

      /// Returns once the watch has asked for `times` ticks and waits for the last: it has
      /// checked `times - 1` times.
      func waitUntilAsked(times: Int) async {
        while state.withLock({ $0.ticks < times || $0.waiting == nil }) { await Task.yield() }
      }
    }

    @Test func anOperationThatReturnsReturnsItsValue() async throws {
      let value = try await abandonedWhenClosed { watch in
        watch.start { false }
        return 42
      }
      #expect(value == 42)
    }

    @Test func anErrorOfTheOperationIsThrownAsItIs() async throws {
      struct Refused: Error, Equatable {}
      await #expect(throws: Refused()) {
        try await abandonedWhenClosed { watch -> Int in
          watch.start { false }
          throw Refused()
        }
      }
    }

    @Test func anOperationStuckOnAClosedConnectionIsAbandonedAtTheSecondCheck() async throws {
      let (ticks, lost) = (ManualTicks(), Gate())
      defer { lost.open() }
      let result = Locked<Result<Int, any Error>?>(nil)
      let running = Task {
        do {
          let value = try await abandonedWhenClosed(tick: ticks.tick) { watch in
            watch.start { true }
            await lost.wait()
            return 1
          }
          result.withLock { $0 = .success(value) }
        } catch {
          result.withLock { $0 = .failure(error) }
        }
      }
      await ticks.advance()
      await ticks.waitUntilAsked(times: 2)
      #expect(result.withLock { $0 } == nil, "given up at the first check, before a failing query could return")
      await ticks.advance()
      await running.value
      #expect(throws: PostgresEventStoreError.connectionLost) { try result.withLock { $0 }?.get() }
    }

    @Test func aQueryThatReturnsAfterItsConnectionClosedIsNotAbandoned() async throws {
      let (ticks, answer) = (ManualTicks(), Gate())
      let closed = Locked(true)
      let running = Task {
        try await abandonedWhenClosed(tick: ticks.tick) { watch in
          watch.start { closed.withLock { $0 } }
          await answer.wait()
          return 2
        }
      }
      await ticks.advance()
      await ticks.waitUntilAsked(times: 2)  // one check saw the connection closed
      answer.open()  // the query fails or returns in time, as a query the connection failed does
      #expect(try await running.value == 2)
    }

    @Test func anOperationStuckOnAnOpenConnectionIsNotAbandoned() async throws {
      let (ticks, slow) = (ManualTicks(), Gate())
      let running = Task {
        try await abandonedWhenClosed(tick: ticks.tick) { watch in
          watch.start { false }
          await slow.wait()
          return 3
        }
      }
      for checks in 1...5 {
        await ticks.advance()
        await ticks.waitUntilAsked(times: checks + 1)
      }
      slow.open()
      #expect(try await running.value == 3)
    }

    @Test func cancellingTheCallerCancelsTheOperation() async throws {
      let started = Gate()
      let running = Task {
        try await abandonedWhenClosed { watch in
          watch.start { false }
          started.open()
          try await Task.sleep(for: .seconds(600))
          return 0
        }
      }
      await started.wait()
      running.cancel()
      await #expect(throws: CancellationError.self) { try await running.value }
    }

    @Test func aLostOperationOfACancelledCallerStillEndsWhenItsConnectionIsClosed() async throws {
      let (ticks, started, lost) = (ManualTicks(), Gate(), Gate())
      defer { lost.open() }
      let running = Task {
        try await abandonedWhenClosed(tick: ticks.tick) { watch in
          watch.start { true }
          started.open()
          await lost.wait()  // ignores cancellation, as a lost query does
          return 0
        }
      }
      await started.wait()
      running.cancel()
      await ticks.advance()
      await ticks.advance()
      await #expect(throws: PostgresEventStoreError.connectionLost) { try await running.value }
    }
  }
#endif
