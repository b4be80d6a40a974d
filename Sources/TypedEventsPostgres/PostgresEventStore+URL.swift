#if PostgreSQL
  import Foundation
  import PostgresNIO

  extension PostgresEventStore {
    /// A connection pool configuration from a URL such as
    /// `postgres://app:secret@db.internal:5432/orders`.
    ///
    /// The scheme is `postgres` or `postgresql`; the user defaults to `postgres`, the port to
    /// 5432, and the database to the user's name (PostgreSQL's own default). User, password and
    /// database are percent-decoded. Query parameters are refused rather than ignored: set
    /// other options on the returned configuration.
    ///
    /// - Parameters:
    ///   - url: the server's URL.
    ///   - tls: whether and how to use TLS; a URL does not say, so the caller does.
    /// - Throws: ``PostgresEventStoreError/invalidURL(_:)``, whose text never holds the password.
    public static func clientConfiguration(
      url: String, tls: PostgresClient.Configuration.TLS
    ) throws -> PostgresClient.Configuration {
      guard let parts = URLComponents(string: url) else {
        throw PostgresEventStoreError.invalidURL("not a URL")
      }
      guard let scheme = parts.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
        throw PostgresEventStoreError.invalidURL("the scheme must be postgres:// or postgresql://")
      }
      guard let host = parts.host, !host.isEmpty else {
        throw PostgresEventStoreError.invalidURL("no host")
      }
      guard parts.query == nil, parts.fragment == nil else {
        throw PostgresEventStoreError.invalidURL(
          "query parameters and fragments are not read; set them on the configuration")
      }
      let port = parts.port ?? 5432
      guard (1...65_535).contains(port) else { throw PostgresEventStoreError.invalidURL("port \(port)") }
      let database = parts.path.drop { $0 == "/" }
      guard !database.contains("/") else {
        throw PostgresEventStoreError.invalidURL("the path must be one database name")
      }
      return PostgresClient.Configuration(
        // URLComponents keeps an IPv6 host's brackets; the socket address must not have them.
        host: host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host,
        port: port, username: parts.user ?? "postgres", password: parts.password,
        database: database.isEmpty ? nil : String(database), tls: tls)
    }
  }
#endif
