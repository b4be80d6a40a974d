// swift-tools-version: 6.1
// The differential fuzzer of the runtime's JSON entries: a package of its own, so that its
// libFuzzer build (`--sanitize=fuzzer`) builds the runtime alone, not the generator, its plugins
// or their tools. Scripts/fuzz-json builds and runs it, then has Python's json (made strict by
// Scripts/strict-json-oracle) judge every input of the corpus it found.
import PackageDescription

let package = Package(
  name: "JSONFuzzer",
  platforms: [.macOS(.v13)],
  dependencies: [.package(name: "TypedEvents", path: "../..")],
  targets: [
    .executableTarget(
      name: "JSONFuzzer",
      dependencies: [.product(name: "TypedEvents", package: "TypedEvents")],
      swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    )
  ]
)
