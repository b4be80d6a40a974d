// swift-tools-version: 6.2
// The runtime under Thread Sanitizer and AddressSanitizer, in a package of its own: a sanitized
// build of the main package builds every target it has (the generator, its tests, every
// generated sample) before it can run the runtime's tests. This package builds only those tests
// and what they need.
//
// Every folder and file here is the main package's own, linked: TypedEventsTests, the two
// generated-code suites the ASan step runs, and the targets they need. One copy of each.
import PackageDescription

let package = Package(
  name: "TypedEventsSanitizers",
  platforms: [.macOS(.v13)],
  dependencies: [.package(name: "TypedEvents", path: "../..")],
  targets: [
    .target(name: "TestSupport"),
    // The samples' checked-in Swift, with the main package's settings.
    .target(
      name: "SampleEvents",
      dependencies: [.product(name: "TypedEvents", package: "TypedEvents")],
      exclude: ["Generated/README.md", "eventgen-config.yaml"],
      swiftSettings: [.defaultIsolation(MainActor.self), .treatAllWarnings(as: .error)]
    ),
    .target(
      name: "EdgeCaseEvents",
      dependencies: [.product(name: "TypedEvents", package: "TypedEvents")],
      exclude: ["Schemas", "eventgen-config.yaml"],
      swiftSettings: [.treatAllWarnings(as: .error)]
    ),
    .testTarget(
      name: "TypedEventsTests", dependencies: ["TestSupport", .product(name: "TypedEvents", package: "TypedEvents")]),
    // FieldEqualityTests and UserInfoRoundTripTests of the main package's GeneratedCodeTests, and
    // the fixtures they use.
    .testTarget(
      name: "GeneratedCodeTests",
      dependencies: ["SampleEvents", "EdgeCaseEvents", .product(name: "TypedEvents", package: "TypedEvents")]),
  ],
  swiftLanguageModes: [.v6]
)
