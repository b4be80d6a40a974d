#if PostgreSQL
  import PostgresNIO
  import Testing
  import TypedEventsPostgres

  /// `PostgresEventStore.clientConfiguration(url:tls:)`: no server needed.
  @Suite struct PostgresURLTests {
    @Test func readsEveryPartOfTheURLAndDecodesPercentEscapes() throws {
      let configuration = try PostgresEventStore.clientConfiguration(
        url: "postgresql://app%40eu:p%3Ass%2Fw@db.internal:6543/orders%20eu", tls: .disable)
      #expect(configuration.host == "db.internal")
      #expect(configuration.port == 6543)
      #expect(configuration.username == "app@eu")
      #expect(configuration.password == "p:ss/w")
      #expect(configuration.database == "orders eu")
    }

    @Test func fillsPostgreSQLsDefaults() throws {
      let configuration = try PostgresEventStore.clientConfiguration(url: "postgres://127.0.0.1", tls: .disable)
      #expect(configuration.port == 5432)
      #expect(configuration.username == "postgres")
      #expect(configuration.password == nil)
      #expect(configuration.database == nil)
      #expect(try PostgresEventStore.clientConfiguration(url: "postgres://h/", tls: .disable).database == nil)
    }

    @Test func takesTheBracketsOffAnIPv6Host() throws {
      #expect(try PostgresEventStore.clientConfiguration(url: "postgres://u@[::1]:5433/d", tls: .disable).host == "::1")
    }

    @Test(arguments: [
      ("postgres://db internal/orders", "not a URL"),
      ("http://db.internal/orders", "the scheme must be postgres:// or postgresql://"),
      ("postgres:///orders", "no host"),
      ("postgres://db.internal/orders?sslmode=require", "query parameters and fragments are not read"),
      ("postgres://db.internal/orders/extra", "the path must be one database name"),
    ])
    func refusesWhatItCannotReadWithTheReason(url: String, reason: String) {
      #expect {
        try PostgresEventStore.clientConfiguration(url: url, tls: .disable)
      } throws: { error in
        guard case .invalidURL(let text) = error as? PostgresEventStoreError else { return false }
        return text.hasPrefix(reason)
      }
    }

    @Test func neverPutsThePasswordInTheError() {
      #expect {
        try PostgresEventStore.clientConfiguration(url: "mysql://u:hunter2@h/d", tls: .disable)
      } throws: { error in
        !"\(error)".contains("hunter2")
      }
    }
  }
#endif
