// swift-tools-version: 6.2
import PackageDescription

/// What the PostgreSQL store needs, only when the PostgreSQL trait is enabled.
let postgresDependencies: [Target.Dependency] = [
  .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
  .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["PostgreSQL"])),
  .product(name: "Logging", package: "swift-log", condition: .when(traits: ["PostgreSQL"])),
  .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["PostgreSQL"])),
  .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["PostgreSQL"])),
]

/// What the HTTP endpoint needs, only when the HTTPServer trait is enabled.
let httpServerDependencies: [Target.Dependency] = [
  .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["HTTPServer"])),
  // The request context's authenticated identity, and bearer tokens.
  .product(name: "HummingbirdAuth", package: "hummingbird-auth", condition: .when(traits: ["HTTPServer"])),
  .product(name: "Logging", package: "swift-log", condition: .when(traits: ["HTTPServer"])),
  .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["HTTPServer"])),
  .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["HTTPServer"])),
  .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["HTTPServer"])),
]

/// What the app-side HTTP client needs, only when the HTTPClient trait is enabled.
let httpClientDependencies: [Target.Dependency] = [
  .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["HTTPClient"])),
  .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["HTTPClient"])),
  .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["HTTPClient"])),
  .product(name: "NIOFoundationCompat", package: "swift-nio", condition: .when(traits: ["HTTPClient"])),
]

let package = Package(
  name: "TypedEvents",
  // The runtime's floor on Apple platforms: iOS 15 and macOS 12 apps can adopt it.
  platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
  products: [
    .library(name: "TypedEvents", targets: ["TypedEvents"]),
    .executable(name: "eventgen", targets: ["eventgen"]),
    .plugin(name: "EventGenPlugin", targets: ["EventGenPlugin"]),
    .plugin(name: "GenerateEventsCommand", targets: ["GenerateEventsCommand"]),
    // Empty unless the PostgreSQL trait is enabled.
    .library(name: "TypedEventsPostgres", targets: ["TypedEventsPostgres"]),
    // Empty unless the HTTPServer trait is enabled.
    .library(name: "TypedEventsHTTPServer", targets: ["TypedEventsHTTPServer"]),
    // Empty unless the HTTPClient trait is enabled.
    .library(name: "TypedEventsHTTPClient", targets: ["TypedEventsHTTPClient"]),
  ],
  traits: [
    // Off by default: a package that does not enable it never resolves postgres-nio (SwiftPM
    // leaves dependencies that only disabled traits use out of resolution).
    .trait(
      name: "PostgreSQL",
      description: "The TypedEventsPostgres product: an event store, outbox and consumer groups on PostgreSQL."),
    // Off by default as well: only a package that enables it resolves Hummingbird.
    .trait(
      name: "HTTPServer",
      description:
        "The TypedEventsHTTPServer product: a store's events over HTTP (Server-Sent Events, pages, CloudEvents POST) on Hummingbird."
    ),
    // Off by default as well: only a package that enables it builds AsyncHTTPClient (HTTPServer
    // resolves it too: Hummingbird's testing library uses it).
    .trait(
      name: "HTTPClient",
      description:
        "The TypedEventsHTTPClient product: an app's side of the HTTP endpoint (typed event streams that resume, an offline outbox) on AsyncHTTPClient."
    ),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    // Without its default traits: swift-configuration support is not needed here.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0", traits: []),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
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
    // Compares two versions of a validated schema set: which changes break which readers.
    .target(name: "SchemaEvolution", dependencies: ["EventSchema"]),
    // Validated schema model → the contract as AsyncAPI 3.0 and JSON Schema documents.
    .target(name: "ContractExport", dependencies: ["EventSchema"]),
    // One run of the generator: finds inputs, names outputs, writes or compares them.
    .target(
      name: "EventGenDriver", dependencies: ["EventSchema", "EventCodegen", "SchemaEvolution", "ContractExport"]),
    // The command-line tool, a thin layer of argument parsing over the driver.
    .executableTarget(
      name: "eventgen",
      dependencies: [
        "EventGenDriver",
        "EventSchema",
        "EventCodegen",
        "SchemaEvolution",
        "ContractExport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // Build-tool plugin: generates a target's *.events.yaml at build time.
    .plugin(name: "EventGenPlugin", capability: .buildTool(), dependencies: ["eventgen"]),
    // Command plugin: `swift package generate-events [--target T] [--check]` for checked-in sources.
    .plugin(
      name: "GenerateEventsCommand",
      capability: .command(
        intent: .custom(
          verb: "generate-events", description: "Generate Swift from the event schemas of the package's targets."),
        permissions: [
          .writeToPackageDirectory(reason: "To write the generated Swift files into the package's targets.")
        ]
      ),
      dependencies: ["eventgen"]
    ),
    // The runtime that app code imports; it depends on nothing but the toolchain.
    .target(name: "TypedEvents", dependencies: ["CTypedEventsRuntime"]),
    // The event store on PostgreSQL: migration, fenced reads, outbox appends, consumer groups.
    .target(
      name: "TypedEventsPostgres",
      dependencies: ["TypedEvents", "EventLoopExecutor"] + postgresDependencies + [
        // Its error says the pool has shut down: no retry can succeed after that.
        .product(name: "_ConnectionPoolModule", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"]))
      ]),
    // A store's events over HTTP: Server-Sent Events, pages and CloudEvents POST, on Hummingbird.
    .target(
      name: "TypedEventsHTTPServer", dependencies: ["TypedEvents", "EventLoopExecutor"] + httpServerDependencies),
    // A SwiftNIO event loop as a task executor, for the two modules above.
    .target(
      name: "EventLoopExecutor",
      dependencies: [
        .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["PostgreSQL", "HTTPServer"]))
      ]),
    // An app's side of that endpoint: typed event streams that resume, and an offline outbox.
    .target(name: "TypedEventsHTTPClient", dependencies: ["TypedEvents"] + httpClientDependencies),
    // Word-sized atomics for the bus's hot path (Synchronization.Atomic needs macOS 15).
    .target(name: "CTypedEventsRuntime"),

    // The sample schemas' generated Swift, checked in; tests keep it current. Built as an app
    // target would be: default main-actor isolation, every warning an error.
    .target(
      name: "SampleEvents",
      dependencies: ["TypedEvents"],
      exclude: ["Generated/README.md", "eventgen-config.yaml"],
      swiftSettings: [.defaultIsolation(MainActor.self), .treatAllWarnings(as: .error)]
    ),

    // Generated at build time from its own Session.events.yaml by the build-tool plugin.
    .target(name: "SessionEvents", dependencies: ["TypedEvents"], plugins: ["EventGenPlugin"]),
    // `swift run events-example`: the four sample scenarios with the bus.
    .executableTarget(
      name: "events-example", dependencies: ["SampleEvents", "SessionEvents", "TypedEvents"],
      path: "Sources/EventsExample"),

    // The two-process example of the DocC article "Across processes: PostgreSQL"; prints how to
    // enable the trait when built without it.
    .executableTarget(
      name: "events-postgres-example",
      dependencies: ["TypedEventsPostgres", "SampleEvents", "TypedEvents"] + postgresDependencies,
      path: "Sources/PostgresExample"),

    // Events to every client (README): a server, a reader and a publisher with an offline
    // outbox; prints how to enable the traits when built without them.
    .executableTarget(
      name: "events-http-example",
      dependencies: [
        "TypedEventsHTTPServer", "TypedEventsHTTPClient", "TypedEventsPostgres", "SampleEvents", "TypedEvents",
      ]
        + httpServerDependencies + [
          .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"]))
        ],
      path: "Sources/HTTPExample",
      // The OpenAPI description it serves, which `eventgen openapi Schemas` writes.
      resources: [.copy("openapi.json")]),

    // FuzzRegressions/ holds inputs that Scripts/fuzz found; the tests read them from disk.
    .testTarget(name: "EventSchemaTests", dependencies: ["EventSchema"], exclude: ["FuzzRegressions"]),
    .testTarget(name: "SchemaEvolutionTests", dependencies: ["EventSchema", "SchemaEvolution"]),
    .testTarget(
      name: "EventCodegenTests", dependencies: ["EventSchema", "EventCodegen", "EventGenDriver", "TestSupport"]),
    // The driver and the command line: inputs, the pipeline, writing and checking output, the diff.
    .testTarget(
      name: "EventGenDriverTests",
      dependencies: ["EventGenDriver", "EventSchema", "EventCodegen", "ContractExport", "TestSupport"]),
    // Golden/ holds the exported documents of the samples and the edge cases.
    .testTarget(
      name: "ContractExportTests",
      dependencies: ["ContractExport", "EventSchema", "EventCodegen", "EventGenDriver", "TestSupport"],
      exclude: ["Golden"]),
    .testTarget(name: "TypedEventsTests", dependencies: ["TypedEvents", "TestSupport"]),
    // Compiles and runs the generated code of the samples and of the edge-case schemas.
    .testTarget(
      name: "GeneratedCodeTests",
      dependencies: [
        "SampleEvents", "EdgeCaseEvents", "BackendEvents", "TypedEvents", "TestSupport", "AllocationCounting",
        "MainActorClient",
      ]),
    // Runtime scenarios that need a process of their own: a deadlock that must time out instead
    // of hanging the tests, and a heap measurement that parallel tests would disturb.
    .executableTarget(
      name: "runtime-scenarios", dependencies: ["TypedEvents", "SampleEvents", "HeapInUse"],
      path: "Tests/RuntimeScenarios"),
    .target(name: "HeapInUse", path: "Tests/HeapInUse"),
    .testTarget(name: "RuntimeScenarioTests", dependencies: ["runtime-scenarios", "TestSupport"]),
    // An app-like target: default main-actor isolation, warnings as errors, subscribing through
    // every form with handlers that touch main-actor state.
    .target(
      name: "MainActorClient",
      dependencies: ["SampleEvents", "TypedEvents"],
      path: "Tests/MainActorClient",
      swiftSettings: [.defaultIsolation(MainActor.self), .treatAllWarnings(as: .error)]
    ),
    // What more than one test target needs: a seeded random generator.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    // Counts a thread's heap allocations (malloc defined in the test executable; off under sanitizers).
    .target(name: "AllocationCounting", path: "Tests/AllocationCounting"),
    // Generated from Tests/EdgeCaseEvents/Schemas, in nonisolated mode, warnings as errors.
    .target(
      name: "EdgeCaseEvents",
      dependencies: ["TypedEvents"],
      path: "Tests/EdgeCaseEvents",
      exclude: ["Schemas", "eventgen-config.yaml"],
      swiftSettings: [.treatAllWarnings(as: .error)]
    ),
    // Generated from a hand-written AsyncAPI document of the samples' listing and inventory
    // events, as a backend team would write it; warnings as errors.
    .target(
      name: "BackendEvents",
      dependencies: ["TypedEvents"],
      path: "Tests/BackendEvents",
      exclude: ["Contract", "eventgen-config.yaml"],
      swiftSettings: [.treatAllWarnings(as: .error)]
    ),
  ]
)

// swift-docc-plugin only to build the documentation (README: Documentation), so that packages
// that depend on TypedEvents never resolve it.
if Context.environment["TYPEDEVENTS_DOCS"] != nil {
  package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
