import BenchmarkCases
import Foundation

/// One row: timed samples in nanoseconds per operation, and what the separate counting runs found.
struct Measurement {
  var benchmark: BenchmarkCase
  /// Nanoseconds per operation of each repetition, sorted.
  var samples: [Double]
  /// Allocations per operation, from the run with the malloc interposer preloaded.
  var allocations: Double?
  /// Instructions per operation, from callgrind.
  var instructions: Double?

  var name: String { benchmark.name }
  var min: Double { samples.first ?? .nan }
  var median: Double { samples.isEmpty ? .nan : samples[samples.count / 2] }
  var max: Double { samples.last ?? .nan }
}

enum Harness {
  /// Times the cases of one table together: every body is set up and warmed up, then each
  /// repetition times every row once, in turn, so that a slow spell of the machine (they last
  /// minutes on shared hosts) falls on all rows alike instead of on whichever ran then. This
  /// process does not load the malloc interposer: allocations are counted in another process.
  @MainActor
  static func measure(
    _ cases: [BenchmarkCase], iterations: (BenchmarkCase) -> Int, repetitions: Int
  ) async -> [Measurement] {
    let bodies = cases.map { $0.make(iterations($0)) }
    for body in bodies { await run(body) }
    var samples = [[Double]](repeating: [], count: cases.count)
    for _ in 0..<repetitions {
      for (index, body) in bodies.enumerated() {
        let start = DispatchTime.now().uptimeNanoseconds
        await run(body)
        let operations = Double(iterations(cases[index]) * cases[index].operationsPerIteration)
        samples[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / operations)
      }
    }
    return zip(cases, samples).map { Measurement(benchmark: $0, samples: $1.sorted()) }
  }

  @MainActor
  private static func run(_ body: BenchmarkCase.Body) async {
    switch body {
    case .sync(let run): run()
    case .async(let run): await run()
    }
  }

  /// Runs one case's body `times` times after one warm-up call: what callgrind counts.
  @MainActor
  static func runForCounting(_ benchmark: BenchmarkCase, iterations: Int, times: Int) {
    guard case .sync(let body) = benchmark.make(iterations) else { return }
    body()
    for _ in 0..<times { body() }
  }
}

/// Instructions per operation from callgrind: the case runs once with its body called once, and
/// once with it called twice; the difference is one body of `iterations` iterations, with the
/// process's start, the setup and the warm-up subtracted away. Repeatable for single-threaded
/// cases with `SWIFT_DETERMINISTIC_HASHING=1`, whatever else the machine does.
enum Instructions {
  static var valgrind: String? {
    ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Counts for `cases`, two callgrind processes at a time (counts do not depend on load).
  static func count(
    _ cases: [BenchmarkCase], iterations: (BenchmarkCase) -> Int, executable original: String
  ) async -> [String: Double] {
    guard let valgrind else { return [:] }
    // Valgrind 3.19 cannot read the DWARF this toolchain writes ("possibly corrupted debuginfo")
    // and gives up; totals need no debug information, so it counts a stripped copy.
    let executable = FileManager.default.temporaryDirectory.appendingPathComponent(
      "typed-events-benchmarks-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: executable) }
    guard runCapturing("/usr/bin/env", ["objcopy", "--strip-debug", original, executable]) != nil else { return [:] }
    return await withTaskGroup(of: (String, Double?).self) { group in
      var results: [String: Double] = [:]
      var pending = cases[...]
      func start(_ group: inout TaskGroup<(String, Double?)>) {
        guard let benchmark = pending.popFirst() else { return }
        let (id, n, operations) = (
          benchmark.id, iterations(benchmark), iterations(benchmark) * benchmark.operationsPerIteration
        )
        group.addTask {
          let once = collected(valgrind, executable, id, n, times: 1)
          let twice = collected(valgrind, executable, id, n, times: 2)
          guard let once, let twice else { return (id, nil) }
          return (id, Double(twice - once) / Double(operations))
        }
      }
      start(&group)
      start(&group)
      for await (id, value) in group {
        results[id] = value
        start(&group)
      }
      return results
    }
  }

  /// The "Collected" total that callgrind prints for one run of the case.
  private static func collected(
    _ valgrind: String, _ executable: String, _ id: String, _ iterations: Int, times: Int
  ) -> Int? {
    let result = runCapturing(
      valgrind,
      [
        "--tool=callgrind", "--callgrind-out-file=/dev/null", executable, "--run-case", id, "--iterations",
        "\(iterations)", "--times", "\(times)",
      ],
      environment: ["SWIFT_DETERMINISTIC_HASHING": "1"])
    guard let line = result?.error.split(separator: "\n").first(where: { $0.contains("Collected :") }) else {
      return nil
    }
    return line.split(separator: " ").last.flatMap { Int($0) }
  }
}

/// Allocations per operation, counted by `typed-events-allocations` in its own process with the
/// malloc interposer preloaded, so that the timed runs pay nothing for it.
enum Allocations {
  static func count(ids: [String], quick: Bool, binaries: String) -> [String: Double] {
    let library = "\(binaries)/libMallocInterposerSwift.so"
    guard FileManager.default.fileExists(atPath: library) else { return [:] }
    var arguments = quick ? ["--quick"] : []
    arguments += ["--ids", ids.joined(separator: ",")]
    guard
      let output = runCapturing(
        "\(binaries)/typed-events-allocations", arguments, environment: ["LD_PRELOAD": library])?.output
    else {
      return [:]
    }
    var counts: [String: Double] = [:]
    for line in output.split(separator: "\n") {
      let cells = line.split(separator: "\t")
      if cells.count == 2, let value = Double(cells[1]) { counts[String(cells[0])] = value }
    }
    return counts
  }
}
