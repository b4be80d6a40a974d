#if PostgreSQL
  import Testing

  @testable import TypedEventsPostgres

  /// The numbered steps that ``PostgresEventStore/migrate()`` runs; no server needed.
  @Suite("Migration steps")
  struct MigrationStepsTests {
    @Test func stepsAreNumberedFromOneWithoutGapsAndEachDoesSomething() {
      let steps = PostgresEventStore.migrations(schema: "s")
      #expect(steps.map(\.version) == Array(1...steps.count))
      #expect(steps.allSatisfy { !$0.statements.isEmpty })
      // Every statement of a step names the store's schema: none reaches another.
      for statement in steps.flatMap(\.statements) { #expect(statement.contains(" s.")) }
    }
  }
#endif
