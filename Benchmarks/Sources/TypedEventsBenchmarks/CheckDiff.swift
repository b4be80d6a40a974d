import Foundation

/// One row of the `eventgen check` benchmark: one file size, one kind of staleness.
struct CheckRow {
  /// How many events the schema has, and how many lines its generated file.
  var events: Int
  var lines: Int
  /// `current` (the baseline: the same run with nothing to diff), `every line changed` or
  /// `reindented`.
  var staleness: String
  /// Peak resident memory of each run, in MiB, sorted.
  var peakMiB: [Double]
  /// Wall seconds of each run, sorted.
  var seconds: [Double]
}

/// Peak memory and wall time of `eventgen check` on one generated file of about `lines` lines,
/// stale in two ways, against the same check of a current file: each under `/usr/bin/time -v`,
/// the three kinds taking turns within each repetition.
///
/// "every line changed" appends a space to every line but the first (which marks the file as
/// eventgen's), so no line of the file on disk is in the new one; "reindented" doubles every
/// line's indentation, as a change of the generator's format does, so blank lines and
/// top-level lines stay and the diff must align them.
func checkBenchmarks(lineCounts: [Int], repetitions: Int, eventgen: String, benchmarksFolder: String) -> [CheckRow] {
  guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
    print("check: /usr/bin/time not found (apt-get install -y time); not measured")
    return []
  }
  let work = FileManager.default.temporaryDirectory.appendingPathComponent("check-bench-\(UUID().uuidString)").path
  defer { try? FileManager.default.removeItem(atPath: work) }
  var rows: [CheckRow] = []
  for target in lineCounts {
    // About 91 lines an event and 60 more, in make-schemas.py's shape: at least `target` lines.
    let events = max(1, (target + 90) / 91)
    let schemas = "\(work)/schemas-\(events)"
    let output = "\(work)/out-\(events)"
    guard
      runCapturing("/usr/bin/env", ["python3", "\(benchmarksFolder)/make-schemas.py", "\(events)", schemas]) != nil,
      runCapturing(eventgen, ["generate", schemas, "--output", output]) != nil,
      let name = try? FileManager.default.contentsOfDirectory(atPath: output).first(where: { $0.hasSuffix(".swift") }),
      let current = try? String(contentsOfFile: "\(output)/\(name)", encoding: .utf8)
    else { return rows }
    let lines = current.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    let variants: [(String, String)] = [
      ("current", current),
      ("every line changed", ([lines[0]] + lines.dropFirst().map { $0 + " " }).joined(separator: "\n") + "\n"),
      (
        "reindented",
        lines.map { line in String(repeating: " ", count: line.prefix { $0 == " " }.count) + line }
          .joined(separator: "\n") + "\n"
      ),
    ]
    var samples: [String: (peak: [Double], seconds: [Double])] = [:]
    for _ in 0..<repetitions {
      for (staleness, text) in variants {
        guard (try? text.write(toFile: "\(output)/\(name)", atomically: true, encoding: .utf8)) != nil,
          let run = timed(
            eventgen, ["check", schemas, "--output", output], expectedStatus: staleness == "current" ? 0 : 1)
        else { return rows }
        samples[staleness, default: ([], [])].peak.append(run.peakMiB)
        samples[staleness, default: ([], [])].seconds.append(run.seconds)
      }
    }
    for (staleness, _) in variants {
      guard let sample = samples[staleness] else { continue }
      rows.append(
        CheckRow(
          events: events, lines: lines.count, staleness: staleness, peakMiB: sample.peak.sorted(),
          seconds: sample.seconds.sorted()))
    }
  }
  return rows
}

/// Runs a command under `/usr/bin/time -v`, its output discarded; its peak resident memory and
/// wall time, or nil when it exits with another status than `expectedStatus`.
private func timed(
  _ executable: String, _ arguments: [String], expectedStatus: Int32
) -> (
  peakMiB: Double, seconds: Double
)? {
  let report = FileManager.default.temporaryDirectory.appendingPathComponent("time-\(UUID().uuidString)").path
  defer { try? FileManager.default.removeItem(atPath: report) }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
  process.arguments = ["-v", "-o", report, executable] + arguments
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  let start = DispatchTime.now().uptimeNanoseconds
  do {
    try process.run()
  } catch {
    return nil
  }
  process.waitUntilExit()
  let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  guard process.terminationStatus == expectedStatus,
    let text = try? String(contentsOfFile: report, encoding: .utf8),
    let line = text.split(separator: "\n").first(where: { $0.contains("Maximum resident set size (kbytes)") }),
    let kilobytes = line.split(separator: ":").last.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) })
  else {
    print("check: \(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
    return nil
  }
  return (kilobytes / 1024, seconds)
}
