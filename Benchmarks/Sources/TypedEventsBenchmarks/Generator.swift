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
  /// Wall seconds of each run on the same events as one AsyncAPI document (`eventgen asyncapi`
  /// of the schemas), sorted; runs alternate with the `.events.yaml` ones.
  var asyncAPISamples: [Double] = []
  var median: Double { samples[samples.count / 2] }
  var linesPerSecond: Double { Double(lines) / median }
  var asyncAPIMedian: Double? { asyncAPISamples.isEmpty ? nil : asyncAPISamples[asyncAPISamples.count / 2] }
  /// The AsyncAPI input's median time over the `.events.yaml` input's.
  var asyncAPIRatio: Double? { asyncAPIMedian.map { $0 / median } }
}

/// Wall time of `eventgen generate` into a fresh folder for schemas of each size, `repetitions`
/// runs each, and the lines it writes; and, in turns with it, of the same events read from one
/// AsyncAPI document.
func generatorBenchmarks(sizes: [Int], repetitions: Int, eventgen: String, benchmarksFolder: String) -> [GeneratorRow] {
  let work = FileManager.default.temporaryDirectory.appendingPathComponent("eventgen-bench-\(UUID().uuidString)").path
  defer { try? FileManager.default.removeItem(atPath: work) }
  var rows: [GeneratorRow] = []
  for size in sizes {
    let schemas = "\(work)/schemas-\(size)"
    guard runCapturing("/usr/bin/env", ["python3", "\(benchmarksFolder)/make-schemas.py", "\(size)", schemas]) != nil
    else { return rows }
    let document = "\(work)/events-\(size).asyncapi.json"
    guard runCapturing(eventgen, ["asyncapi", schemas, "--output", document]) != nil else { return rows }
    let inputs = [(schemas, ""), (document, "-asyncapi")]
    var samples: [Double] = []
    var asyncAPISamples: [Double] = []
    for repetition in 0..<repetitions {
      for (input, suffix) in inputs {
        let output = "\(work)/out-\(size)-\(repetition)\(suffix)"
        let start = DispatchTime.now().uptimeNanoseconds
        guard runCapturing(eventgen, ["generate", input, "--output", output]) != nil else { return rows }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if suffix.isEmpty { samples.append(seconds) } else { asyncAPISamples.append(seconds) }
      }
    }
    let output = "\(work)/out-\(size)-0"
    let files = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
    let lines = files.reduce(0) { total, name in
      total
        + ((try? String(contentsOfFile: "\(output)/\(name)", encoding: .utf8))?.split(
          separator: "\n", omittingEmptySubsequences: false
        ).count ?? 0)
    }
    rows.append(
      GeneratorRow(
        events: size, samples: samples.sorted(), lines: lines, asyncAPISamples: asyncAPISamples.sorted()))
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
