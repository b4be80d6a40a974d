// `typed-events-allocations [--quick] --ids ID,…`: counts allocations per operation of the
// benchmark cases, one line `ID<TAB>allocations` each. Run by typed-events-benchmarks with the
// malloc interposer preloaded (LD_PRELOAD), so that the timed runs never load it.
import BenchmarkCases
import MallocInterposerSwift

let arguments = CommandLine.arguments.dropFirst()
let quick = arguments.contains("--quick")
let ids = arguments.firstIndex(of: "--ids").flatMap {
  arguments.index(after: $0) < arguments.endIndex ? arguments[arguments.index(after: $0)] : nil
}
.map { Set($0.split(separator: ",").map(String.init)) }

MallocInterposerSwift.initialize()
for benchmark in allBenchmarkCases() where ids?.contains(benchmark.id) ?? true {
  let iterations = quick ? max(1, benchmark.iterations / 100) : benchmark.iterations / 10
  let body = benchmark.make(iterations)
  // Warm up outside the count: first calls fill caches and lazily made metadata.
  switch body {
  case .sync(let run): run()
  case .async(let run): await run()
  }
  MallocInterposerSwift.reset()
  MallocInterposerSwift.hook()
  switch body {
  case .sync(let run): run()
  case .async(let run): await run()
  }
  MallocInterposerSwift.unhook()
  let count =
    Double(MallocInterposerSwift.getStatistics().mallocCount) / Double(iterations * benchmark.operationsPerIteration)
  print("\(benchmark.id)\t\(count)")
}
