import Foundation

/// The benchmark table, as Markdown with the date, machine and toolchain.
struct Report {
  var quick: Bool
  var countsAllocations: Bool
  var sections: [(title: String, rows: [Measurement])] = []
  var generator: [GeneratorRow] = []
  var compileCost: [String] = []

  mutating func add(section title: String, _ rows: [Measurement]) {
    sections.append((title, rows))
  }

  func markdown() -> String {
    var lines = ["# TypedEvents benchmarks", ""]
    lines.append("Measured \(ISO8601DateFormatter().string(from: Date())) on \(machine()), \(toolchain()), release build.")
    lines.append("Each number is the median of \(Harness.repetitions) repetitions; ratios compare rows of the same run.")
    lines.append("Regenerate with `cd Benchmarks && ./run.sh` (or `swift run -c release typed-events-benchmarks`).")
    if quick { lines.append("", "**Quick run: tiny sizes, the numbers mean nothing.**") }
    for section in sections {
      lines.append("")
      lines.append("## \(section.title)")
      lines.append("")
      let base = section.rows.first?.nanoseconds ?? 1
      lines.append("| | ns | relative to TypedEvents | allocations per operation |")
      lines.append("|---|---:|---:|---:|")
      for row in section.rows {
        let allocations = row.allocations.map { String(format: "%.2f", $0) } ?? (countsAllocations ? "–" : "not counted")
        lines.append(String(format: "| %@ | %.1f | %.2f× | %@ |", row.name, row.nanoseconds, row.nanoseconds / base, allocations))
      }
    }
    if !generator.isEmpty {
      lines.append("", "## Generator throughput (`eventgen generate`, 10 fields per event)", "")
      lines.append("| events | seconds | lines written | lines per second |")
      lines.append("|---:|---:|---:|---:|")
      for row in generator {
        lines.append(String(format: "| %d | %.3f | %d | %.0f |", row.events, row.seconds, row.lines, row.linesPerSecond))
      }
    }
    if !compileCost.isEmpty {
      lines.append("", "## Compile cost of generated code (clean debug build of the generated target)", "")
      lines.append(contentsOf: compileCost.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func machine() -> String {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let memory = ProcessInfo.processInfo.physicalMemory >> 30
    let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
      .split(separator: "\n").first { $0.hasPrefix("model name") }?
      .split(separator: ":").last?.trimmingCharacters(in: .whitespaces)
    return "\(cpu ?? "unknown CPU"), \(cores) cores, \(memory) GiB"
  }

  private func toolchain() -> String {
    run("/usr/bin/env", ["swift", "--version"])?.split(separator: "\n").first.map(String.init) ?? "unknown toolchain"
  }
}
