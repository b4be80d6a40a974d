// `swift run -c release typed-events-benchmarks [--quick] [--skip-compile] [--output FILE]`
//
// Measures what TypedEvents users pay next to what they would use instead, each comparison in
// one process, and writes the table to BENCHMARKS.md (or FILE). `--quick` runs tiny sizes
// (the CI smoke run: it keeps the benchmarks compiling, its numbers mean nothing).
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let quick = arguments.contains("--quick")
let skipCompile = quick || arguments.contains("--skip-compile")
let outputPath = arguments.firstIndex(of: "--output").flatMap { arguments.index(after: $0) < arguments.endIndex ? arguments[arguments.index(after: $0)] : nil }
Harness.repetitions = quick ? 3 : 9

let benchmarksFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
var report = Report(quick: quick, countsAllocations: Harness.countsAllocations)

print("delivery…")
for subscribers in [1, 10] {
  let publishes = quick ? 1_000 : 200_000 / subscribers
  report.add(section: "Immediate delivery, \(subscribers) subscriber\(subscribers == 1 ? "" : "s") (ns per delivery)", deliveryBenchmarks(subscribers: subscribers, publishes: publishes))
}
print("async delivery…")
report.add(section: "Asynchronous delivery to one consumer (ns per event)", await asyncBenchmarks(events: quick ? 1_000 : 100_000))
print("codecs…")
report.add(section: "Encode + decode of a 5-field event with a nested type (ns per round trip)", codecBenchmarks(iterations: quick ? 1_000 : 50_000))
print("generator…")
report.generator = generatorBenchmarks(sizes: quick ? [10, 100] : [100, 1_000, 10_000], eventgen: "\(binaries)/eventgen", benchmarksFolder: benchmarksFolder)
if !skipCompile {
  print("compile cost (minutes)…")
  report.compileCost = ["generated", "naive"].compactMap { shape in
    run("/bin/bash", ["\(benchmarksFolder)/compile-cost.sh", "100", "500", "2000"], environment: ["SHAPE": shape])
  }
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
