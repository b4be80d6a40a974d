import Foundation
import Testing

/// The event log's promises that only another process can observe: how often it calls `fsync`
/// (counted by `strace`), and the heap while a large log replays.
@Suite("Event log in a child process", .serialized)
struct EventLogScenarioTests {
  static let strace = "/usr/bin/strace"
  static let straceAvailable = FileManager.default.isExecutableFile(atPath: strace)

  func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
  }

  /// The `fsync` calls of one run of `log-appends`, from strace's record.
  func fsyncCount(_ durability: String) async throws -> Int {
    let trace = temporaryPath("strace")
    let log = temporaryPath("log") + ".jsonl"
    defer {
      try? FileManager.default.removeItem(atPath: trace)
      try? FileManager.default.removeItem(atPath: log)
    }
    let run = try await runScenario(
      "log-appends", arguments: [durability, log],
      wrapper: [Self.strace, "-f", "-qq", "-e", "trace=fsync", "-o", trace],
      timeLimit: 60)
    try #require(!run.timedOut && run.status == 0, "\(run.errors)")
    #expect(run.lines == ["appended: 110"])
    let record = try String(contentsOfFile: trace, encoding: .utf8)
    return record.split(separator: "\n").filter { $0.contains("fsync(") }.count
  }

  @Test(.enabled(if: straceAvailable, "strace counts the fsync calls (apt-get install strace)"))
  func everyAppendSyncsOnceABatchIsOneAppendAndANewFileSyncsItsDirectory() async throws {
    // 10 single appends + 1 batch of 100 + the directory of the new file.
    #expect(try await fsyncCount("fsyncEachAppend") == 12)
  }

  @Test(.enabled(if: straceAvailable, "strace counts the fsync calls (apt-get install strace)"))
  func theOperatingSystemPolicyNeverSyncs() async throws {
    #expect(try await fsyncCount("operatingSystem") == 0)
  }

  func memoryRun(megabytes: Int, mode: String) async throws -> (events: Int, bytes: Int, peak: Int) {
    let run = try await runScenario(
      "log-replay-memory", arguments: ["\(megabytes)", temporaryPath("big") + ".jsonl", mode], timeLimit: 600)
    try #require(!run.timedOut && run.status == 0, "\(run.lines) \(run.errors)")
    let values = Dictionary(
      run.lines.compactMap { line -> (String, Int)? in
        guard let colon = line.firstIndex(of: ":"),
          let value = Int(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        else { return nil }
        return (String(line[..<colon]), value)
      }, uniquingKeysWith: { first, _ in first })
    if mode == "replay" { #expect(values["problems"] == 0) }
    return (
      try #require(values["events"]), try #require(values["log bytes"]), try #require(values["peak heap above start"])
    )
  }

  @Test(.enabled(if: heapIsMeasurable, "the heap is read through glibc"))
  func aGigabyteLogReplaysInBoundedMemory() async throws {
    let run = try await memoryRun(megabytes: 512, mode: "replay")
    #expect(run.bytes > 1_000_000_000)
    #expect(run.events > 120_000)
    // A 64 KiB block, a line and the decoded event: a few MiB whatever the log's size.
    #expect(run.peak < 16 << 20, "the heap grew by \(run.peak) bytes replaying \(run.bytes) bytes")
  }

  /// The control: reading the whole log at once, the same measurement sees the log in memory.
  @Test(.enabled(if: heapIsMeasurable, "the heap is read through glibc"))
  func theMeasurementSeesTheLogWhenItIsReadWhole() async throws {
    let run = try await memoryRun(megabytes: 64, mode: "read")
    #expect(run.peak > run.bytes / 2, "reading \(run.bytes) bytes whole raised the heap by only \(run.peak)")
  }
}
