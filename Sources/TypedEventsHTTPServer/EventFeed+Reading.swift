#if HTTPServer
  import Logging
  import NIOCore
  import TypedEvents

  // The feed's reading side: it reads the store while streams are open, and rests when none is.
  extension EventFeed {
    /// Reads the store from its end while streams are open, until cancelled: new events go into
    /// the feed and wake the streams waiting for them. After `idleTimeout` without a stream it
    /// waits for one. Read errors are logged and retried after `pollInterval`.
    func run(
      store: Store, batchSize: Int, byteBudget: Int = .max, pollInterval: Duration, idleTimeout: Duration,
      defaultSource: String,
      identity: @Sendable () async -> String?, logger: Logger
    ) async {
      var batches = 0
      while !Task.isCancelled {
        await park(in: \.idle) { $0.streams > 0 }
        guard await begin(store: store, pollInterval: pollInterval, logger: logger) else { break }
        while !Task.isCancelled {
          if rest(after: idleTimeout) { break }
          let after = state.withLock { $0.after }
          do {
            let batch = try await store.read(after: after, limit: batchSize, maximumBytes: byteBudget)
            if !batch.envelopes.isEmpty || batch.next != after {
              let identity = await identity()
              var frames = ByteBuffer()
              let ranges = batch.envelopes.map { stored in
                let start = frames.readableBytes
                ServerSentEvents.writeFrame(stored, defaultSource: defaultSource, store: identity, to: &frames)
                return start..<frames.readableBytes
              }
              batches += 1
              let items = zip(batch.envelopes, ranges).map {
                Item(stored: $0, frames: frames, range: $1, batch: batches)
              }
              publish(items, next: batch.next)
              continue
            }
            try await store.waitForEnvelopes(after: after, timeout: wait(pollInterval, idleTimeout: idleTimeout))
          } catch is CancellationError {
            break
          } catch {
            logger.warning("reading the event store failed; retrying", metadata: ["error": "\(error)"])
            try? await Task.sleep(for: pollInterval)
          }
          wakeAll()
        }
      }
      let starting = state.withLock { state in
        state.forget()
        state.stopped = true
        state.reading = false
        return state.take(\.starting)
      }
      for stream in starting { stream.resume() }
      wakeAll()
    }

    /// Starts reading at the store's end: false when cancelled first.
    private func begin(store: Store, pollInterval: Duration, logger: Logger) async -> Bool {
      var end: Store.Position?
      while true {
        if Task.isCancelled { return false }
        do {
          end = try await store.endPosition()
          break
        } catch is CancellationError {
          return false
        } catch {
          logger.warning("finding the event store's end failed; retrying", metadata: ["error": "\(error)"])
          try? await Task.sleep(for: pollInterval)
        }
      }
      let start = end
      // A stream without a position starts at the store's beginning. When a read from there
      // finds nothing and ends at the feed's start, by the store's own word, both are one place,
      // and such a stream joins the feed too (on a store that was empty when the feed started).
      // (A start of nil is the beginning already.)
      var beginningIsStart = false
      if start != nil, let first = try? await store.read(after: nil, limit: 1) {
        beginningIsStart = first.envelopes.isEmpty && first.next == start
      }
      let starting = state.withLock { state in
        // Sequence numbers go on from the last run's, past a gap: a stream that still holds one
        // from before a restart is behind (it reads the store), never given another event's.
        state.forget()
        state.after = start
        state.sequences[start] = state.first
        state.keys.append((state.first, start))
        if beginningIsStart {
          state.sequences[nil] = state.first
          state.keys.append((state.first, nil))
        }
        state.stopped = false
        // Batch numbers are the run's: a feed run again starts them anew.
        state.firstServedBatch = 0
        state.lastClosed = .now
        state.reading = true
        return state.take(\.starting)
      }
      for stream in starting { stream.resume() }
      return true
    }

    /// How long to wait for the store: `pollInterval`, or less when no stream is open, so that
    /// the feed rests once `idleTimeout` is over, not up to a poll interval later.
    private func wait(_ pollInterval: Duration, idleTimeout: Duration) -> Duration {
      let left = state.withLock { $0.timeToRest(idleTimeout) }
      return max(.zero, min(pollInterval, left ?? pollInterval))
    }

    /// Drops what the feed keeps when no stream has been open for `idleTimeout`; whether it did.
    private func rest(after idleTimeout: Duration) -> Bool {
      state.withLock { state in
        guard let left = state.timeToRest(idleTimeout), left <= .zero else { return false }
        state.forget()
        state.reading = false
        return true
      }
    }

    /// Adds `items`, read up to `next`, drops the oldest beyond the capacity, and wakes streams.
    private func publish(_ items: [Item], next: Store.Position?) {
      let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
        for item in items {
          state.items.append(item)
          state.bytes += item.bytes
          state.sequences[item.stored.position] = state.end
          state.keys.append((state.end, item.stored.position))
        }
        state.after = next
        if state.sequences[next] == nil {
          state.sequences[next] = state.end
          state.keys.append((state.end, next))
        }
        // Events dropped and not yet compacted away still hold their memory: they count.
        while state.end - state.first > capacity
          || (state.bytes + state.droppedBytes > byteBudget && state.end > state.first)
        {
          let dropped = state.items[state.head].bytes
          state.bytes -= dropped
          state.droppedBytes += dropped
          state.head += 1
          state.first += 1
        }
        while state.keysHead < state.keys.count, state.keys[state.keysHead].sequence < state.first {
          state.sequences.removeValue(forKey: state.keys[state.keysHead].position)
          state.keysHead += 1
        }
        // Compacted once a quarter of the capacity is dropped: the dropped events (and their
        // batches' buffers) kept meanwhile stay under a quarter of the capacity, and each event
        // is moved about four times.
        if state.head > capacity / 4 || state.droppedBytes > byteBudget / 4 {
          state.items.removeFirst(state.head)
          state.head = 0
          state.droppedBytes = 0
        }
        if state.keysHead > capacity {
          state.keys.removeFirst(state.keysHead)
          state.keysHead = 0
        }
        var woken = state.take(\.waiters)
        let served = state.head < state.items.count ? state.items[state.head].batch : (items.last?.batch ?? 0) + 1
        if served > state.firstServedBatch {
          state.firstServedBatch = served
          woken += state.take(\.dropWatchers)
        }
        return woken
      }
      for waiter in waiters { waiter.resume() }
    }

    private func wakeAll() {
      for waiter in state.withLock({ $0.take(\.waiters) }) { waiter.resume() }
    }
  }
#endif
