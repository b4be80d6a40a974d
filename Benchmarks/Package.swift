// swift-tools-version: 6.2
// The benchmarks live in their own package so that the main package stays light: they depend
// on TypedEvents by path and on the peers they are compared with.
import PackageDescription

let package = Package(
  name: "TypedEventsBenchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "TypedEvents", path: ".."),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
  ],
  targets: [
    // The events measured, generated at build time by the plugin.
    .target(
      name: "BenchmarkEvents",
      dependencies: [.product(name: "TypedEvents", package: "TypedEvents")],
      plugins: [.plugin(name: "EventGenPlugin", package: "TypedEvents")]
    ),
    // What is measured, as data: the timed driver, the instruction counter and the allocation
    // counter run the same cases.
    .target(
      name: "BenchmarkCases",
      dependencies: [
        "BenchmarkEvents",
        .product(name: "TypedEvents", package: "TypedEvents"),
        .product(name: "OpenCombine", package: "OpenCombine"),
      ]
    ),
    // Times the cases and writes the report. It does not link the malloc interposer, so timed
    // runs pay nothing for counting.
    .executableTarget(
      name: "typed-events-benchmarks", dependencies: ["BenchmarkCases"], path: "Sources/TypedEventsBenchmarks"),
    // EventLog appends from concurrent tasks against the disk's own fsync rate (writes.sh).
    .executableTarget(
      name: "typed-events-write-benchmarks",
      dependencies: [.product(name: "TypedEvents", package: "TypedEvents")],
      path: "Sources/TypedEventsWriteBenchmarks"
    ),
    // Counts allocations per case, run by the driver with the interposer preloaded.
    .executableTarget(
      name: "typed-events-allocations",
      dependencies: ["BenchmarkCases", .product(name: "MallocInterposerSwift", package: "malloc-interposer")],
      path: "Sources/TypedEventsAllocations"
    ),
  ]
)
