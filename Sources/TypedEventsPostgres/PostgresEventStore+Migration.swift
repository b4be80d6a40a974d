#if PostgreSQL
  import Logging
  import PostgresNIO

  /// The layouts of a store's tables, as numbered steps.
  ///
  /// A store records the steps it has run in `<schema>.schema_migrations`; ``migrate()`` runs
  /// those it has not, in order, in one transaction. A released step is never edited: a release
  /// that changes the tables appends a step.
  extension PostgresEventStore {
    /// One step: the layout version it brings a store to, and the statements that do it.
    struct Migration: Sendable {
      var version: Int
      var statements: [String]
    }

    /// The layout ``migrate()`` brings a store to: the number of the last step this version of
    /// the library has. A store another version migrated further is refused
    /// (``PostgresEventStoreError/newerLayout(schema:version:known:)``).
    public static var layoutVersion: Int { migrations(schema: "typedevents").count }

    /// Every step, numbered from 1 without gaps. Version 1 is the first release's layout.
    static func migrations(schema: String) -> [Migration] {
      [
        Migration(version: 1, statements: firstLayout(schema: schema)),
        Migration(version: 2, statements: identities(schema: schema)),
      ]
    }

    /// Layout 2: an event's identity is its `source` and `id`, as CloudEvents makes it, not its
    /// `id` alone: a principal that may append could otherwise take another producer's id first.
    /// No source counts as the empty one, as `EventLog` counts it; a parked event is known by
    /// its position. And the store's own identity, made once (``storeIdentity()``), which
    /// position tokens carry.
    static func identities(schema: String) -> [String] {
      [
        "ALTER TABLE \(schema).events DROP CONSTRAINT events_id_key",
        "CREATE UNIQUE INDEX events_identity ON \(schema).events ((coalesce(source, '')), id)",
        // A parked event is known by where it is: two events of one id from two sources are two.
        "ALTER TABLE \(schema).dead_letters DROP CONSTRAINT dead_letters_pkey",
        "ALTER TABLE \(schema).dead_letters ADD PRIMARY KEY (group_name, tx, position)",
        "CREATE TABLE \(schema).store_identity (identity text NOT NULL)",
        "INSERT INTO \(schema).store_identity (identity) SELECT gen_random_uuid()::text",
      ]
    }

    /// Creates the store's schema and tables, or brings them to this version's layout; running
    /// it again, or from several processes at once, changes nothing.
    ///
    /// - Throws: ``PostgresEventStoreError/unversionedStore(schema:)`` when the schema holds
    ///   tables that no released version made (a build before the first release), and
    ///   ``PostgresEventStoreError/newerLayout(schema:version:known:)`` when a newer version of
    ///   this library migrated the store.
    public func migrate() async throws {
      let (logger, channel, schema) = (logger, channel, schema)
      let steps = Self.migrations(schema: schema)
      do {
        try await run(steps, logger: logger, channel: channel, schema: schema)
      } catch let error as PostgresTransactionError {
        // The store's own refusals come out as themselves, not wrapped in the rolled-back
        // transaction that found them, unless the rollback failed too.
        if error.rollbackError == nil, let refusal = error.closureError as? PostgresEventStoreError { throw refusal }
        throw error
      }
    }

    /// Runs the steps the store has not run, in one transaction.
    private func run(_ steps: [Migration], logger: Logger, channel: String, schema: String) async throws {
      try await withLiveConnection { connection in
        try await connection.withTransaction(logger: logger) { connection in
          // Serialises concurrent migrations: two would both see a step as not run otherwise.
          try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(channel)))", logger: logger)
          try await connection.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"), logger: logger)
          try await connection.query(
            PostgresQuery(
              unsafeSQL: """
                CREATE TABLE IF NOT EXISTS \(schema).schema_migrations (
                  version integer PRIMARY KEY,
                  applied timestamptz NOT NULL DEFAULT now()
                )
                """), logger: logger)
          var stored = 0
          var hasEvents = false
          let rows = try await connection.query(
            """
            SELECT coalesce(max(version), 0),
              to_regclass(\(schema + ".events")) IS NOT NULL AND to_regclass(\(schema + ".consumer_groups")) IS NOT NULL
            FROM \(unescaped: schema).schema_migrations
            """, logger: logger)
          for try await (version, events) in rows.decode((Int, Bool).self) { (stored, hasEvents) = (version, events) }
          if stored == 0 && hasEvents { throw PostgresEventStoreError.unversionedStore(schema: schema) }
          let known = steps.last?.version ?? 0
          if stored > known { throw PostgresEventStoreError.newerLayout(schema: schema, version: stored, known: known) }
          for step in steps where step.version > stored {
            for statement in step.statements {
              try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            try await connection.query(
              "INSERT INTO \(unescaped: schema).schema_migrations (version) VALUES (\(step.version))", logger: logger)
          }
        }
      }
    }

    /// Layout 1: the events in their one order, consumer groups in partitions with their
    /// members, and parked events.
    static func firstLayout(schema: String) -> [String] {
      [
        // tx: the writing transaction's id, the first key of the one order (PostgreSQL 13+).
        // time keeps microseconds for queries; time_exact is the Date's own Double.
        // payload is json, not jsonb: json keeps the text as written, jsonb reorders keys.
        // subject_hash: the subject's MD5, its first 4 bytes read as a big-endian integer with
        // the top bit cleared, the same on every server and in every language. A group of N
        // partitions delivers an event in partition subject_hash % N; an event without a
        // subject has none, and goes to partition 0.
        """
        CREATE TABLE \(schema).events (
          position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
          id text NOT NULL UNIQUE,
          source text,
          time timestamptz,
          time_exact float8,
          name text NOT NULL,
          version integer NOT NULL,
          subject text,
          data_content_type text,
          data_schema text,
          metadata jsonb NOT NULL DEFAULT '{}',
          payload json NOT NULL,
          subject_hash integer
            GENERATED ALWAYS AS ((('x' || substr(md5(subject), 1, 8))::bit(32)::integer) & 2147483647) STORED
        )
        """,
        "CREATE INDEX events_order ON \(schema).events (tx, position)",
        """
        CREATE TABLE \(schema).consumer_groups (
          name text PRIMARY KEY,
          partitions integer NOT NULL DEFAULT 1
        )
        """,
        // A partition's checkpoint and its lease.
        """
        CREATE TABLE \(schema).consumer_group_partitions (
          group_name text NOT NULL REFERENCES \(schema).consumer_groups (name) ON DELETE CASCADE,
          partition integer NOT NULL,
          tx xid8,
          position bigint,
          owner uuid,
          lease_expires timestamptz,
          updated timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (group_name, partition)
        )
        """,
        """
        CREATE TABLE \(schema).consumer_group_members (
          group_name text NOT NULL REFERENCES \(schema).consumer_groups (name) ON DELETE CASCADE,
          member uuid NOT NULL,
          expires timestamptz NOT NULL,
          PRIMARY KEY (group_name, member)
        )
        """,
        // A parked event keeps a copy of its envelope (CloudEvents JSON), so pruning cannot lose it.
        """
        CREATE TABLE \(schema).dead_letters (
          group_name text NOT NULL,
          event_id text NOT NULL,
          tx xid8 NOT NULL,
          position bigint NOT NULL,
          name text NOT NULL,
          subject text,
          attempts integer NOT NULL,
          error text NOT NULL,
          envelope json NOT NULL,
          parked timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (group_name, event_id)
        )
        """,
      ]
    }
  }
#endif
