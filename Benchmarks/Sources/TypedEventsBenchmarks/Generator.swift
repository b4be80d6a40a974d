import Foundation

/// Runs a command; its standard output and error, or nil when it could not start or failed.
func runCapturing(
  _ executable: String, _ arguments: [String], environment: [String: String]? = nil
) -> (output: String, error: String)? {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
  let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
  guard FileManager.default.createFile(atPath: output.path + ".out", contents: nil),
    FileManager.default.createFile(atPath: output.path + ".err", contents: nil)
  else { return nil }
  defer {
    try? FileManager.default.removeItem(atPath: output.path + ".out")
    try? FileManager.default.removeItem(atPath: output.path + ".err")
  }
  // Files, not pipes: a long run fills a pipe's buffer and would block.
  guard let out = FileHandle(forWritingAtPath: output.path + ".out"),
    let err = FileHandle(forWritingAtPath: output.path + ".err")
  else {
    return nil
  }
  process.standardOutput = out
  process.standardError = err
  do {
    try process.run()
  } catch {
    return nil
  }
  process.waitUntilExit()
  try? out.close()
  try? err.close()
  let stdout = (try? String(contentsOfFile: output.path + ".out", encoding: .utf8)) ?? ""
  let stderr = (try? String(contentsOfFile: output.path + ".err", encoding: .utf8)) ?? ""
  guard process.terminationStatus == 0 else {
    print(
      "failed (\(process.terminationStatus)): \(executable) \(arguments.joined(separator: " "))\n\(stderr.suffix(2_000))"
    )
    return nil
  }
  return (stdout, stderr)
}

/// One row of the generator benchmark.
struct GeneratorRow {
  var events: Int
  /// Wall seconds of each run, sorted.
  var samples: [Double]
  var lines: Int
  var median: Double { samples[samples.count / 2] }
  var linesPerSecond: Double { Double(lines) / median }
}

/// Wall time of `eventgen generate` into a fresh folder for schemas of each size, `repetitions`
/// runs each, and the lines it writes.
func generatorBenchmarks(sizes: [Int], repetitions: Int, eventgen: String, benchmarksFolder: String) -> [GeneratorRow] {
  let work = FileManager.default.temporaryDirectory.appendingPathComponent("eventgen-bench-\(UUID().uuidString)").path
  defer { try? FileManager.default.removeItem(atPath: work) }
  var rows: [GeneratorRow] = []
  for size in sizes {
    let schemas = "\(work)/schemas-\(size)"
    guard runCapturing("/usr/bin/env", ["python3", "\(benchmarksFolder)/make-schemas.py", "\(size)", schemas]) != nil
    else { return rows }
    var samples: [Double] = []
    for repetition in 0..<repetitions {
      let output = "\(work)/out-\(size)-\(repetition)"
      let start = DispatchTime.now().uptimeNanoseconds
      guard runCapturing(eventgen, ["generate", schemas, "--output", output]) != nil else { return rows }
      samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    let output = "\(work)/out-\(size)-0"
    let files = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
    let lines = files.reduce(0) { total, name in
      total
        + ((try? String(contentsOfFile: "\(output)/\(name)", encoding: .utf8))?.split(
          separator: "\n", omittingEmptySubsequences: false
        ).count ?? 0)
    }
    rows.append(GeneratorRow(events: size, samples: samples.sorted(), lines: lines))
  }
  return rows
}

/// One row of compile-cost.sh or rebuild-cost.sh: a build of one shape, one repetition.
struct BuildRow {
  var kind: String  // clean or rebuild
  var shape: String
  var mode: String
  var events: Int
  var schemaFiles: Int
  var swiftFiles: Int
  var lines: Int
  var wall: Double
  var cpu: Double
  var slowBodies: Int?

  /// Parses the scripts' tab-separated rows; other lines are ignored.
  static func parse(_ text: String) -> [BuildRow] {
    text.split(separator: "\n").compactMap { line in
      let c = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard c.count == 11, c[0] == "clean" || c[0] == "rebuild", let events = Int(c[3]), let schemaFiles = Int(c[4]),
        let swiftFiles = Int(c[5]), let lines = Int(c[6]), let wall = Double(c[8]), let cpu = Double(c[9])
      else { return nil }
      return BuildRow(
        kind: c[0], shape: c[1], mode: c[2], events: events, schemaFiles: schemaFiles, swiftFiles: swiftFiles,
        lines: lines,
        wall: wall, cpu: cpu, slowBodies: Int(c[10]))
    }
  }
}
