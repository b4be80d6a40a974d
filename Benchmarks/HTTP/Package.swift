// swift-tools-version: 6.2
// The HTTP benchmarks (Benchmarks/http.sh runs them in release), in a package of their own: the
// only benchmarks that enable the traits HTTPServer and HTTPClient, so the others never build
// Hummingbird or AsyncHTTPClient. PostgreSQL too, for the batch append on that store.
// Integration/Network links the same folder and builds it in debug, where CI runs a smoke run
// of it.
import PackageDescription

let package = Package(
  name: "TypedEventsHTTPBenchmarks",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "TypedEvents", path: "../..", traits: ["HTTPServer", "HTTPClient", "PostgreSQL"]),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
  ],
  targets: [
    .executableTarget(
      name: "typed-events-http-benchmarks",
      dependencies: [
        .product(name: "TypedEvents", package: "TypedEvents"),
        .product(name: "TypedEventsHTTPServer", package: "TypedEvents"),
        .product(name: "TypedEventsHTTPClient", package: "TypedEvents"),
        .product(name: "TypedEventsPostgres", package: "TypedEvents"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Sources/HTTPBenchmarks"
    )
  ]
)
