/// One thing the benchmarks measure: a named setup that returns the code to time.
///
/// The timed driver, the instruction counter (callgrind) and the allocation counter all run the
/// same cases, so a row's time, instructions and allocations describe the same work.
public struct BenchmarkCase {
  /// What the code under test runs.
  public enum Body {
    case sync(() -> Void)
    case async(() async -> Void)
  }

  /// A short stable identifier, used on the command line of the instruction counter.
  public let id: String
  /// The table the row belongs to.
  public let section: String
  /// The row's name in that table.
  public let name: String
  /// Iterations per body call in a full run (the body loops this many times).
  public let iterations: Int
  /// Operations per iteration (deliveries per publish for a bus with several subscribers).
  public let operationsPerIteration: Int
  /// Whether the body runs on one thread: only then are instruction counts repeatable.
  public let isSingleThreaded: Bool
  /// Sets the case up for `iterations` iterations and returns the body to run.
  public let make: @MainActor (_ iterations: Int) -> Body

  public init(
    id: String, section: String, name: String, iterations: Int, operationsPerIteration: Int = 1,
    isSingleThreaded: Bool = true, make: @escaping @MainActor (_ iterations: Int) -> Body
  ) {
    self.id = id
    self.section = section
    self.name = name
    self.iterations = iterations
    self.operationsPerIteration = operationsPerIteration
    self.isSingleThreaded = isSingleThreaded
    self.make = make
  }
}

/// Keeps a value alive and opaque to the optimiser.
@inline(never)
public func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// A counter handlers bump; not thread-safe, used from one thread.
final class Counter: @unchecked Sendable {
  var value = 0
}

/// Every case, in report order. `quick` shrinks the iteration counts (CI's smoke run).
@MainActor
public func allBenchmarkCases() -> [BenchmarkCase] {
  deliveryCases(subscribers: 1) + deliveryCases(subscribers: 10) + asyncCases() + codecCases() + fieldCodecCases()
}
