#if PostgreSQL
  import Testing
  @testable import TypedEvents
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

    /// The watch's clock: each tick waits until the test advances it, or the watch is stopped.
    final class ManualTicks: Sendable {
      private struct State {
        var ticks = 0
        var stopped = 0
        var waiting: CheckedContinuation<Void, Never>?
      }
      private let state = Locked(State())

      /// The watch's side: one more tick asked for, and the wait.
      func tick() async {
        await withTaskCancellationHandler {
          await withCheckedContinuation { continuation in
            let cancelled = state.withLock { state in
              state.ticks += 1
              if Task.isCancelled { state.stopped += 1 } else { state.waiting = continuation }
              return Task.isCancelled
            }
            if cancelled { continuation.resume() }
          }
        } onCancel: {
          let waiting = state.withLock { state in
            if state.waiting != nil { state.stopped += 1 }
            return state.waiting.take()
          }
          waiting?.resume()
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

      /// Returns once the watch has been stopped while it waited for a tick.
      func waitUntilStopped() async {
        while state.withLock({ $0.stopped == 0 }) { await Task.yield() }
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

    @Test func theWatchStopsWhenTheOperationEnds() async throws {
      let ticks = ManualTicks()
      let value = try await abandonedWhenClosed(tick: ticks.tick) { watch in
        watch.start { false }
        await ticks.waitUntilAsked(times: 1)
        return 4
      }
      #expect(value == 4)
      await ticks.waitUntilStopped()  // a watch left running would wait for its tick forever
    }

    @Test func aCallerCancelledBeforeItStartsCancelsTheOperation() async throws {
      let running = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await abandonedWhenClosed { watch in
          watch.start { false }
          try await Task.sleep(for: .seconds(600))
          return 0
        }
      }
      await #expect(throws: CancellationError.self) { try await running.value }
    }

    @Test func aCancelledCallerOfAnOperationStuckOnAnOpenConnectionStopsWaitingAfterTheGrace() async throws {
      let (started, stuck) = (Gate(), Gate())
      defer { stuck.open() }
      let running = Task {
        try await abandonedWhenClosed(grace: .milliseconds(20)) { watch in
          watch.start { false }
          started.open()
          await stuck.wait()  // ignores cancellation, as a query on a silent connection does
          return 0
        }
      }
      await started.wait()
      running.cancel()
      await #expect(throws: CancellationError.self) { try await running.value }
    }

    @Test func finishingRunsTheBodyToItsEndWhenTheCallerIsCancelled() async throws {
      let (started, answer) = (Gate(), Gate())
      let ran = Locked(false)
      let running = Task {
        try await finishing(grace: .seconds(60)) {
          started.open()
          await answer.wait()
          try Task.checkCancellation()
          ran.withLock { $0 = true }
          return 5
        }
      }
      await started.wait()
      running.cancel()
      answer.open()
      #expect(try await running.value == 5)
      #expect(ran.withLock { $0 })
    }

    @Test func finishingGivesUpAfterTheGrace() async throws {
      let (started, stuck) = (Gate(), Gate())
      defer { stuck.open() }
      let running = Task {
        try await finishing(grace: .milliseconds(20)) {
          started.open()
          await stuck.wait()
          return 6
        }
      }
      await started.wait()
      running.cancel()
      await #expect(throws: CancellationError.self) { try await running.value }
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
