import Foundation

/// The benchmark table, as Markdown with the date, machine and toolchain, and where the
/// project stands against its targets.
struct Report {
  var quick: Bool
  var countsAllocations: Bool
  var sections: [(title: String, rows: [Measurement])] = []
  var generator: [GeneratorRow] = []
  var compileCost: [String] = []
  /// One line per target: what it asks, what was measured, met or not.
  var targets: [String] = []

  mutating func add(section title: String, _ rows: [Measurement]) {
    sections.append((title, rows))
  }

  /// The median of the row called `name` in the section whose title starts with `section`.
  func nanoseconds(_ section: String, _ name: String) -> Double? {
    sections.first { $0.title.hasPrefix(section) }?.rows.first { $0.name == name }?.nanoseconds
  }

  /// Adds a target line: `value` against `goal`, met when `met` holds.
  mutating func target(_ description: String, value: Double?, unit: String, met: (Double) -> Bool) {
    guard let value else {
      targets.append("- \(description): not measured")
      return
    }
    targets.append("- \(description): \(format(value, digits: 2))\(unit) — \(met(value) ? "met" : "**missed**")")
  }

  func markdown() -> String {
    var lines = ["# TypedEvents benchmarks", ""]
    lines.append("Measured \(ISO8601DateFormatter().string(from: Date())) on \(machine()), \(toolchain()), release build.")
    lines.append("Each number is the median of \(Harness.repetitions) repetitions; ratios compare rows of the same run.")
    lines.append("Regenerate with `Benchmarks/run.sh` (about 25 minutes on 2 cores, most of it the compile-cost builds).")
    if quick { lines += ["", "**Quick run: tiny sizes, the numbers mean nothing.**"] }
    if !targets.isEmpty {
      lines += ["", "## Targets", ""] + targets
    }
    for section in sections {
      lines += ["", "## \(section.title)", ""]
      let base = section.rows.first?.nanoseconds ?? 1
      lines.append("| | ns | relative to the first row | allocations per operation |")
      lines.append("|---|---:|---:|---:|")
      for row in section.rows {
        let allocations = row.allocations.map { format($0, digits: 2) } ?? (countsAllocations ? "–" : "not counted")
        lines.append("| \(row.name) | \(format(row.nanoseconds, digits: 1)) | \(format(row.nanoseconds / base, digits: 2))× | \(allocations) |")
      }
    }
    if !generator.isEmpty {
      lines += ["", "## Generator throughput (`eventgen generate`, 10 fields per event, one process per run)", ""]
      lines.append("| events | seconds | lines written | lines per second | seconds per 1,000 events |")
      lines.append("|---:|---:|---:|---:|---:|")
      for row in generator {
        lines.append(
          "| \(row.events) | \(format(row.seconds, digits: 3)) | \(row.lines) | \(format(row.linesPerSecond, digits: 0)) | \(format(row.seconds * 1_000 / Double(row.events), digits: 3)) |")
      }
    }
    if !compileCost.isEmpty {
      lines += ["", "## Compile cost of generated code (clean debug build of the generated target)", ""]
      lines.append("`Benchmarks/compile-cost.sh`; \"naive\" is the shape people write by hand: synthesized Codable, `as?` casts, one `switch` over every event.")
      lines.append("")
      lines += compileCost.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
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

/// `value` with `digits` decimals, without Foundation's `%@` bridging.
func format(_ value: Double, digits: Int) -> String {
  String(format: "%.\(digits)f", value)
}
