// A member of a partitioned consumer group, run as a child process by the fault test
// (`Tests/TypedEventsPostgresTests/PartitionFaultTests.swift`):
//
//   postgres-group-member GROUP PARTITIONS HANDLER_DELAY_MS
//
// It prints one line per event it handles, `handled NANOSECONDS ID SUBJECT TITLE`, written
// unbuffered so that a SIGKILL loses none, and stops gracefully on SIGTERM. The server comes
// from TYPEDEVENTS_POSTGRES_URL, the store's schema from TYPEDEVENTS_SCHEMA.

#if PostgreSQL
  import Foundation
  import Logging
  import PostgresNIO
  import SampleEvents
  import ServiceLifecycle
  import TypedEvents
  import TypedEventsPostgres

  struct Member: Service {
    let group: PostgresConsumerGroup
    let delay: Duration

    func run() async throws {
      printLine("joined \(group.name)")
      try await cancelWhenGracefulShutdown {
        try await group.run(BoxProvisioned.self) { box, delivery in
          if delay > .zero { try await Task.sleep(for: delay) }
          let now = Date().timeIntervalSince1970
          let envelope = delivery.envelope
          printLine("handled \(Int64(now * 1e9)) \(envelope.id) \(envelope.subject ?? "-") \(box.title)")
        }
      }
      printLine("left \(group.name)")
    }
  }

  func printLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  let arguments = Array(CommandLine.arguments.dropFirst())
  guard arguments.count == 3, let partitions = Int(arguments[1]), let delay = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: postgres-group-member GROUP PARTITIONS HANDLER_DELAY_MS\n".utf8))
    exit(2)
  }
  let environment = ProcessInfo.processInfo.environment
  let client = PostgresClient(
    configuration: try PostgresEventStore.clientConfiguration(
      url: environment["TYPEDEVENTS_POSTGRES_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres", tls: .disable))
  let store = try PostgresEventStore(client: client, schema: environment["TYPEDEVENTS_SCHEMA"] ?? "typedevents")
  let group = try PostgresConsumerGroup(
    store: store, name: arguments[0], catalog: GeneratedEvents.catalog, batchSize: 10,
    pollInterval: .milliseconds(200), lease: .seconds(2), partitions: partitions)
  let services = ServiceGroup(
    services: [client, store, Member(group: group, delay: .milliseconds(delay))],
    gracefulShutdownSignals: [.sigterm], logger: Logger(label: "postgres-group-member"))
  try await services.run()
#else
  import Foundation

  FileHandle.standardError.write(Data("postgres-group-member needs the PostgreSQL trait\n".utf8))
  exit(2)
#endif
