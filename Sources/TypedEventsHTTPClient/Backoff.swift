#if HTTPClient
  /// Delays between attempts that double from `initial` up to `maximum`, each drawn between half
  /// and all of its step so that clients cut off together do not come back together.
  struct Backoff: Sendable {
    var initial: Duration
    var maximum: Duration
    /// Failed attempts since the last success.
    private(set) var failures = 0

    init(initial: Duration, maximum: Duration) {
      self.initial = initial
      self.maximum = max(initial, maximum)
    }

    mutating func succeeded() { failures = 0 }

    /// Counts a failure and returns how long to wait before the next attempt.
    mutating func failed() -> Duration {
      failures += 1
      var step = initial
      for _ in 1..<min(failures, 32) where step < maximum { step *= 2 }
      step = min(step, maximum)
      return step * Double.random(in: 0.5...1)
    }
  }
#endif
