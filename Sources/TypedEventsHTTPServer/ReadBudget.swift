#if HTTPServer
  import TypedEvents

  /// The bytes of event data that the endpoint's reads of its store may hold at once, across
  /// all streams catching up and all pages: a read takes its share first, waiting its turn
  /// (first come, first served) while others hold the budget, and gives it back once its client
  /// has taken what it read. Without it each of 1,000 streams whose clients read nothing held a
  /// read of its own, 8 MiB each.
  final class ReadBudget: Sendable {
    private struct Waiter {
      var id: UInt64
      var bytes: Int
      var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
      var available: Int
      var waiters: [Waiter] = []
      var nextID: UInt64 = 0
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
      private let held: Locked<Int>

      fileprivate init(budget: ReadBudget, bytes: Int) {
        self.budget = budget
        self.held = Locked(bytes)
      }

      /// The bytes the grant holds.
      var bytes: Int { held.withLock { $0 } }

      /// Gives back what the grant holds beyond `bytes` (what a read took is less than it
      /// asked for).
      func keep(_ bytes: Int) {
        let returned = held.withLock { held -> Int in
          let extra = max(held - max(bytes, 0), 0)
          held -= extra
          return extra
        }
        if returned > 0 { budget.give(returned) }
      }

      deinit {
        let bytes = held.withLock { $0 }
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
