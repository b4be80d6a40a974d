#if HTTPServer
  import TypedEvents

  /// One open stream of an owner, counted in the endpoint's `openStreams` from when it is made
  /// to when it is released: when the stream's body has ended, or was dropped without being
  /// written (a connection closed before the answer went out).
  final class StreamSlot: Sendable {
    let owner: String
    let streams: Locked<[String: Int]>

    /// A slot for `owner`, or nil when it holds `maximum` already.
    init?(owner: String, in streams: Locked<[String: Int]>, maximum: Int) {
      let taken = streams.withLock { counts in
        guard counts[owner, default: 0] < maximum else { return false }
        counts[owner, default: 0] += 1
        return true
      }
      guard taken else { return nil }
      self.owner = owner
      self.streams = streams
    }

    deinit {
      streams.withLock { counts in
        let left = counts[owner, default: 1] - 1
        counts[owner] = left > 0 ? left : nil
      }
    }
  }
#endif
