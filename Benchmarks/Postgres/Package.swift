// swift-tools-version: 6.2
// The PostgreSQL benchmarks, in a package of their own: the only one that enables the
// PostgreSQL trait, so the other benchmarks (and CI's smoke run of them) never build postgres-nio.
import PackageDescription

let package = Package(
  name: "TypedEventsPostgresBenchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "TypedEvents", path: "../..", traits: ["PostgreSQL"]),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
  ],
  targets: [
    .executableTarget(
      name: "typed-events-postgres-benchmarks",
      dependencies: [
        .product(name: "TypedEvents", package: "TypedEvents"),
        .product(name: "TypedEventsPostgres", package: "TypedEvents"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ],
      path: "Sources/TypedEventsPostgresBenchmarks"
    )
  ]
)
