// swift-tools-version: 6.2
// The HTTP endpoint's tests, in a package of their own: the only one that enables the HTTPServer
// trait, so that nothing else (not the main package's tests, nor CI's other steps) builds
// Hummingbird or AsyncHTTPClient.
import PackageDescription

let package = Package(
  name: "TypedEventsHTTPServerTests",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "TypedEvents", path: "../..", traits: ["HTTPServer"]),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
  ],
  targets: [
    // A board's notes: events with a subject, generated at build time by the build-tool plugin.
    .target(
      name: "BoardEvents",
      dependencies: [.product(name: "TypedEvents", package: "TypedEvents")],
      exclude: ["eventgen-config.yaml"],
      swiftSettings: [.treatAllWarnings(as: .error)],
      plugins: [.plugin(name: "EventGenPlugin", package: "TypedEvents")]
    ),
    .testTarget(
      name: "HTTPServerTests",
      dependencies: [
        "BoardEvents",
        .product(name: "TypedEvents", package: "TypedEvents"),
        .product(name: "TypedEventsHTTPServer", package: "TypedEvents"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
