#if PostgreSQL
  /// Wakes every waiting reader at once; a reader waits until the next wake-up or a timeout.
  ///
  /// A wake-up is only a hint to read again: one that comes while nobody waits is dropped, which
  /// costs a reader at most its timeout, never an event.
  actor WakeUps {
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter = 0

    /// Resumes every reader waiting now.
    func wakeAll() {
      let waiting = waiters
      waiters.removeAll()
      for continuation in waiting.values { continuation.resume() }
    }

    /// Returns at the next wake-up, after `timeout`, or when the task is cancelled, whichever
    /// comes first.
    func wait(timeout: Duration) async {
      let id = nextWaiter
      nextWaiter += 1
      await withTaskGroup(of: Void.self) { group in
        group.addTask { try? await Task.sleep(for: timeout) }
        group.addTask { await self.waitForWakeUp(id) }
        await group.next()
        group.cancelAll()
      }
    }

    private func waitForWakeUp(_ id: Int) async {
      await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          // Runs on the actor before any cancellation handler's hop can: a task cancelled
          // already is resumed here, a later cancellation finds the continuation registered.
          if Task.isCancelled {
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
