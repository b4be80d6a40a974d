import EventSchema
import Foundation
import Testing

func load(_ files: [(String, String)]) throws -> SchemaSet {
  let result = SchemaLoader.load(files.map { SchemaSource(path: $0.0, text: $0.1) })
  #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
  return try #require(result.schema)
}

func load(_ yaml: String) throws -> SchemaFile {
  try #require(try load([("s.events.yaml", yaml)]).files.first)
}

@Suite("Schema model")
struct SchemaModelTests {
  @Test func bareAndQuotedTypeExpressionsMeanTheSameType() throws {
    let file = try load(
      """
      types:
        Money:
          fields:
            amount: Decimal
      events:
        A:
          fields:
            a: [String]
            b: "[String]"
            c: [String: Int]
            d: "[String: Int]"
            e: [[String: [Money]]]
            f: "[[String: [Money]]]"
            g: "[String?]?"
            h: { type: [String: Int] }
      """)
    let types = file.events[0].fields.map(\.type)
    #expect(types[0] == .array(.builtin(.string)))
    #expect(types[0] == types[1])
    #expect(types[2] == .dictionary(.builtin(.int)))
    #expect(types[2] == types[3])
    #expect(types[4] == .array(.dictionary(.array(.named("Money", .record)))))
    #expect(types[4] == types[5])
    #expect(types[6] == .optional(.array(.optional(.builtin(.string)))))
    #expect(types[7] == types[2])
  }

  @Test func everyBuiltinTypeResolves() throws {
    let fields = BuiltinType.allCases.map { "      f\($0.rawValue): \($0.rawValue)" }.joined(separator: "\n")
    let file = try load("events:\n  A:\n    fields:\n\(fields)\n")
    #expect(file.events[0].fields.map(\.type) == BuiltinType.allCases.map { .builtin($0) })
  }

  @Test func aConstIsAFixedValueAndAnOpenEnumMayHaveACaseNamedUnknown() throws {
    let file = try load(
      """
      types:
        Kind:
          enum: [unknown, known]
      events:
        A:
          fields:
            tag: {type: String, const: ping}
            kind: {type: Kind, const: known}
            count: {type: "Int32?", const: 3}
      """)
    #expect(file.events[0].fields.map(\.constant) == [.string("ping"), .enumCase("known"), .integer("3")])
    #expect(
      file.types[0].kind
        == .enumeration(
          cases: [.init(name: "unknown", rawValue: "unknown"), .init(name: "known", rawValue: "known")], frozen: false))
  }

  @Test func aConstTakesNoDefaultAndOnlyAScalarOrEnumType() {
    let result = SchemaLoader.load([
      SchemaSource(
        path: "s.events.yaml",
        text:
          "types:\n  P:\n    fields:\n      x: Int\nevents:\n  A:\n    fields:\n      a: {type: String, const: x, default: y}\n      b: {type: P, const: x}\n"
      )
    ])
    #expect(
      result.diagnostics.map(\.description) == [
        "s.events.yaml:8:44: error: a field with `const` takes no `default`: it always holds its constant",
        "s.events.yaml:9:27: error: `const` is for a field of type String, Bool, an integer, Double or an enum; this field is `P`",
      ])
  }

  @Test func theLongFormKeepsKeyDocDefaultAndDeprecation() throws {
    let file = try load(
      """
      events:
        A:
          deprecated: Use B.
          fields:
            channel:
              type: String
              doc: Where it happened.
              default: app
              key: sales_channel
              deprecated: true
      """)
    let event = file.events[0]
    #expect(event.deprecated == "Use B.")
    #expect(
      event.fields[0]
        == Field(
          name: "channel", wireKey: "sales_channel", type: .builtin(.string), doc: "Where it happened.",
          defaultValue: .string("app"), deprecated: "", location: event.fields[0].location))
    #expect(event.fields[0].location == SourceLocation(file: "s.events.yaml", line: 5, column: 7))
  }

  @Test func defaultsAreConvertedByType() throws {
    let file = try load(
      """
      types:
        Currency:
          enum: { euro: EUR, dollar: USD }
        ID:
          wraps: Int16
      events:
        A:
          fields:
            a: { type: Int64, default: -9223372036854775808 }
            b: { type: UInt64, default: 18446744073709551615 }
            c: { type: Decimal, default: "-12.50" }
            d: { type: Currency, default: EUR }
            e: { type: ID, default: 7 }
            f: { type: "[String: Double]", default: { x: 1.5 } }
            g: { type: "Bool?", default: null }
            h: { type: UUID, default: e621e1f8-c36c-495a-93fc-0c247a3e6e5f }
            i: { type: String, default: "quote \\" and \\\\(x)" }
      """)
    let defaults = file.events[0].fields.map(\.defaultValue)
    #expect(
      defaults == [
        .integer("-9223372036854775808"), .integer("18446744073709551615"),
        .decimal(significand: -1250, exponent: -2), .enumCase("euro"), .wrapped(.integer("7")),
        .dictionary([.init(key: "x", value: .floatingPoint("1.5"))]), DefaultValue.none,
        .uuid("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), .string("quote \" and \\(x)"),
      ])
  }

  @Test func enumsAreOpenUnlessFrozen() throws {
    let file = try load(
      """
      types:
        Status:
          enum: [active, sold]
        Currency:
          enum: { euro: EUR }
          frozen: true
      """)
    #expect(
      file.types[0].kind
        == .enumeration(
          cases: [.init(name: "active", rawValue: "active"), .init(name: "sold", rawValue: "sold")], frozen: false))
    #expect(file.types[1].kind == .enumeration(cases: [.init(name: "euro", rawValue: "EUR")], frozen: true))
  }

  @Test func namespacesQualifyWireNamesAndVersionsStampEvents() throws {
    let file = try load("namespace: Listings\nversion: 3\nevents:\n  ListingSold: {}\n")
    #expect(file.events[0].wireName == "Listings.ListingSold")
    #expect(file.events[0].version == 3)
    let plain = try load("events:\n  Ping:\n")
    #expect(plain.events[0].wireName == "Ping")
    #expect(plain.events[0].version == 1)
  }

  @Test func subjectsFollowDottedPathsAndGroupsShareThem() throws {
    let file = try load(
      """
      types:
        ListingID:
          wraps: String
        Listing:
          fields:
            id: ListingID
      events:
        ListingCreated:
          subject: listing.id
          fields:
            listing: Listing
        ListingSold:
          subject: id
          fields:
            id: ListingID
        Ping: {}
      groups:
        ListingEvent:
          events: [ListingCreated, ListingSold]
        Everything:
          cases: { created: ListingCreated, ping: Ping }
      """)
    #expect(
      file.events[0].subject
        == SubjectPath(properties: ["listing", "id"], type: .named("ListingID", .wrapper(.string))))
    #expect(file.groups[0].cases.map(\.name) == ["listingCreated", "listingSold"])
    #expect(file.groups[0].subjectType == .named("ListingID", .wrapper(.string)))
    #expect(file.groups[1].cases.map(\.name) == ["created", "ping"])
    #expect(file.groups[1].subjectType == nil)
  }

  @Test func replayPerSubjectIsDeclaredOnAnEventOrAGroup() throws {
    let file = try load(
      """
      events:
        A:
          subject: id
          replay: { per-subject: 50 }
          fields:
            id: String
        B:
          subject: id
          fields:
            id: String
        C:
          subject: id
          fields:
            id: String
        D: {}
      groups:
        Small:
          replay: { per-subject: 10 }
          events: [A, B, C]
        Large:
          replay: { per-subject: 20 }
          events: [C]
        Plain:
          events: [D]
      """)
    // An event's own limit wins; a group's applies to the others; the largest of two groups.
    #expect(file.events.map(\.replayPerSubject) == [50, 10, 20, nil])
  }

  @Test func filesOfARunUseEachOthersTypes() throws {
    let set = try load([
      ("a.events.yaml", "types:\n  Money:\n    fields:\n      cents: Int\n"),
      (
        "b.events.yaml",
        "external: [GeoPoint]\nevents:\n  Paid:\n    fields:\n      amount: Money\n      at: GeoPoint\n"
      ),
    ])
    #expect(set.files[1].events[0].fields.map(\.type) == [.named("Money", .record), .named("GeoPoint", .external)])
  }

  @Test func recursionThroughAnArrayIsAllowed() throws {
    let file = try load("types:\n  Node:\n    fields:\n      children: [Node]\n      parent: \"[Node]?\"\n")
    #expect(file.types.count == 1)
  }

  @Test func escapableKeywordsAreAllowedAsFieldNames() throws {
    let file = try load("events:\n  A:\n    fields:\n      default: String\n      in: Int\n      class: Bool\n")
    #expect(file.events[0].fields.map(\.name) == ["default", "in", "class"])
  }

  @Test func everySampleSchemaLintsClean() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Schemas")
      .standardized
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".events.yaml") }
      .sorted()
    #expect(files.count >= 4)
    let sources = try files.map {
      SchemaSource(path: $0, bytes: Array(try Data(contentsOf: folder.appendingPathComponent($0))))
    }
    let result = SchemaLoader.load(sources)
    #expect(result.diagnostics.map(\.description) == [])
    #expect((result.schema?.allEvents.count ?? 0) >= 10)
  }

  @Test func lowerCamelCaseHandlesAcronyms() throws {
    let file = try load(
      "events:\n  URLOpened:\n  ListingSold:\n  X:\ngroups:\n  G:\n    events: [URLOpened, ListingSold, X]\n")
    #expect(file.groups[0].cases.map(\.name) == ["urlOpened", "listingSold", "x"])
  }
}
