#if HTTPServer
  import TypedEvents

  /// The bytes of event data that the endpoint's reads of its store may hold at once, across
  /// all streams catching up and all pages: a read takes its share first, waiting its turn
  /// (first come, first served) while others hold the budget, and gives it back once its client
  /// has taken what it read. Without it each of 1,000 streams whose clients read nothing held a
  /// read of its own, 8 MiB each.
  ///
  /// A grant whose bytes were written is parked behind the ``FlushMarker`` of their last piece
  /// (``Grant/release(whenFlushed:)``). Its holder gives it back when it next looks at what it
  /// has sent, which a stream waiting for events does only now and then; so while a read waits
  /// for room, the budget itself looks at the parked grants, every millisecond at first and at
  /// most 100 ms apart, and takes back those whose bytes were sent.
  final class ReadBudget: Sendable {
    private struct Waiter {
      var id: UInt64
      var bytes: Int
      var continuation: CheckedContinuation<Void, any Error>
    }

    /// A grant parked behind a marker, not kept alive by the budget.
    private struct Parked: Sendable {
      weak let grant: Grant?
    }

    private struct State {
      var available: Int
      var waiters: [Waiter] = []
      var nextID: UInt64 = 0
      var parked: [Parked] = []
      /// How many parked entries the last compaction left: the list is compacted again when it
      /// has grown past twice as many, so that it stays linear in the grants alive.
      var parkedAfterCompaction = 0
      /// Whether a task looks at the parked grants for the waiters.
      var reclaiming = false
    }

    private let state: Locked<State>
    /// The whole budget.
    let total: Int

    init(bytes: Int) {
      total = max(bytes, 1)
      state = Locked(State(available: total))
    }

    /// Bytes taken from the budget, given back when the grant is released or deallocated:
    /// whichever comes first, once.
    final class Grant: Sendable {
      private let budget: ReadBudget
      private let held: Locked<(bytes: Int, marker: FlushMarker?)>

      fileprivate init(budget: ReadBudget, bytes: Int) {
        self.budget = budget
        self.held = Locked((bytes, nil))
      }

      /// The bytes the grant holds.
      var bytes: Int { held.withLock { $0.bytes } }

      /// Gives back what the grant holds beyond `bytes` (what a read took is less than it
      /// asked for).
      func keep(_ bytes: Int) {
        let returned = held.withLock { held -> Int in
          let extra = max(held.bytes - max(bytes, 0), 0)
          held.bytes -= extra
          return extra
        }
        if returned > 0 { budget.give(returned) }
      }

      /// Lets the budget take the grant back once `marker` says the bytes it counts were sent,
      /// if its holder has not given it back by then.
      func release(whenFlushed marker: FlushMarker) {
        held.withLock { $0.marker = marker }
        budget.park(self)
      }

      /// Gives everything back if the marker it was parked behind says its bytes were sent;
      /// whether it holds nothing now.
      fileprivate func releaseIfFlushed() -> Bool {
        let returned = held.withLock { held -> Int in
          guard let marker = held.marker, marker.isFlushed else { return 0 }
          defer { held.bytes = 0 }
          return held.bytes
        }
        if returned > 0 { budget.give(returned) }
        return bytes == 0
      }

      deinit {
        let bytes = held.withLock { $0.bytes }
        if bytes > 0 { budget.give(bytes) }
      }
    }

    /// Waits until `bytes` (at most the whole budget) are free and takes them. Throws
    /// `CancellationError` when the task is cancelled while it waits (its client went away).
    func take(_ bytes: Int) async throws -> Grant {
      let bytes = min(max(bytes, 1), total)
      let id: UInt64? = state.withLock { state in
        // First come, first served: none goes past a waiter, so a large read is not starved.
        if state.waiters.isEmpty && state.available >= bytes {
          state.available -= bytes
          return nil
        }
        state.nextID += 1
        return state.nextID
      }
      guard let id else { return Grant(budget: self, bytes: bytes) }
      try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
          let resumeNow = state.withLock { state -> Bool in
            if Task.isCancelled { return true }
            state.waiters.append(Waiter(id: id, bytes: bytes, continuation: continuation))
            return false
          }
          if resumeNow {
            continuation.resume(throwing: CancellationError())
          } else {
            resumeWaiters()
            reclaimWhileWaited()
          }
        }
      } onCancel: {
        let waiter = state.withLock { state -> Waiter? in
          guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
          return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: CancellationError())
        // The head may have left: those behind it may fit now.
        resumeWaiters()
      }
      return Grant(budget: self, bytes: bytes)
    }

    private func park(_ grant: Grant) {
      state.withLock { state in
        state.parked.append(Parked(grant: grant))
        if state.parked.count > 2 * state.parkedAfterCompaction + 64 {
          state.parked.removeAll { $0.grant == nil }
          state.parkedAfterCompaction = state.parked.count
        }
      }
      reclaimWhileWaited()
    }

    /// Starts a task, unless one runs, that takes back the parked grants whose bytes were sent
    /// for as long as reads wait and grants are parked. It holds the budget only while it runs.
    private func reclaimWhileWaited() {
      let start = state.withLock { state -> Bool in
        guard !state.reclaiming, !state.waiters.isEmpty, !state.parked.isEmpty else { return false }
        state.reclaiming = true
        return true
      }
      guard start else { return }
      Task {
        var delay = Duration.milliseconds(1)
        while reclaimFlushed() {
          try? await Task.sleep(for: delay)
          delay = min(delay * 2, .milliseconds(100))
        }
      }
    }

    /// Takes back the parked grants whose bytes were sent, and drops those gone or empty;
    /// whether to look again (reads still wait, grants are still parked).
    private func reclaimFlushed() -> Bool {
      let parked = state.withLock { $0.parked.compactMap(\.grant) }
      // Outside the budget's lock: giving back takes it.
      let done = Set(parked.filter { $0.releaseIfFlushed() }.map(ObjectIdentifier.init))
      // Alive until their entries are gone, so that no new grant takes an identifier of theirs.
      return withExtendedLifetime(parked) { removeParked(done) }
    }

    /// Drops the parked entries of `done` and of grants gone; whether reads still wait for
    /// grants still parked.
    private func removeParked(_ done: Set<ObjectIdentifier>) -> Bool {
      state.withLock { state in
        // Grants parked meanwhile stay.
        state.parked.removeAll { parked in parked.grant.map { done.contains(ObjectIdentifier($0)) } ?? true }
        state.parkedAfterCompaction = state.parked.count
        state.reclaiming = !state.waiters.isEmpty && !state.parked.isEmpty
        return state.reclaiming
      }
    }

    private func give(_ bytes: Int) {
      state.withLock { $0.available += bytes }
      resumeWaiters()
    }

    /// Resumes the waiters at the head that fit, in order.
    private func resumeWaiters() {
      let ready = state.withLock { state -> [Waiter] in
        var ready: [Waiter] = []
        while let first = state.waiters.first, first.bytes <= state.available {
          state.available -= first.bytes
          ready.append(state.waiters.removeFirst())
        }
        return ready
      }
      for waiter in ready { waiter.continuation.resume() }
    }
  }
#endif
