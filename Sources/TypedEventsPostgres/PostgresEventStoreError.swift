#if PostgreSQL
  /// Why the PostgreSQL store refused a request.
  public enum PostgresEventStoreError: Error, Equatable, CustomStringConvertible {
    /// A schema name that is not lowercase letters, digits and underscores, or is too long.
    case invalidSchemaName(String)
    /// A consumer group name that is empty or longer than 200 characters.
    case invalidGroupName(String)
    /// A connection URL that is not `postgres://[user[:password]@]host[:port][/database]`; the
    /// associated text says why, without the password.
    case invalidURL(String)

    public var description: String {
      switch self {
      case .invalidSchemaName(let name):
        "invalid schema name \"\(name)\": use lowercase letters, digits and underscores, at most 48"
      case .invalidGroupName(let name):
        "invalid consumer group name \"\(name)\": use 1 to 200 characters"
      case .invalidURL(let reason):
        "invalid PostgreSQL URL: \(reason)"
      }
    }
  }
#endif
