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
        // One row per group. Its checkpoint and lease columns are those of stores before
        // partitions; consumer_group_partitions holds them now.
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
      ] + upgradeToCloudEventsEnvelope(schema: schema) + upgradeToPartitionedGroups(schema: schema)
    }

    /// The owner a group's own row shows once its leases live in `consumer_group_partitions`,
    /// with a lease that never ends: a member of an earlier version, which leases the group's
    /// row, then stands by instead of delivering beside members of this one.
    static let retiredGroupOwner = "00000000-0000-0000-0000-000000000000"

    /// Partitioned consumer groups: a partition number for every event, a row per partition of
    /// a group (its checkpoint and its lease) and a row per live member. A group of an earlier
    /// store becomes a group of one partition with its checkpoint and its lease; each statement
    /// is a no-op on a current store.
    static func upgradeToPartitionedGroups(schema: String) -> [String] {
      [
        // The first 31 bits of the subject's MD5: stable across servers, versions and
        // languages. A group of N partitions delivers event e in partition subject_hash % N;
        // events without a subject have none, and go to partition 0.
        """
        ALTER TABLE \(schema).events ADD COLUMN IF NOT EXISTS subject_hash integer
          GENERATED ALWAYS AS ((('x' || substr(md5(subject), 1, 8))::bit(32)::integer) & 2147483647) STORED
        """,
        "ALTER TABLE \(schema).consumer_groups ADD COLUMN IF NOT EXISTS partitions integer NOT NULL DEFAULT 1",
        """
        CREATE TABLE IF NOT EXISTS \(schema).consumer_group_partitions (
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
        CREATE TABLE IF NOT EXISTS \(schema).consumer_group_members (
          group_name text NOT NULL REFERENCES \(schema).consumer_groups (name) ON DELETE CASCADE,
          member uuid NOT NULL,
          expires timestamptz NOT NULL,
          PRIMARY KEY (group_name, member)
        )
        """,
        // An earlier group: its checkpoint, and its lease as it stands, become partition 0's, so
        // that a member of this version waits for an earlier member's lease to end.
        """
        INSERT INTO \(schema).consumer_group_partitions (group_name, partition, tx, position, owner, lease_expires)
        SELECT name, 0, tx, position, owner, lease_expires FROM \(schema).consumer_groups g
        WHERE NOT EXISTS (SELECT 1 FROM \(schema).consumer_group_partitions p WHERE p.group_name = g.name)
        """,
        """
        UPDATE \(schema).consumer_groups SET owner = '\(retiredGroupOwner)', lease_expires = 'infinity'
        WHERE owner IS DISTINCT FROM '\(retiredGroupOwner)' OR lease_expires IS DISTINCT FROM 'infinity'
        """,
      ]
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
