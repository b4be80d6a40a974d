import Foundation
import TestSupport
import Testing

/// Runs `runtime-scenarios` (Tests/RuntimeScenarios) in child processes: a regression of the
/// main-thread deadlock then fails after a time limit instead of hanging the test run, and the
/// heap is measured in a process where no other test allocates.
@Suite("Runtime scenarios in a child process", .serialized)
struct RuntimeScenarioTests {
  @Test func releasingATokenOnTheMainThreadNeverWaitsForAHandlerThatWaitsForTheMainThread() async throws {
    let run = try await runScenario("release-on-main-while-handler-waits-for-main", timeLimit: 30)
    #expect(!run.timedOut, "the process hung: cancel() waited for a handler that waited for the main thread")
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.lines == ["released: true", "handler reached the main thread", "handler finished"])
  }

  @Test(.enabled(if: heapIsMeasurable, "the heap is read through glibc"))
  func replayPerSubjectKeepsMemoryFlatOverAMillionSubjects() async throws {
    let run = try await memoryRun(limit: 10_000)
    #expect(run.values["kept subjects"] == "10000")
    #expect(run.values["newest replayable"] == "true")
    #expect(run.values["oldest evicted"] == "true")
    // 900,000 more subjects after the first 100,000: flat means within 1 MiB, whatever the
    // allocator keeps for itself.
    #expect(run.late - run.early < 1 << 20, "retained heap grew from \(run.early) to \(run.late) bytes")
  }

  /// The same with the limit the schema declares (`replay: { per-subject: 10000 }` on the
  /// samples' `ListingEvent` group) and no call: flat too.
  @Test(.enabled(if: heapIsMeasurable, "the heap is read through glibc"))
  func aDeclaredReplayKeepsMemoryFlatOverAMillionSubjects() async throws {
    let run = try await memoryRun(argument: "declared")
    #expect(run.values["kept subjects"] == "10000")
    #expect(run.values["newest replayable"] == "true")
    #expect(run.values["oldest evicted"] == "true")
    #expect(run.late - run.early < 1 << 20, "retained heap grew from \(run.early) to \(run.late) bytes")
  }

  /// The control: with a limit above the subjects published, the same measurement sees the heap
  /// grow by every subject kept, so the flat result above is the limit's doing.
  @Test(.enabled(if: heapIsMeasurable, "the heap is read through glibc"))
  func theMeasurementSeesGrowthWhenEverySubjectIsKept() async throws {
    let run = try await memoryRun(limit: 2_000_000)
    #expect(run.values["kept subjects"] == "1000000")
    #expect(run.late - run.early > 50 << 20, "heap grew only from \(run.early) to \(run.late) bytes")
  }

  func memoryRun(limit: Int) async throws -> (values: [String: String], early: Int, late: Int) {
    try await memoryRun(argument: "\(limit)")
  }

  func memoryRun(argument: String) async throws -> (values: [String: String], early: Int, late: Int) {
    let run = try await runScenario("replay-memory-per-subject", arguments: [argument], timeLimit: 300)
    try #require(!run.timedOut && run.status == 0, "\(run.errors)")
    let values = Dictionary(
      run.lines.compactMap { line -> (String, String)? in
        guard let colon = line.firstIndex(of: ":") else { return nil }
        return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
      }, uniquingKeysWith: { first, _ in first })
    let early = try #require(values["heap after 100000"].flatMap { Int($0) })
    let late = try #require(values["heap after 1000000"].flatMap { Int($0) })
    try #require(early > 0, "the allocator reported no heap in use: the measurement would prove nothing")
    return (values, early, late)
  }
}

#if os(Linux)
  let heapIsMeasurable = true
#else
  let heapIsMeasurable = false
#endif

struct ScenarioRun {
  var status: Int32
  var timedOut: Bool
  var lines: [String]
  /// What it wrote to standard error: a crash's backtrace, for the failure's message.
  var errors: String
}

/// Runs one scenario of the `runtime-scenarios` executable built beside this test bundle, and
/// kills it after `timeLimit` seconds.
/// With `wrapper`, such as `["/usr/bin/strace", "-o", path]`, the wrapper runs the scenario.
func runScenario(
  _ name: String, arguments: [String] = [], wrapper: [String] = [], timeLimit: TimeInterval
) async throws -> ScenarioRun {
  let command = wrapper + [scenariosExecutable().path, name] + arguments
  let result = try await runChildProcess(
    URL(fileURLWithPath: command[0]), Array(command.dropFirst()), timeLimit: timeLimit)
  return ScenarioRun(
    status: result.status, timedOut: result.timedOut,
    lines: result.output.split(separator: "\n").map(String.init), errors: result.errors)
}

/// SwiftPM puts executables and the test bundle in one directory.
func scenariosExecutable() -> URL {
  var directory = Bundle.main.bundleURL
  if directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
  let candidates = [
    directory.appendingPathComponent("runtime-scenarios"),
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
      "runtime-scenarios"),
  ]
  return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
}
