import BenchmarkCases
import Foundation

/// The benchmark report, as Markdown with the date, machine and toolchain, and where the project
/// stands against its targets, computed from the same run.
struct Report {
  var quick: Bool
  var repetitions: Int
  var measurements: [Measurement] = []
  var countsAllocations = false
  var countsInstructions = false
  var generator: [GeneratorRow] = []
  var checks: [CheckRow] = []
  var builds: [BuildRow] = []
  /// One line per target: what it asks, what was measured, met or not.
  var targets: [String] = []

  func row(_ id: String) -> Measurement? { measurements.first { $0.benchmark.id == id } }
  func median(_ id: String) -> Double? { row(id)?.median }

  /// Per field of type `type`: (four fields − no fields) / 4, from `value` of the two rows.
  func perField(_ type: String, _ codec: String, _ value: (Measurement) -> Double?) -> Double? {
    guard let four = row("field.\(type).\(codec)").flatMap(value), let none = row("field.none.\(codec)").flatMap(value)
    else { return nil }
    return (four - none) / 4
  }

  func builds(_ kind: String, _ shape: String, _ mode: String, events: Int? = nil) -> [BuildRow] {
    builds.filter { $0.kind == kind && $0.shape == shape && $0.mode == mode && (events == nil || $0.events == events) }
  }

  /// Adds a target line: `value` against the goal, met when `met` holds.
  mutating func target(_ description: String, _ value: Double?, _ unit: String, met: (Double) -> Bool) {
    guard let value, value.isFinite else {
      targets.append("- \(description): not measured")
      return
    }
    targets.append("- \(description): \(format(value, 2))\(unit) — \(met(value) ? "met" : "**missed**")")
  }

  mutating func addTargets() {
    func ratio(_ a: Double?, _ b: Double?) -> Double? { a.flatMap { a in b.map { a / $0 } } }
    for n in [1, 10] {
      let bus = median("delivery\(n).bus")
      target(
        "immediate delivery to \(n) within 1.5× the locked closure array",
        ratio(bus, median("delivery\(n).lockedArray")), "×"
      ) { $0 <= 1.5 }
      target(
        "immediate delivery to \(n) at least 25× faster than NotificationCenter",
        ratio(median("delivery\(n).notificationCenter"), bus), "× faster"
      ) { $0 >= 25 }
      target("allocations per delivery to \(n) (goal 0)", row("delivery\(n).bus")?.allocations, "") { $0 < 0.01 }
    }
    target(
      "events(_:) at least 3× faster than AsyncStream per subscriber",
      ratio(median("async.asyncStream"), median("async.events")), "× faster"
    ) { $0 >= 3 }
    let generated = median("codec.generated")
    target(
      "userInfo round trip within 1.0× idiomatic hand-written code", ratio(generated, median("codec.idiomatic")), "×"
    ) { $0 <= 1.0 }
    target(
      "userInfo round trip within 1.2× the fastest hand-written code", ratio(generated, median("codec.fastest")), "×"
    ) { $0 <= 1.2 }
    for mode in ["debug", "release"] {
      let report = self
      let cpu = { (shape: String) in medianOf(report.builds("clean", shape, mode, events: 300).map(\.cpu)) }
      target(
        "generated code at 300 events at most 0.4× the naive shape's CPU time, \(mode)",
        ratio(cpu("generated"), cpu("naive")), "×"
      ) { $0 <= 0.4 }
    }
    for shape in ["plugin", "checked-in"] {
      target(
        "rebuild after editing one event of 500 (\(shape)) at most 5 s, debug",
        medianOf(builds("rebuild", shape, "debug").map(\.wall)), " s"
      ) { $0 <= 5 }
    }
    let largest = generator.max { $0.events < $1.events }
    target(
      "generator at least 200,000 output lines per second (largest run, median)", largest?.linesPerSecond, " lines/s"
    ) { $0 >= 200_000 }
    target("1,000 events generated in under 0.3 s (median)", generator.first { $0.events == 1_000 }?.median, " s") {
      $0 < 0.3
    }
    target(
      "generator on AsyncAPI input within 1.5× the same events as .events.yaml (largest run with AsyncAPI input, medians)",
      generator.last { $0.asyncAPIRatio != nil }?.asyncAPIRatio, "×"
    ) { $0 <= 1.5 }
    let largestCheck = checks.filter { $0.staleness != "current" }.max {
      ($0.lines, $0.peakMiB.last ?? 0) < ($1.lines, $1.peakMiB.last ?? 0)
    }
    if let largestCheck, largestCheck.lines >= 100_000 {
      target(
        "eventgen check of \(largestCheck.lines) changed lines under 200 MB peak memory (\(largestCheck.staleness), largest run)",
        largestCheck.peakMiB.last.map { $0 * 1_048_576 / 1e6 }, " MB"
      ) { $0 < 200 }
    }
    let slow = builds("clean", "generated", "debug", events: 2_000).first?.slowBodies
    target("function bodies over 100 ms to type-check in generated code at 2,000 events", slow.map(Double.init), "") {
      $0 == 0
    }
  }

  /// The parts that were asked for but measured nothing.
  func missingParts(selected: (String) -> Bool, expectsInstructions: Bool) -> [String] {
    var missing: [String] = []
    if !measurements.isEmpty && !countsAllocations { missing.append("allocations") }
    if selected("instructions") && expectsInstructions && !measurements.isEmpty && !countsInstructions {
      missing.append("instructions")
    }
    if selected("generator") && generator.isEmpty { missing.append("generator") }
    if selected("check") && checks.isEmpty { missing.append("check") }
    if selected("compile") && !builds.contains(where: { $0.kind == "clean" }) { missing.append("compile") }
    if selected("rebuild") && !builds.contains(where: { $0.kind == "rebuild" }) { missing.append("rebuild") }
    return missing
  }

  func markdown() -> String {
    var lines = ["# TypedEvents benchmarks", ""]
    lines.append("Measured \(ISO8601DateFormatter().string(from: Date())) on \(machine()), \(toolchain()).")
    lines.append("")
    // run.sh builds in release unless BENCHMARK_CONFIGURATION says otherwise (CI's smoke run).
    let configuration = ProcessInfo.processInfo.environment["BENCHMARK_CONFIGURATION"] ?? "release"
    lines.append(
      "- In-process rows: \(configuration) build; each body timed \(repetitions) times after a warm-up; **min / median / max** ns per operation; ratios are of medians in the same run."
    )
    lines.append(
      "- Allocations per operation: counted in a separate process with the malloc interposer preloaded; timed runs do not load it."
    )
    lines.append(
      "- Instructions per operation: `valgrind --tool=callgrind`, (count of 2 bodies − count of 1 body) / operations, with `SWIFT_DETERMINISTIC_HASHING=1`: the same binary gives the same count however busy the machine is. Single-threaded rows only."
    )
    lines.append(
      "- Builds: wall and CPU (user + system of the build and its compiler jobs) seconds, min / median / max over the runs shown."
    )
    lines.append(
      "- Regenerate with `Benchmarks/run.sh` (about 40 minutes on 2 cores, most of it builds); `--only PART,…` runs a part."
    )
    if quick { lines += ["", "**Quick run: tiny sizes, the numbers mean nothing.**"] }
    if !targets.isEmpty { lines += ["", "## Targets", ""] + targets }

    var sections: [String] = []
    for m in measurements where m.benchmark.section != fieldSection && !sections.contains(m.benchmark.section) {
      sections.append(m.benchmark.section)
    }
    for section in sections {
      let rows = measurements.filter { $0.benchmark.section == section }
      let base = rows.first?.median ?? 1
      lines += ["", "## \(section)", ""]
      lines.append("| | min | median | max | median ÷ first row | instructions per op | allocations per op |")
      lines.append("|---|---:|---:|---:|---:|---:|---:|")
      for r in rows {
        lines.append(
          "| \(r.name) | \(format(r.min, 1)) | \(format(r.median, 1)) | \(format(r.max, 1)) | \(format(r.median / base, 2))× | \(count(r.instructions, countsInstructions, r.benchmark.isSingleThreaded)) | \(count(r.allocations, countsAllocations, true)) |"
        )
      }
    }
    if measurements.contains(where: { $0.benchmark.section == fieldSection }) {
      lines += ["", "## \(fieldSection) (ns and instructions per field)", ""]
      lines.append(
        "An event of four fields of the type, encoded to `userInfo` and decoded, less the same round trip of an event with no fields, divided by four; from the medians. \"Fastest\" is the hand-written code of the round-trip table above, for the same dictionary."
      )
      lines.append("")
      lines.append(
        "| field type | generated ns | fastest hand-written ns | generated ÷ fastest | generated instructions | fastest instructions |"
      )
      lines.append("|---|---:|---:|---:|---:|---:|")
      for type in fieldTypes {
        let g = perField(type, "generated") { $0.median }
        let f = perField(type, "fastest") { $0.median }
        let gi = perField(type, "generated") { $0.instructions }
        let fi = perField(type, "fastest") { $0.instructions }
        lines.append(
          "| \(type) | \(opt(g, 1)) | \(opt(f, 1)) | \(g.flatMap { g in f.map { format(g / $0, 2) + "×" } } ?? "–") | \(opt(gi, 0)) | \(opt(fi, 0)) |"
        )
      }
    }
    if !generator.isEmpty {
      lines += ["", "## Generator throughput (`eventgen generate`, 10 fields per event, one process per run)", ""]
      lines.append(
        "| events | runs | min s | median s | max s | lines written | lines per second (median) | AsyncAPI input: min / median / max s | AsyncAPI ÷ .events.yaml (medians) |"
      )
      lines.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
      for row in generator {
        let asyncAPI =
          row.asyncAPISamples.isEmpty
          ? "not run | –"
          : "\(format(row.asyncAPISamples.first ?? .nan, 3)) / \(format(row.asyncAPIMedian ?? .nan, 3)) / \(format(row.asyncAPISamples.last ?? .nan, 3)) | \(format(row.asyncAPIRatio ?? .nan, 2))×"
        lines.append(
          "| \(row.events) | \(row.samples.count) | \(format(row.samples.first ?? .nan, 3)) | \(format(row.median, 3)) | \(format(row.samples.last ?? .nan, 3)) | \(row.lines) | \(format(row.linesPerSecond, 0)) | \(asyncAPI) |"
        )
      }
      lines.append("")
      lines.append(
        "The AsyncAPI columns read the same events from one document that `eventgen asyncapi` wrote from the schemas; its runs alternate with the `.events.yaml` runs."
      )
    }
    if !checks.isEmpty {
      lines += ["", "## `eventgen check` of a stale file: peak memory and time (one process per run)", ""]
      lines.append(
        "One schema, one generated file; `/usr/bin/time -v`'s maximum resident set size. \"current\" is the baseline: the same check of a file that is up to date, which generates and compares but prints no diff. \"every line changed\": a space appended to every line but the marker line, so the two files share no line. \"reindented\": every line's indentation doubled, as a change of the output format does, so blank and top-level lines stay and the diff aligns them. The kinds take turns within each repetition."
      )
      lines.append("")
      lines.append(
        "| events | lines | file on disk | runs | peak MiB min / median / max | ÷ current (medians) | wall s min / median / max | ÷ current (medians) |"
      )
      lines.append("|---:|---:|---|---:|---:|---:|---:|---:|")
      for row in checks {
        let baseline = checks.first { $0.events == row.events && $0.staleness == "current" }
        let spread = { (values: [Double], digits: Int) in
          "\(format(values[0], digits)) / \(format(values[values.count / 2], digits)) / \(format(values[values.count - 1], digits))"
        }
        let ratio = { (values: [Double], base: [Double]?) in
          base.map { format(values[values.count / 2] / $0[$0.count / 2], 2) + "×" } ?? "–"
        }
        lines.append(
          "| \(row.events) | \(row.lines) | \(row.staleness) | \(row.peakMiB.count) | \(spread(row.peakMiB, 1)) | \(ratio(row.peakMiB, baseline?.peakMiB)) | \(spread(row.seconds, 2)) | \(ratio(row.seconds, baseline?.seconds)) |"
        )
      }
    }
    let clean = builds.filter { $0.kind == "clean" }
    if !clean.isEmpty {
      lines += ["", "## Compile cost: a clean build of the target holding the events", ""]
      lines.append(
        "`Benchmarks/compile-cost.sh`. \"naive\" is the shape people write by hand (synthesized Codable, a `userInfo` encoder and an `as?` decoder, one `switch` over every event), split into as many Swift files as `eventgen` writes for the same events; both shapes are built with the same `-j 2`, their dependencies built beforehand, taking turns within each repetition. Debug and release (`-c release`, whole-module optimization). \"no-op build\" is SwiftPM's own share of every build: the same command with nothing to compile. Every build, warm-ups included, runs under `env -i` with `PATH`, `HOME` and `LANG` only: SwiftPM keys its cache of compiled plugins on the whole environment, so a build whose environment differs from the previous one's (another `OLDPWD`, or started through `/usr/bin/time`) recompiles every plugin of the graph first."
      )
      lines.append("")
      lines += buildTable(clean, slowBodies: true)
      for mode in ["debug", "release"] {
        for events in Set(clean.map(\.events)).sorted() {
          let g = medianOf(builds("clean", "generated", mode, events: events).map(\.cpu))
          let n = medianOf(builds("clean", "naive", mode, events: events).map(\.cpu))
          if let g, let n {
            lines.append("- \(mode), \(events) events: generated ÷ naive CPU time \(format(g / n, 2))× (medians)")
          }
        }
      }
    }
    let rebuilds = builds.filter { $0.kind == "rebuild" }
    if !rebuilds.isEmpty {
      lines += ["", "## Rebuild after editing one event (debug)", ""]
      lines.append(
        "`Benchmarks/rebuild-cost.sh`: an optional field added to the middle event of a built project, then a build; the shapes take turns within each repetition. \"plugin\": the schemas in the target, generated by the build-tool plugin (`swift build` alone, as Xcode does; the plugin runs a debug `eventgen` over all ten schemas, which may use each other's types); \"checked-in\": a release `eventgen generate` then `swift build`, timed together; \"naive\": the same field added to the hand-written shape. Every edit also rebuilds the module's interface (the compiler's emit-module job, which checks every declaration of the target); the edited schema's one file compiles beside it. After each edit's build, the same command runs again with nothing changed (\"(no change)\" rows, which must compile nothing): the part of every build that is SwiftPM's own, and for checked-in sources the generator's run, whatever the generated code."
      )
      lines.append("")
      lines += buildTable(rebuilds, slowBodies: false)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func buildTable(_ rows: [BuildRow], slowBodies: Bool) -> [String] {
    var lines = [
      "| shape | build | events | schema files | Swift files | lines | runs | wall min / median / max (s) | CPU min / median / max (s) |\(slowBodies ? " bodies over 100 ms |" : "")",
      "|---|---|---:|---:|---:|---:|---:|---:|---:|\(slowBodies ? "---:|" : "")",
    ]
    var seen: [String] = []
    for row in rows where !seen.contains("\(row.shape) \(row.mode) \(row.events)") {
      seen.append("\(row.shape) \(row.mode) \(row.events)")
      let group = rows.filter { $0.shape == row.shape && $0.mode == row.mode && $0.events == row.events }
      let walls = group.map(\.wall).sorted()
      let cpus = group.map(\.cpu).sorted()
      let spread = { (values: [Double]) in
        "\(format(values[0], 1)) / \(format(values[values.count / 2], 1)) / \(format(values[values.count - 1], 1))"
      }
      lines.append(
        "| \(row.shape) | \(row.mode) | \(row.events) | \(row.schemaFiles) | \(row.swiftFiles) | \(row.lines) | \(group.count) | \(spread(walls)) | \(spread(cpus)) |\(slowBodies ? " \(group.compactMap(\.slowBodies).max() ?? 0) |" : "")"
      )
    }
    return lines
  }

  private func count(_ value: Double?, _ counted: Bool, _ applies: Bool) -> String {
    if let value { return format(value, value < 10 ? 2 : 0) }
    return counted && applies ? "–" : "not counted"
  }

  private func opt(_ value: Double?, _ digits: Int) -> String { value.map { format($0, digits) } ?? "–" }

  private func machine() -> String {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let memory = ProcessInfo.processInfo.physicalMemory >> 30
    let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
      .split(separator: "\n").first { $0.hasPrefix("model name") }?
      .split(separator: ":").last?.trimmingCharacters(in: .whitespaces)
    return "\(cpu ?? "unknown CPU"), \(cores) cores, \(memory) GiB"
  }

  private func toolchain() -> String {
    runCapturing("/usr/bin/env", ["swift", "--version"])?.output.split(separator: "\n").first.map(String.init)
      ?? "unknown toolchain"
  }
}

/// The median of `values`, or nil when there are none.
func medianOf(_ values: [Double]) -> Double? {
  values.isEmpty ? nil : values.sorted()[values.count / 2]
}

/// `value` with `digits` decimals.
func format(_ value: Double, _ digits: Int) -> String {
  String(format: "%.\(digits)f", value)
}
