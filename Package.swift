// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "TypedEvents",
  platforms: [.macOS(.v13), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
  products: [
    .library(name: "TypedEvents", targets: ["TypedEvents"]),
    .executable(name: "eventgen", targets: ["eventgen"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    // The only YAML parser: Debian's libyaml through pkg-config.
    .systemLibrary(
      name: "CYAML",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),
    // YAML → nodes with source locations → validated schema model. Knows nothing of Swift output.
    .target(name: "EventSchema", dependencies: ["CYAML"]),
    // Validated schema model → Swift text. Knows nothing of YAML.
    .target(name: "EventCodegen", dependencies: ["EventSchema"]),
    // One run of the generator: finds inputs, names outputs, writes or compares them.
    .target(name: "EventGenDriver", dependencies: ["EventSchema", "EventCodegen"]),
    // The command-line tool, a thin layer of argument parsing over the driver.
    .executableTarget(
      name: "eventgen",
      dependencies: [
        "EventGenDriver",
        "EventSchema",
        "EventCodegen",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The runtime that app code imports; it depends on nothing but the toolchain.
    .target(name: "TypedEvents"),

    // The sample schemas' generated Swift, checked in; tests keep it current. Built as an app
    // target would be: default main-actor isolation, every warning an error.
    .target(
      name: "SampleEvents",
      dependencies: ["TypedEvents"],
      exclude: ["Generated/README.md"],
      swiftSettings: [.defaultIsolation(MainActor.self), .treatAllWarnings(as: .error)]
    ),

    // `swift run events-example`: the four sample scenarios with the bus.
    .executableTarget(name: "events-example", dependencies: ["SampleEvents", "TypedEvents"], path: "Sources/EventsExample"),

    .testTarget(name: "EventSchemaTests", dependencies: ["EventSchema"]),
    .testTarget(name: "EventCodegenTests", dependencies: ["EventCodegen", "EventGenDriver"]),
    .testTarget(name: "TypedEventsTests", dependencies: ["TypedEvents"]),
    // Compiles and runs the generated code of the samples and of the edge-case schemas.
    .testTarget(name: "GeneratedCodeTests", dependencies: ["SampleEvents", "EdgeCaseEvents", "TypedEvents"]),
    // Generated from Tests/EdgeCaseEvents/Schemas, in nonisolated mode, warnings as errors.
    .target(
      name: "EdgeCaseEvents",
      dependencies: ["TypedEvents"],
      path: "Tests/EdgeCaseEvents",
      exclude: ["Schemas"],
      swiftSettings: [.treatAllWarnings(as: .error)]
    ),
  ]
)
