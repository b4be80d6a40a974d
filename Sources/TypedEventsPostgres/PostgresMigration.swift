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
          id uuid NOT NULL UNIQUE,
          time timestamptz NOT NULL,
          time_exact float8 NOT NULL,
          name text NOT NULL,
          version integer NOT NULL,
          subject text,
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
          event_id uuid NOT NULL,
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
