import Foundation

/// Runs a command and returns its standard output, or nil when it fails.
@discardableResult
func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) -> String? {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = FileHandle.nullDevice
  do {
    try process.run()
  } catch {
    return nil
  }
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
}

/// One row of the generator benchmark.
struct GeneratorRow {
  var events: Int
  var seconds: Double
  var lines: Int
  var linesPerSecond: Double { Double(lines) / seconds }
}

/// Wall time of `eventgen generate` for schemas of each size (median of several runs), and the
/// lines it writes per second.
func generatorBenchmarks(sizes: [Int], eventgen: String, benchmarksFolder: String) -> [GeneratorRow] {
  let work = FileManager.default.temporaryDirectory.appendingPathComponent("eventgen-bench-\(UUID().uuidString)").path
  defer { try? FileManager.default.removeItem(atPath: work) }
  var rows: [GeneratorRow] = []
  for size in sizes {
    let schemas = "\(work)/schemas-\(size)"
    guard run("/usr/bin/env", ["python3", "\(benchmarksFolder)/make-schemas.py", "\(size)", schemas]) != nil else {
      print("generator: could not run make-schemas.py")
      return rows
    }
    var samples: [Double] = []
    for repetition in 0..<max(3, Harness.repetitions / 2) {
      let output = "\(work)/out-\(size)-\(repetition)"
      let start = DispatchTime.now().uptimeNanoseconds
      guard run(eventgen, ["generate", schemas, "--output", output]) != nil else {
        print("generator: eventgen failed")
        return rows
      }
      samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    samples.sort()
    let output = "\(work)/out-\(size)-0"
    let files = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
    let lines = files.reduce(0) { total, name in
      total + ((try? String(contentsOfFile: "\(output)/\(name)", encoding: .utf8))?.split(separator: "\n", omittingEmptySubsequences: false).count ?? 0)
    }
    rows.append(GeneratorRow(events: size, seconds: samples[samples.count / 2], lines: lines))
  }
  return rows
}
