#if PostgreSQL
  /// The statements that create a store's tables, each safe to run again.
  enum PostgresMigration {
    static func statements(schema: String) -> [String] {
      [
        "CREATE SCHEMA IF NOT EXISTS \(schema)",
        // tx: the writing transaction's id, the first key of the one order (PostgreSQL 13+).
        // time keeps microseconds for queries; time_exact is the Date's own Double.
        // payload is json, not jsonb: json keeps the text as written, jsonb reorders keys.
        """
        CREATE TABLE IF NOT EXISTS \(schema).events (
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
          payload json NOT NULL
        )
        """,

        "CREATE INDEX IF NOT EXISTS events_order ON \(schema).events (tx, position)",
        // One row per group: its checkpoint (null before the first) and the member holding its lease.
        """
        CREATE TABLE IF NOT EXISTS \(schema).consumer_groups (
          name text PRIMARY KEY,
          tx xid8,
          position bigint,
          owner uuid,
          lease_expires timestamptz,
          updated timestamptz NOT NULL DEFAULT now()
        )
        """,
        // A parked event keeps a copy of its envelope (CloudEvents JSON), so pruning cannot lose it.
        """
        CREATE TABLE IF NOT EXISTS \(schema).dead_letters (
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
      ] + upgradeToCloudEventsEnvelope(schema: schema)
    }

    /// Brings a store made before envelopes carried any CloudEvent (ids were UUIDs, every event
    /// had a time, no source) to today's tables; each statement is a no-op on a current store.
    ///
    /// Ids become text as Swift wrote them, `UUID.uuidString` (upper case), so that envelopes
    /// read back `==` to those appended before.
    static func upgradeToCloudEventsEnvelope(schema: String) -> [String] {
      let textIDs = [("events", "id"), ("dead_letters", "event_id")].map { table, column in
        """
        DO $$ BEGIN
          IF (SELECT data_type FROM information_schema.columns
              WHERE table_schema = '\(schema)' AND table_name = '\(table)' AND column_name = '\(column)') = 'uuid' THEN
            ALTER TABLE \(schema).\(table) ALTER COLUMN \(column) TYPE text USING upper(\(column)::text);
          END IF;
        END $$
        """
      }
      return textIDs + [
        "ALTER TABLE \(schema).events ADD COLUMN IF NOT EXISTS source text",
        "ALTER TABLE \(schema).events ADD COLUMN IF NOT EXISTS data_content_type text",
        "ALTER TABLE \(schema).events ADD COLUMN IF NOT EXISTS data_schema text",
        "ALTER TABLE \(schema).events ALTER COLUMN time DROP NOT NULL",
        "ALTER TABLE \(schema).events ALTER COLUMN time_exact DROP NOT NULL",
      ]
    }
  }
#endif
