import Testing

#if PostgreSQL
  import Foundation
  import Logging
  import PostgresNIO
  import TypedEvents
  import TypedEventsPostgres

  /// The server the tests use: `TYPEDEVENTS_POSTGRES_URL`, as `.ci/run` sets it, e.g.
  /// `postgres://postgres@127.0.0.1:55432/postgres`. Loopback only: tests never reach anything else.
  enum PostgresTestServer {
    static let url = ProcessInfo.processInfo.environment["TYPEDEVENTS_POSTGRES_URL"]

    static let skipReason: Comment =
      "TYPEDEVENTS_POSTGRES_URL is not set: start a throw-away server as .ci/run does (DocC article: Across processes: PostgreSQL)"

    /// The data directory and `pg_ctl`, for the tests that restart the server (as the postgres user).
    static let dataDirectory = ProcessInfo.processInfo.environment["TYPEDEVENTS_POSTGRES_DATA"]
    static let pgCtl = ProcessInfo.processInfo.environment["TYPEDEVENTS_PG_CTL"]

    static var configuration: PostgresClient.Configuration {
      get throws {
        var configuration = try PostgresEventStore.clientConfiguration(url: url ?? "", tls: .disable)
        guard let host = configuration.host, ["127.0.0.1", "localhost", "::1"].contains(host) else {
          throw ServerError("TYPEDEVENTS_POSTGRES_URL must name a loopback server: \(configuration.host ?? "")")
        }
        configuration.options.maximumConnections = 40
        return configuration
      }
    }

    struct ServerError: Error, CustomStringConvertible {
      var description: String
      init(_ description: String) { self.description = description }
    }
  }

  /// A store in a schema of its own on the test server, migrated, with its client and its
  /// listener running; the schema is dropped afterwards.
  func withStore<R: Sendable>(
    listening: Bool = true, _ body: @Sendable (PostgresEventStore) async throws -> R
  ) async throws -> R {
    let client = PostgresClient(configuration: try PostgresTestServer.configuration)
    return try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await client.run() }
      let schema = "test_" + UUID().uuidString.lowercased().filter { $0 != "-" }.prefix(24)
      let store = try PostgresEventStore(client: client, schema: String(schema))
      try await store.migrate()
      if listening { group.addTask { try await store.run() } }
      do {
        let result = try await body(store)
        try await client.query("DROP SCHEMA \(unescaped: store.schema) CASCADE")
        group.cancelAll()
        return result
      } catch {
        group.cancelAll()
        throw error
      }
    }
  }

  /// Waits until `condition` holds, up to `seconds` (a bound on a hang, not a timing assertion).
  func eventually(seconds: Int = 30, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while try await !condition() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
  }

  /// Runs `body` until it succeeds, up to 50 times 100 ms apart, as an app retries: right after
  /// a backend was terminated, the pool may still hand out its closed connection once.
  @discardableResult func retrying<R: Sendable>(_ body: () async throws -> R) async throws -> R {
    for _ in 1..<50 {
      if let result = try? await body() { return result }
      try await Task.sleep(for: .milliseconds(100))
    }
    return try await body()
  }

  /// Values appended from any task.
  actor Collected<Value: Sendable> {
    private(set) var all: [Value] = []
    func append(_ value: Value) { all.append(value) }
    var count: Int { all.count }
  }
#else
  @Suite struct PostgresTraitOff {
    @Test(
      .disabled(
        "built without the PostgreSQL trait: swift test --traits PostgreSQL (DocC article: Across processes: PostgreSQL)"
      ))
    func postgresTestsNeedTheTrait() {}
  }
#endif
