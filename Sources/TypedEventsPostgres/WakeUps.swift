#if PostgreSQL
  /// Wakes every waiting reader at once; a reader waits until the next wake-up or a timeout.
  ///
  /// A wake-up is only a hint to read again: one that comes while nobody waits is dropped, which
  /// costs a reader at most its timeout, never an event.
  actor WakeUps {
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter = 0
    /// How many wake-ups there have been: a reader that notes it before reading waits only if
    /// none came since, so a wake-up between its read and its wait is not lost.
    private(set) var generation = 0

    /// Resumes every reader waiting now.
    func wakeAll() {
      generation += 1
      let waiting = waiters
      waiters.removeAll()
      for continuation in waiting.values { continuation.resume() }
    }

    /// Returns at the next wake-up, after `timeout`, or when the task is cancelled, whichever
    /// comes first.
    /// With `generation`, returns at once if a wake-up came after the reader noted it.
    func wait(since generation: Int? = nil, timeout: Duration) async {
      let id = nextWaiter
      nextWaiter += 1
      await withTaskGroup(of: Void.self) { group in
        group.addTask { try? await Task.sleep(for: timeout) }
        group.addTask { await self.waitForWakeUp(id, since: generation) }
        await group.next()
        group.cancelAll()
      }
    }

    private func waitForWakeUp(_ id: Int, since noted: Int?) async {
      await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          // Runs on the actor before any cancellation handler's hop can: a task cancelled
          // already is resumed here, a later cancellation finds the continuation registered.
          if Task.isCancelled || noted.map({ $0 != generation }) ?? false {
            continuation.resume()
          } else {
            waiters[id] = continuation
          }
        }
      } onCancel: {
        Task { await self.resume(id) }
      }
    }

    private func resume(_ id: Int) {
      waiters.removeValue(forKey: id)?.resume()
    }
  }
#endif
