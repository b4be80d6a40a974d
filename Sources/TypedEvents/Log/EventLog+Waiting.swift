import Foundation

/// The readers of an ``EventLog`` waiting for its next append, and how many appends it made.
struct AppendWaiters: Sendable {
  var appends = 0
  var nextID = 0
  var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
}

extension EventLog {
  /// Wakes the readers waiting for an append; called after each write.
  func wakeReaders() {
    let waiting = appendWaiters.withLock { waiters in
      waiters.appends += 1
      defer { waiters.waiting = [:] }
      return Array(waiters.waiting.values)
    }
    for waiter in waiting { waiter.resume() }
  }

  /// Returns when this instance has made more than `appends` appends, after `duration`, or when
  /// the task is cancelled, whichever comes first. Appends by other instances or processes are
  /// not seen here: the caller looks at the file again after `duration`.
  func waitForAppend(after appends: Int, atMost duration: Duration) async throws {
    let id = appendWaiters.withLock { waiters in
      defer { waiters.nextID += 1 }
      return waiters.nextID
    }
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        await withTaskCancellationHandler {
          await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = self.appendWaiters.withLock { waiters -> Bool in
              if Task.isCancelled || waiters.appends != appends { return true }
              waiters.waiting[id] = continuation
              return false
            }
            if now { continuation.resume() }
          }
        } onCancel: {
          self.appendWaiters.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
        }
      }
      group.addTask { try? await Task.sleep(for: duration) }
      await group.next()
      group.cancelAll()
    }
    try Task.checkCancellation()
  }
}
