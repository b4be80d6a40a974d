import Testing

@testable import TypedEventsHTTPClient

/// The delays between attempts that `EventsClient.Configuration` documents.
@Suite("HTTP client: the delays between attempts")
struct BackoffTests {
  @Test func delaysDoubleUpToTheMaximumEachDrawnBetweenHalfAndAllOfItsStep() {
    let steps: [Duration] =
      [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800)]
      + Array(repeating: .seconds(1), count: 4)
    var drawn = Array(repeating: Set<Duration>(), count: steps.count)
    for _ in 0..<200 {
      var backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(1))
      for (index, step) in steps.enumerated() {
        let delay = backoff.failed()
        #expect(delay >= step / 2 && delay <= step, "attempt \(index + 1): \(delay)")
        drawn[index].insert(delay)
      }
    }
    // Drawn, not fixed: clients cut off together do not come back together.
    #expect(drawn.allSatisfy { $0.count > 100 })
  }

  @Test func aSuccessStartsAgainFromTheFirstDelay() {
    var backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(1))
    for _ in 0..<5 { _ = backoff.failed() }
    backoff.succeeded()
    let delay = backoff.failed()
    #expect(delay >= .milliseconds(50) && delay <= .milliseconds(100))
  }

  @Test func aMaximumBelowTheFirstDelayIsTheFirstDelay() {
    var backoff = Backoff(initial: .milliseconds(100), maximum: .milliseconds(10))
    for _ in 0..<3 {
      let delay = backoff.failed()
      #expect(delay >= .milliseconds(50) && delay <= .milliseconds(100))
    }
  }
}
