// swift-tools-version: 6.2
// The tests that need a server: the PostgreSQL store against a real PostgreSQL, and the HTTP
// endpoint and its client over loopback. A package of its own, the only one that enables the
// traits PostgreSQL, HTTPServer and HTTPClient: only it builds postgres-nio, Hummingbird and
// AsyncHTTPClient, and it builds SwiftNIO once for all of them. The main package's tests build
// none of it.
//
// SampleEvents, TestSupport and the PostgreSQL example are the main package's own folders, linked
// here (Sources/SampleEvents, Tests/TestSupport, Sources/PostgresExample): one copy of each.
import PackageDescription

/// The trait's code is compiled in here too: `#if PostgreSQL` guards it in the linked folders.
let postgreSQL: [SwiftSetting] = [.define("PostgreSQL")]

/// What the PostgreSQL store's clients use, as the main package names it.
let postgres: [Target.Dependency] = [
  .product(name: "TypedEventsPostgres", package: "TypedEvents"),
  .product(name: "PostgresNIO", package: "postgres-nio"),
  .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
  .product(name: "Logging", package: "swift-log"),
  .product(name: "CoreMetrics", package: "swift-metrics"),
  .product(name: "Tracing", package: "swift-distributed-tracing"),
]

let package = Package(
  name: "TypedEventsIntegration",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "TypedEvents", path: "../..", traits: ["PostgreSQL", "HTTPServer", "HTTPClient"]),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
    // Only for the test that plugs a JSON Web Token check into a bearer access policy.
    .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
  ],
  targets: [
    // The sample schemas' checked-in Swift (the main package's Sources/SampleEvents), built with
    // the main package's settings.
    .target(
      name: "SampleEvents",
      dependencies: [.product(name: "TypedEvents", package: "TypedEvents")],
      exclude: ["Generated/README.md", "eventgen-config.yaml"],
      swiftSettings: [.defaultIsolation(MainActor.self), .treatAllWarnings(as: .error)]
    ),
    // A seeded random generator and child processes (the main package's Tests/TestSupport).
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    // The article's two-process example (the main package's Sources/PostgresExample): the process
    // tests run it as writer and readers.
    .executableTarget(
      name: "events-postgres-example",
      dependencies: ["SampleEvents", .product(name: "TypedEvents", package: "TypedEvents")] + postgres,
      path: "Sources/PostgresExample",
      swiftSettings: postgreSQL),
    // The HTTP example (the main package's Sources/HTTPExample): the process tests run it as
    // server, reader and publisher.
    .executableTarget(
      name: "events-http-example",
      dependencies: [
        "SampleEvents",
        .product(name: "TypedEvents", package: "TypedEvents"),
        .product(name: "TypedEventsHTTPServer", package: "TypedEvents"),
        .product(name: "TypedEventsHTTPClient", package: "TypedEvents"),
        .product(name: "Hummingbird", package: "hummingbird"),
      ] + postgres,
      path: "Sources/HTTPExample",
      resources: [.copy("openapi.json")],
      swiftSettings: postgreSQL + [.define("HTTPServer"), .define("HTTPClient")]),
    // The HTTP benchmarks (Benchmarks/HTTP, linked as Sources/HTTPBenchmarks): built here in
    // debug, where CI runs them at tiny sizes; Benchmarks/http.sh runs them in release.
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
      path: "Sources/HTTPBenchmarks"),
    // A member of a partitioned consumer group that logs what it handles: the fault test runs
    // several as child processes and kills them.
    .executableTarget(
      name: "postgres-group-member",
      dependencies: ["SampleEvents", .product(name: "TypedEvents", package: "TypedEvents")] + postgres,
      path: "Tests/PostgresGroupMember",
      swiftSettings: postgreSQL),
    // Against a real server named by TYPEDEVENTS_POSTGRES_URL (DocC article "Across processes:
    // PostgreSQL"); skipped with a reason without one.
    .testTarget(
      name: "TypedEventsPostgresTests",
      dependencies: ["SampleEvents", "TestSupport", .product(name: "TypedEvents", package: "TypedEvents")] + postgres
        + [
          .product(name: "MetricsTestKit", package: "swift-metrics"),
          .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
          .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ],
      swiftSettings: postgreSQL),

    // A board's notes: events with a subject, generated from Schemas/ into Generated/ and checked
    // in (`eventgen check --config` in CI): the build-tool plugin would build eventgen here too.
    .target(
      name: "BoardEvents",
      dependencies: [.product(name: "TypedEvents", package: "TypedEvents")],
      exclude: ["eventgen-config.yaml", "Schemas"],
      swiftSettings: [.treatAllWarnings(as: .error)]
    ),
    // The HTTP endpoint and its client over loopback, against a real Hummingbird server.
    .testTarget(
      name: "HTTPServerTests",
      dependencies: [
        "BoardEvents",
        "TestSupport",
        .product(name: "TypedEvents", package: "TypedEvents"),
        .product(name: "TypedEventsHTTPServer", package: "TypedEvents"),
        .product(name: "TypedEventsHTTPClient", package: "TypedEvents"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
        .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// swift-docc-plugin only to build TypedEventsPostgres' documentation here, where its build is.
if Context.environment["TYPEDEVENTS_DOCS"] != nil {
  package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
