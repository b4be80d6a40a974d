#if PostgreSQL
  import CoreMetrics
  import Foundation
  import Logging
  import PostgresNIO
  import Tracing
  import TypedEvents

  /// An `EventStore` in PostgreSQL tables: one order for every reader and every
  /// process, appends atomic with the caller's own writes, and consumer groups.
  ///
  /// ### Order
  ///
  /// Each event row keeps the id of the transaction that wrote it. A read returns only events
  /// whose transaction is older than every transaction still running on the server, ordered by
  /// (transaction id, position): a transaction that is slow to commit holds later events back
  /// until it ends instead of being overtaken and lost. Every reader and every replay sees that
  /// one order. The price is latency: delivery waits for the oldest running write transaction on
  /// the server, so never hold a transaction open while handling events.
  ///
  /// ### Exactness
  ///
  /// An event read back is `==` to the one appended: the payload is kept in a `json` column,
  /// which stores its text as given (dates inside it are `EventTimestamp` text,
  /// exact to the bit), and the envelope's time is kept as the `Date`'s own `Double` beside a
  /// `timestamptz` column, which keeps microseconds, for queries.
  ///
  /// ### Wake-ups
  ///
  /// Readers learn of new events from `NOTIFY`, sent after commit, coalesced, and never carrying
  /// the event: the event is always read from the table. ``run()`` keeps the listening
  /// connection, reconnecting with backoff and waking every reader after each reconnect so they
  /// catch up. Without it, or when a wake-up is lost, readers find new events at their next poll.
  ///
  /// ### Metrics and traces
  ///
  /// The store and its consumer groups count and time through swift-metrics
  /// (``PostgresEventStoreMetrics`` lists the names) and trace through
  /// swift-distributed-tracing: each append runs in a producer span `send <channel>` whose trace
  /// context goes into every envelope's metadata (see
  /// ``TypedEvents/EventEnvelope/addingTraceContext(_:instrument:)``), and each handler call of
  /// a group runs in a consumer span `process <group>` whose parent is that context, so a trace
  /// follows one request from the writer's transaction into the handler in another process.
  /// A process that bootstraps neither system pays for neither.
  public final class PostgresEventStore: EventStore, Sendable {
    public typealias Position = PostgresEventPosition

    /// The connection pool. Its own `run()` must be running, in a `ServiceGroup` or an app's
    /// services, or every query waits forever.
    public let client: PostgresClient
    /// The PostgreSQL schema that holds the store's tables.
    public let schema: String
    /// Where the store logs reconnects, parked events and failed wake-ups.
    public let logger: Logger

    let wakeUps = WakeUps()
    let observability: Observability
    /// Whether the INSERT of one event goes as a named prepared statement (see `init`).
    let preparesStatements: Bool
    private let notifier = Notifier()

    /// A store in `schema`, created by ``migrate()``.
    ///
    /// - Parameters:
    ///   - client: the connection pool; run it as a service.
    ///   - schema: the PostgreSQL schema for the store's tables: lowercase letters, digits and
    ///     underscores, starting with a letter or an underscore, at most 48 characters.
    ///   - logger: where the store logs what happens outside a caller's call.
    ///   - metrics: where the store and its groups report metrics; by default the factory the
    ///     process bootstrapped (`MetricsSystem.bootstrap`) before this call.
    ///   - tracer: the tracer of append and handler spans; by default the one the process
    ///     bootstrapped (`InstrumentationSystem.bootstrap`), looked up at each append and at each
    ///     batch a group reads.
    ///   - preparesStatements: whether an append of one event sends its INSERT as a named
    ///     prepared statement, which PostgreSQL parses once a connection. Pass `false` behind a
    ///     pooler that hands a session's statements to other server connections, such as
    ///     PgBouncer in transaction mode before version 1.21, or later without
    ///     `max_prepared_statements`.
    /// - Throws: ``PostgresEventStoreError/invalidSchemaName(_:)`` for any other schema name.
    public init(
      client: PostgresClient, schema: String = "typedevents", logger: Logger? = nil,
      metrics: any MetricsFactory = MetricsSystem.factory, tracer: (any Tracer)? = nil,
      preparesStatements: Bool = true
    ) throws {
      // Interpolated into SQL as an identifier, so only names that need no quoting.
      let first = schema.utf8.first
      guard let first, first == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first),
        schema.utf8.count <= 48,
        schema.utf8.allSatisfy({
          $0 == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        })
      else { throw PostgresEventStoreError.invalidSchemaName(schema) }
      self.client = client
      self.schema = schema
      self.preparesStatements = preparesStatements
      self.observability = Observability(factory: metrics, tracer: tracer, destination: "\(schema).events")
      self.logger = logger ?? Logger(label: "TypedEventsPostgres")
    }

    /// The `LISTEN`/`NOTIFY` channel of this store's wake-ups.
    public var channel: String { "\(schema).events" }

    // MARK: Appending

    /// Appends envelopes in one transaction of their own, then wakes readers.
    ///
    /// An envelope whose source and id are stored already is not stored again, so retrying an append whose
    /// commit was not confirmed stores each event once.
    ///
    /// - Throws: `EventLogError.malformed(_:)` before anything is written when an
    ///   envelope's payload is not one line of JSON, or the database's error; nothing is stored then.
    public func append(_ envelopes: [EventEnvelope]) async throws {
      guard !envelopes.isEmpty else { return }
      let logger = logger
      try await sending(envelopes) { traced in
        let statements = try self.insertStatements(traced)
        try await self.withLiveConnection { connection in
          try await connection.withTransaction(logger: logger) { connection in
            for statement in statements {
              try await self.send(statement, rows: traced.count, on: connection, logger: logger)
            }
          }
        }
      }
      await wakeReaders()
    }

    /// Sends readers a wake-up once the append that calls it has committed.
    func wakeReaders() async {
      await notifier.notify { await self.sendWakeUp() }
    }

    /// Runs `write` with `envelopes` carrying the trace context of a producer span around it,
    /// and counts them as sent.
    @discardableResult
    func sending(
      _ envelopes: [EventEnvelope], _ write: ([EventEnvelope]) async throws -> Void
    ) async throws -> [EventEnvelope] {
      let (observability, channel) = (observability, channel)
      let tracer = observability.tracer
      guard !(tracer is NoOpTracer) else {
        // No tracer: no span, and no trace context to store.
        return try await Self.counting(envelopes, observability, write)
      }
      return try await tracer.withSpan("send \(channel)", ofKind: .producer) { span in
        typealias Key = PostgresEventStoreMetrics.Key
        span.attributes[Key.system] = PostgresEventStoreMetrics.system
        span.attributes[Key.destination] = channel
        span.attributes[Key.operationName] = "send"
        span.attributes[Key.operationType] = "send"
        if envelopes.count == 1 {
          span.attributes[Key.messageID] = envelopes[0].id
          span.attributes[Key.eventType] = envelopes[0].name
        } else {
          span.attributes[Key.batchCount] = envelopes.count
        }
        let traced = envelopes.map { $0.addingTraceContext(span.context, instrument: tracer) }
        return try await Self.counting(traced, observability, write)
      }
    }

    /// Runs `write` with `envelopes` and counts them as sent, with the error type when it threw.
    private static func counting(
      _ envelopes: [EventEnvelope], _ observability: Observability, _ write: ([EventEnvelope]) async throws -> Void
    ) async throws -> [EventEnvelope] {
      do {
        try await write(envelopes)
      } catch {
        countSent(envelopes, observability, failure: error)
        throw error
      }
      countSent(envelopes, observability, failure: nil)
      return envelopes
    }

    private static func countSent(_ envelopes: [EventEnvelope], _ observability: Observability, failure: (any Error)?) {
      guard observability.measures else { return }
      typealias Key = PostgresEventStoreMetrics.Key
      let error = failure.map { [(Key.errorType, String(describing: type(of: $0)))] } ?? []
      for (name, count) in Dictionary(grouping: envelopes, by: \.name).mapValues(\.count) {
        observability.count(PostgresEventStoreMetrics.sentMessages, by: count, [(Key.eventType, name)] + error)
      }
    }

    /// Appends envelopes inside the caller's transaction on `connection`: the transactional
    /// outbox. They commit or roll back with the caller's other writes.
    ///
    /// With `notify`, the wake-up is a `NOTIFY` in the same transaction, which PostgreSQL sends
    /// only at commit and never after a rollback. It costs throughput: PostgreSQL serialises
    /// committing transactions that notified. Without it, readers find the events at their next
    /// wake-up or poll.
    ///
    /// - Parameters:
    ///   - envelopes: the envelopes to append, in order.
    ///   - connection: a connection inside a transaction (`withTransaction`); outside one, each
    ///     statement, up to 1,000 envelopes, commits by itself.
    ///   - notify: whether to wake readers when the transaction commits.
    public func append(
      _ envelopes: [EventEnvelope], on connection: PostgresConnection, notify: Bool = true
    )
      async throws
    {
      try await appendTraced(envelopes, on: connection, notify: notify)
    }

    /// ``append(_:on:notify:)``, returning the envelopes as stored, with their trace context.
    @discardableResult
    func appendTraced(
      _ envelopes: [EventEnvelope], on connection: PostgresConnection, notify: Bool
    ) async throws -> [EventEnvelope] {
      guard !envelopes.isEmpty else { return [] }
      let (logger, channel) = (logger, channel)
      return try await sending(envelopes) { traced in
        var statements = try self.insertStatements(traced)
        // The wake-up rides on the last INSERT: one statement, one round trip, not two. A
        // data-modifying `WITH` runs whether or not the rest of the statement reads it.
        if notify, let last = statements.popLast() {
          var notifying = last
          notifying.binds.append(channel)
          notifying.sql = "WITH inserted AS (\(last.sql)) SELECT pg_notify($\(last.binds.count + 1), '')"
          statements.append(notifying)
        }
        for statement in statements {
          try await self.send(statement, rows: traced.count, on: connection, logger: logger)
        }
      }
    }

    /// Appends one event inside the caller's transaction on `connection`, and returns its
    /// envelope as stored, with the trace context in its metadata; see ``append(_:on:notify:)``.
    @discardableResult
    public func append<E: Event>(
      _ event: E, metadata: [String: EventAttributeValue] = [:], on connection: PostgresConnection,
      notify: Bool = true
    ) async throws -> EventEnvelope {
      let envelope = try EventEnvelope(event, metadata: metadata)
      return try await appendTraced([envelope], on: connection, notify: notify).first ?? envelope
    }

    /// One multi-row INSERT per 1,000 envelopes (11 binds a row, PostgreSQL allows 65,535),
    /// each envelope validated first unless the caller has (`ValidatedEnvelopesAppending`).
    func insertStatements(_ envelopes: [EventEnvelope], validating: Bool = true) throws -> [PostgresQuery] {
      for envelope in envelopes {
        if validating {
          try envelope.validate()
        } else {
          envelope.assertValid()
        }
      }
      let metadataEncoder = JSONEncoder()
      metadataEncoder.outputFormatting = .sortedKeys
      var statements: [PostgresQuery] = []
      var start = envelopes.startIndex
      while start < envelopes.endIndex {
        let chunk = envelopes[start..<min(start + 1000, envelopes.endIndex)]
        var binds = PostgresBindings(capacity: chunk.count * 11)
        var rows: [String] = []
        for envelope in chunk {
          let n = binds.count
          rows.append(
            "($\(n + 1)::text, $\(n + 2)::text, $\(n + 3)::timestamptz, $\(n + 4)::float8, $\(n + 5)::text, "
              + "$\(n + 6)::integer, $\(n + 7)::text, $\(n + 8)::text, $\(n + 9)::text, $\(n + 10)::jsonb, "
              + "$\(n + 11)::json)")
          binds.append(envelope.id)
          binds.append(envelope.source)
          binds.append(envelope.time)
          binds.append(envelope.time?.timeIntervalSinceReferenceDate)
          binds.append(envelope.name)
          binds.append(envelope.version)
          binds.append(envelope.subject)
          binds.append(envelope.dataContentType)
          binds.append(envelope.dataSchema)
          binds.append(String(decoding: try metadataEncoder.encode(envelope.metadata), as: UTF8.self))
          binds.append(String(decoding: envelope.storedPayload, as: UTF8.self))
        }
        statements.append(
          PostgresQuery(
            unsafeSQL: """
              INSERT INTO \(schema).events
                (id, source, time, time_exact, name, version, subject, data_content_type, data_schema, metadata, payload)
              VALUES \(rows.joined(separator: ", ")) ON CONFLICT ((coalesce(source, '')), id) DO NOTHING
              """, binds: binds))
        start = chunk.endIndex
      }
      return statements
    }

    private func sendWakeUp() async {
      do {
        try await run("SELECT pg_notify(\(channel), '')")
      } catch {
        logger.warning("wake-up not sent; readers find the events at their next poll", metadata: ["error": "\(error)"])
      }
    }

    // MARK: Retention

    /// Deletes the events that every partition of every consumer group has checkpointed past,
    /// and returns how many.
    ///
    /// Deletes nothing while there is no group, or while a partition has not checkpointed yet.
    /// Parked events keep their own copy in the dead-letter table.
    @discardableResult
    public func prune() async throws -> Int {
      let query: PostgresQuery = """
        WITH oldest AS (
          SELECT tx, position FROM \(unescaped: schema).consumer_group_partitions
          ORDER BY tx NULLS FIRST, position NULLS FIRST LIMIT 1
        ), deleted AS (
          DELETE FROM \(unescaped: schema).events e USING oldest
          WHERE oldest.tx IS NOT NULL AND (e.tx, e.position) <= (oldest.tx, oldest.position)
          RETURNING 1
        )
        SELECT count(*) FROM deleted
        """
      let logger = logger
      return try await withLiveConnection { connection in
        var count = 0
        for try await deleted in try await connection.query(query, logger: logger).decode(Int.self) { count = deleted }
        return count
      }
    }
  }

  /// Sends one wake-up at a time; requests made while one is on its way are merged into the next.
  private actor Notifier {
    private var sending = false
    private var requested = false

    func notify(_ send: @Sendable () async -> Void) async {
      requested = true
      guard !sending else { return }
      sending = true
      while requested {
        requested = false
        await send()
      }
      sending = false
    }
  }
#endif
