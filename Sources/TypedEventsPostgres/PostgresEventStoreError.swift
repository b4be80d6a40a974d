#if PostgreSQL
  /// Why the PostgreSQL store refused a request.
  public enum PostgresEventStoreError: Error, Equatable, CustomStringConvertible {
    /// A schema name that is not lowercase letters, digits and underscores, or is too long.
    case invalidSchemaName(String)
    /// A consumer group name that is empty or longer than 200 characters.
    case invalidGroupName(String)
    /// A consumer group's number of partitions outside 1 to
    /// ``PostgresConsumerGroup/maximumPartitions``.
    case invalidPartitionCount(Int)
    /// A member asked for another number of partitions than the group has; change it with
    /// ``PostgresEventStore/repartition(group:partitions:)``.
    case partitionCountChanged(group: String, stored: Int, requested: Int)
    /// The group has a live member, so its partitions cannot change now.
    case groupIsRunning(String)
    /// A connection URL that is not `postgres://[user[:password]@]host[:port][/database]`; the
    /// associated text says why, without the password.
    case invalidURL(String)
    /// The connection closed while a query ran on it and the query never returned: a query
    /// lost as the server closed the connection. Nothing is known about whether it took
    /// effect; retrying on a new connection is safe for the store's own statements.
    case connectionLost
    /// The schema holds tables named as a store's (`events` and `consumer_groups`) that
    /// ``PostgresEventStore/migrate()`` did not record: a build before the first release made
    /// them, or another program did. Name another schema, or, if it is such a store, drop the
    /// schema and migrate again.
    case unversionedStore(schema: String)
    /// A newer version of TypedEventsPostgres migrated the store to layout `version`; this one
    /// knows layouts up to `known`.
    case newerLayout(schema: String, version: Int, known: Int)

    public var description: String {
      switch self {
      case .invalidSchemaName(let name):
        "invalid schema name \"\(name)\": use lowercase letters, digits and underscores, at most 48"
      case .invalidGroupName(let name):
        "invalid consumer group name \"\(name)\": use 1 to 200 characters"
      case .invalidPartitionCount(let count):
        "invalid number of partitions \(count): use 1 to \(PostgresConsumerGroup.maximumPartitions)"
      case .partitionCountChanged(let group, let stored, let requested):
        "consumer group \"\(group)\" has \(stored) partitions, not \(requested): stop its members and call "
          + "repartition(group:partitions:), or ask for \(stored)"
      case .groupIsRunning(let group):
        "consumer group \"\(group)\" has a live member: stop every member first"
      case .invalidURL(let reason):
        "invalid PostgreSQL URL: \(reason)"
      case .connectionLost:
        "the connection closed while a query ran on it, and the query never returned"
      case .unversionedStore(let schema):
        "schema \"\(schema)\" holds tables `events` and `consumer_groups` that migrate() did not record (a build "
          + "before the first release makes them): use another schema, or drop this one and migrate again if it is such a store"
      case .newerLayout(let schema, let version, let known):
        "schema \"\(schema)\" has layout version \(version), newer than this version of TypedEventsPostgres knows "
          + "(up to \(known)): upgrade TypedEventsPostgres"
      }
    }
  }
#endif

#if PostgreSQL
  import _ConnectionPoolModule
  import PostgresNIO

  extension PostgresEventStore {
    /// Whether `error` says the store's `PostgresClient` has stopped running: its pool is shut
    /// down for good, so retrying cannot succeed. `withConnection` throws the pool's own error,
    /// `query` the `PSQLError` it maps to.
    static func clientStopped(_ error: any Error) -> Bool {
      if let error = error as? ConnectionPoolError { return error == .poolShutdown }
      if let error = error as? PSQLError { return error.code == .poolClosed }
      return false
    }
  }
#endif
