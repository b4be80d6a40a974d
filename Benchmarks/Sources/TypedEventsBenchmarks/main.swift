// `swift run -c release typed-events-benchmarks [--quick] [--skip-compile] [--only LIST] [--output FILE]`
//
// Measures what TypedEvents users pay next to what they would use instead, each comparison in
// one process, and writes the table to BENCHMARKS.md (or FILE). `--quick` runs tiny sizes
// (the CI smoke run: it keeps the benchmarks compiling, its numbers mean nothing). `--only`
// runs some of delivery, async, codecs, generator, compile (comma-separated), for profiling.
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let quick = arguments.contains("--quick")
let skipCompile = quick || arguments.contains("--skip-compile")
func option(_ name: String) -> String? {
  arguments.firstIndex(of: name).flatMap { arguments.index(after: $0) < arguments.endIndex ? arguments[arguments.index(after: $0)] : nil }
}
let outputPath = option("--output")
let only = option("--only").map { Set($0.split(separator: ",").map(String.init)) }
func runs(_ part: String) -> Bool { only?.contains(part) ?? true }
Harness.repetitions = quick ? 3 : 9

let benchmarksFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
var report = Report(quick: quick, countsAllocations: Harness.countsAllocations)

print("delivery…")
for subscribers in [1, 10] where runs("delivery") {
  let publishes = quick ? 1_000 : 200_000 / subscribers
  let rows = deliveryBenchmarks(subscribers: subscribers, publishes: publishes)
    + [mainActorMessageBenchmark(subscribers: subscribers, publishes: publishes)]
  report.add(section: "Immediate delivery, \(subscribers) subscriber\(subscribers == 1 ? "" : "s") (ns per delivery)", rows)
}
print("async delivery…")
if runs("async") {
  report.add(section: "Asynchronous delivery to one consumer (ns per event)", await asyncBenchmarks(events: quick ? 1_000 : 100_000))
}
print("codecs…")
if runs("codecs") {
  report.add(section: "Encode + decode of a 5-field event with a nested type (ns per round trip)", codecBenchmarks(iterations: quick ? 1_000 : 50_000))
}
print("generator…")
if runs("generator") {
  report.generator = generatorBenchmarks(sizes: quick ? [10, 100] : [100, 1_000, 10_000], eventgen: "\(binaries)/eventgen", benchmarksFolder: benchmarksFolder)
}
if !skipCompile && runs("compile") {
  print("compile cost (minutes)…")
  report.compileCost = ["generated", "naive"].compactMap { shape in
    run("/bin/bash", ["\(benchmarksFolder)/compile-cost.sh", "100", "500", "2000"], environment: ["SHAPE": shape])
  }
}

// Where the project stands against the targets of the benchmark issue.
let bus = "TypedEvents EventBus"
for subscribers in [1, 10] {
  let section = "Immediate delivery, \(subscribers) subscriber"
  let ours = report.nanoseconds(section, bus)
  let floor = report.nanoseconds(section, "array of closures behind NSLock (floor)")
  let center = report.nanoseconds(section, "NotificationCenter, 2-entry userInfo, as? casts")
  report.target("immediate delivery to \(subscribers) within 1.5× the locked closure array", value: ours.flatMap { o in floor.map { o / $0 } }, unit: "×") { $0 <= 1.5 }
  report.target("immediate delivery to \(subscribers) at least 25× faster than NotificationCenter", value: ours.flatMap { o in center.map { $0 / o } }, unit: "× faster") { $0 >= 25 }
}
let oneSubscriberAllocations = report.sections.first { $0.title.hasPrefix("Immediate delivery, 1 subscriber") }?.rows.first?.allocations
report.target("allocations per publish to one subscriber (goal 0)", value: oneSubscriberAllocations, unit: "") { $0 < 0.01 }
let streams = report.nanoseconds("Asynchronous", "TypedEvents events(_:)")
let asyncStream = report.nanoseconds("Asynchronous", "AsyncStream per subscriber")
report.target("events(_:) at least 3× faster than AsyncStream per subscriber", value: streams.flatMap { s in asyncStream.map { $0 / s } }, unit: "× faster") { $0 >= 3 }
let generated = report.nanoseconds("Encode + decode", "generated userInfo round trip")
let handWritten = report.nanoseconds("Encode + decode", "hand-written userInfo with as? casts")
let json = report.nanoseconds("Encode + decode", "JSONEncoder + JSONDecoder")
report.target("userInfo round trip within 1.2× hand-written code", value: generated.flatMap { g in handWritten.map { g / $0 } }, unit: "×") { $0 <= 1.2 }
report.target("userInfo round trip at least 10× faster than JSON", value: generated.flatMap { g in json.map { $0 / g } }, unit: "× faster") { $0 >= 10 }
let largest = report.generator.max { $0.events < $1.events }
report.target("generator at least 200,000 output lines per second (largest run)", value: largest?.linesPerSecond, unit: " lines/s") { $0 >= 200_000 }
let thousand = report.generator.first { $0.events == 1_000 }
report.target("1,000 events generated in under 0.3 s", value: thousand?.seconds, unit: " s") { $0 < 0.3 }

// compile-cost.sh rows: | shape | events | files | lines | seconds | bodies over 100 ms |
let compileRows = report.compileCost.flatMap { $0.split(separator: "\n") }.compactMap { line -> (shape: String, events: Int, seconds: Double, slow: Int)? in
  let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
  guard cells.count == 6, let events = Int(cells[1]), let seconds = Double(cells[4]), let slow = Int(cells[5]) else { return nil }
  return (cells[0], events, seconds, slow)
}
func compileSeconds(_ shape: String, _ events: Int) -> Double? {
  compileRows.first { $0.shape == shape && $0.events == events }?.seconds
}
if !compileRows.isEmpty {
  report.target("generated code at 500 events builds in at most half the naive shape's time", value: compileSeconds("generated", 500).flatMap { g in compileSeconds("naive", 500).map { g / $0 } }, unit: "× the naive time") { $0 <= 0.5 }
  report.target("function bodies over 100 ms to type-check in generated code at 2,000 events", value: compileRows.first { $0.shape == "generated" && $0.events == 2_000 }.map { Double($0.slow) }, unit: "") { $0 == 0 }
}

let text = report.markdown()
print(text)
let destination = outputPath ?? "\(benchmarksFolder)/../BENCHMARKS.md"
if !quick || outputPath != nil {
  do {
    try text.write(toFile: destination, atomically: true, encoding: .utf8)
    print("written to \(destination)")
  } catch {
    print("could not write \(destination): \(error)")
  }
}
