// The two-process example of the DocC article "Across processes: PostgreSQL", runnable: a
// writer service that appends events in its business transactions, and a reader process that
// receives them, typed, into its bus.
//
//   swift run --traits PostgreSQL events-postgres-example writer 100
//   swift run --traits PostgreSQL events-postgres-example reader projector
//
// The server comes from TYPEDEVENTS_POSTGRES_URL (postgres://user@host:port/database); the
// store's schema from TYPEDEVENTS_SCHEMA (default "typedevents").

#if PostgreSQL
  import Foundation
  import Logging
  import PostgresNIO
  import SampleEvents
  import ServiceLifecycle
  import TypedEvents
  import TypedEventsPostgres

  /// The reader: a member of a consumer group that publishes into the process's bus, after an
  /// optional pause per event (EXAMPLE_HANDLER_DELAY_MS) that lets the tests kill it mid-batch.
  struct Projector: Service {
    let group: PostgresConsumerGroup
    let bus: EventBus
    let delay: Duration

    func run() async throws {
      // Here, not before the service group starts: queries wait for the client's run().
      try await group.store.migrate()
      printLine("reading as \(group.name)")
      try await cancelWhenGracefulShutdown {
        try await group.run { event, _ in
          if delay > .zero { try await Task.sleep(for: delay) }
          bus.publish(event)
        }
      }
    }
  }

  func printLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  func configuration() throws -> PostgresClient.Configuration {
    let url =
      ProcessInfo.processInfo.environment["TYPEDEVENTS_POSTGRES_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"
    // A loopback server: no TLS. Pass `.require(...)` for a server across a network.
    return try PostgresEventStore.clientConfiguration(url: url, tls: .disable)
  }

  struct ExampleError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  let arguments = CommandLine.arguments.dropFirst()
  let logger = Logger(label: "events-postgres-example")
  let client = PostgresClient(configuration: try configuration())
  let store = try PostgresEventStore(
    client: client, schema: ProcessInfo.processInfo.environment["TYPEDEVENTS_SCHEMA"] ?? "typedevents")

  switch (arguments.first, arguments.dropFirst().first) {
  case ("writer", let count?):
    guard let count = Int(count), count > 0 else { throw ExampleError("writer COUNT: a positive number") }
    let services = ServiceGroup(services: [client], logger: logger)
    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await services.run() }
      try await store.migrate()
      try await client.query("CREATE TABLE IF NOT EXISTS \(unescaped: store.schema).sales (listing text, price text)")
      for index in 0..<count {
        let sold = ListingSold(
          id: ListingID("l-\(index)"), price: Money(amount: Decimal(index), currency: .euro), soldAt: Date(),
          buyer: UserID(UUID()), channel: "example")
        // The business row and its event commit, or roll back, together.
        try await store.withTransaction { connection in
          try await connection.query(
            "INSERT INTO \(unescaped: store.schema).sales VALUES (\(sold.id.rawValue), \(sold.price.amount.description))",
            logger: logger)
          try await store.append(sold, on: connection)
        }
      }
      printLine("appended \(count)")
      await services.triggerGracefulShutdown()
      try await tasks.waitForAll()
    }

  case ("reader", let name?):
    let bus = EventBus()
    // An app's existing subscriber: it neither knows nor cares that the event crossed processes.
    let subscription = bus.subscribe(ListingSold.self) { sold in printLine("received \(sold.id.rawValue)") }
    let delay = ProcessInfo.processInfo.environment["EXAMPLE_HANDLER_DELAY_MS"].flatMap { Int($0) } ?? 0
    let projector = try PostgresConsumerGroup(
      store: store, name: name, catalog: GeneratedEvents.catalog, batchSize: 10, pollInterval: .milliseconds(500),
      lease: .seconds(2))
    let services = ServiceGroup(
      services: [client, store, Projector(group: projector, bus: bus, delay: .milliseconds(delay))],
      gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    try await services.run()
    withExtendedLifetime(subscription) {}

  default:
    FileHandle.standardError.write(Data("usage: events-postgres-example writer COUNT | reader GROUP\n".utf8))
    exit(2)
  }

#else
  import Foundation

  FileHandle.standardError.write(
    Data(
      "events-postgres-example needs the PostgreSQL trait: swift run --traits PostgreSQL events-postgres-example\n".utf8
    ))
  exit(2)
#endif
