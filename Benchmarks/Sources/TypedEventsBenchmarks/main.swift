// `Benchmarks/run.sh [--quick] [--only LIST] [--output FILE]`
//
// Measures what TypedEvents users pay next to what they would use instead, each comparison in
// one process and one run, and writes BENCHMARKS.md (or FILE). `--quick` runs tiny sizes (CI's
// smoke run: it keeps every part building and running; its numbers mean nothing). `--only` runs
// some of delivery, async, codecs, fields, instructions, generator, check, compile, rebuild.
//
// Internal: `--run-case ID --iterations N --times K` runs one case for callgrind.
import BenchmarkCases
import Foundation

let arguments = CommandLine.arguments.dropFirst()
func option(_ name: String) -> String? {
  arguments.firstIndex(of: name).flatMap {
    arguments.index(after: $0) < arguments.endIndex ? arguments[arguments.index(after: $0)] : nil
  }
}
let cases = allBenchmarkCases()

if let id = option("--run-case") {
  guard let benchmark = cases.first(where: { $0.id == id }),
    let iterations = option("--iterations").flatMap({ Int($0) })
  else {
    print("unknown case or iterations: \(id)")
    exit(2)
  }
  Harness.runForCounting(benchmark, iterations: iterations, times: option("--times").flatMap { Int($0) } ?? 1)
  exit(0)
}

let quick = arguments.contains("--quick")
let only = option("--only").map { Set($0.split(separator: ",").map(String.init)) }
func runs(_ part: String) -> Bool { only?.contains(part) ?? true }
let repetitions = quick ? 3 : 9
let benchmarksFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().path
let executable = URL(fileURLWithPath: CommandLine.arguments[0]).path
let binaries = URL(fileURLWithPath: executable).deletingLastPathComponent().path

/// Which part of `--only` a case belongs to.
func part(of benchmark: BenchmarkCase) -> String {
  let prefix = benchmark.id.prefix { $0 != "." }
  switch prefix {
  case "delivery1", "delivery10": return "delivery"
  case "codec": return "codecs"
  case "field": return "fields"
  default: return String(prefix)
  }
}

var report = Report(quick: quick, repetitions: repetitions)
let selected = cases.filter { runs(part(of: $0)) }
var sections: [String] = []
for benchmark in selected where !sections.contains(benchmark.section) { sections.append(benchmark.section) }
for section in sections {
  print("timing \(section)…")
  report.measurements += await Harness.measure(
    selected.filter { $0.section == section }, iterations: { quick ? max(1, $0.iterations / 100) : $0.iterations },
    repetitions: repetitions)
}
if !selected.isEmpty {
  print("counting allocations (separate process, interposer preloaded)…")
  let allocations = Allocations.count(ids: selected.map(\.id), quick: quick, binaries: binaries)
  report.countsAllocations = !allocations.isEmpty
  for index in report.measurements.indices {
    report.measurements[index].allocations = allocations[report.measurements[index].benchmark.id]
  }
}
if runs("instructions"), Instructions.valgrind != nil {
  // In a quick run, two cases only: enough to keep the path working.
  let counted = selected.filter(\.isSingleThreaded).filter {
    !quick || $0.id == "delivery1.bus" || $0.id == "codec.generated"
  }
  print("counting instructions with callgrind (\(counted.count) cases, two processes at a time)…")
  let instructions = await Instructions.count(
    counted, iterations: { quick ? 100 : max(1, $0.iterations / 10) }, executable: executable)
  report.countsInstructions = !instructions.isEmpty
  for index in report.measurements.indices {
    report.measurements[index].instructions = instructions[report.measurements[index].benchmark.id]
  }
}
if runs("generator") {
  print("generator…")
  // run.sh names the release eventgen it built (EVENTGEN); else the one beside this executable.
  let eventgen = ProcessInfo.processInfo.environment["EVENTGEN"] ?? "\(binaries)/eventgen"
  report.generator = generatorBenchmarks(
    sizes: quick ? [10, 100] : [100, 1_000, 10_000], repetitions: repetitions, eventgen: eventgen,
    benchmarksFolder: benchmarksFolder)
}
if runs("check") {
  print("eventgen check of stale files (peak memory)…")
  let eventgen = ProcessInfo.processInfo.environment["EVENTGEN"] ?? "\(binaries)/eventgen"
  report.checks = checkBenchmarks(
    lineCounts: quick ? [1_000] : [1_000, 10_000, 120_000], repetitions: quick ? 1 : 5, eventgen: eventgen,
    benchmarksFolder: benchmarksFolder)
}
if runs("compile") {
  print("compile cost (clean builds; minutes)…")
  let script = "\(benchmarksFolder)/compile-cost.sh"
  let environment = quick ? ["REPS": "1", "MODES": "debug"] : ["REPS": "3"]
  if let rows = runCapturing("/bin/bash", [script, quick ? "10" : "300"], environment: environment)?.output {
    report.builds += BuildRow.parse(rows)
  }
  // The largest size, for the rule that no function body takes over 100 ms to type-check.
  if !quick,
    let rows = runCapturing(
      "/bin/bash", [script, "2000"], environment: ["SHAPES": "generated", "MODES": "debug", "REPS": "1"])?.output
  {
    report.builds += BuildRow.parse(rows)
  }
}
if runs("rebuild") {
  print("rebuild after editing one event (minutes)…")
  let environment =
    quick ? ["EVENTS": "20", "FILES": "2", "REPS": "1"] : ["EVENTS": "500", "FILES": "10", "REPS": "5"]
  if let rows = runCapturing("/bin/bash", ["\(benchmarksFolder)/rebuild-cost.sh"], environment: environment)?.output {
    report.builds += BuildRow.parse(rows)
  }
}

report.addTargets()
let text = report.markdown()
// A part that ran but measured nothing is a failure: the quick run in CI exists to catch it.
let missing = report.missingParts(selected: { runs($0) }, expectsInstructions: Instructions.valgrind != nil)
if !missing.isEmpty {
  print("benchmarks: these parts produced no results: \(missing.joined(separator: ", "))")
}
print(text)
let destination = option("--output") ?? "\(benchmarksFolder)/../BENCHMARKS.md"
if !quick || option("--output") != nil {
  do {
    try text.write(toFile: destination, atomically: true, encoding: .utf8)
    print("written to \(destination)")
  } catch {
    print("could not write \(destination): \(error)")
    exit(1)
  }
}
exit(missing.isEmpty ? 0 : 1)
