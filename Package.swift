// swift-tools-version: 6.0
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
    // One run of the generator: finds inputs, names outputs, writes or compares them.
    .target(name: "EventGenDriver", dependencies: ["EventSchema"]),
    // The command-line tool, a thin layer of argument parsing over the driver.
    .executableTarget(
      name: "eventgen",
      dependencies: [
        "EventGenDriver",
        "EventSchema",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The runtime that app code imports; it depends on nothing but the toolchain.
    .target(name: "TypedEvents"),

    .testTarget(name: "EventSchemaTests", dependencies: ["EventSchema"]),
  ]
)
