import EventSchema
import Foundation
import Testing

/// Loads AsyncAPI documents, with `files` as the files `$ref`s may name.
func loadAsyncAPI(
  _ document: String, path: String = "a.asyncapi.yaml", files: [String: String] = [:]
)
  -> SchemaLoadResult
{
  SchemaLoader.load([SchemaSource(path: path, text: document)]) { name in
    guard let text = files[name] else {
      throw SchemaLoader.ReadFailure(description: "\(name): no such file or directory")
    }
    return Array(text.utf8)
  }
}

/// The one schema file an AsyncAPI document loads to; fails the test on any diagnostic.
func asyncAPIFile(_ document: String, files: [String: String] = [:]) throws -> SchemaFile {
  let result = loadAsyncAPI(document, files: files)
  #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
  return try #require(result.schema?.files.first)
}

@Suite("AsyncAPI input")
struct AsyncAPIInputTests {
  @Test("a bad AsyncAPI document reports exactly its errors, quickly", arguments: badAsyncAPIDocuments)
  func badDocument(_ bad: BadAsyncAPI) {
    let clock = ContinuousClock()
    var found: [String] = []
    let elapsed = clock.measure {
      found = loadAsyncAPI(bad.document, files: bad.files).diagnostics.map { diagnostic in
        let text = diagnostic.description
        return text.hasPrefix("a.asyncapi.yaml:") ? String(text.dropFirst("a.asyncapi.yaml:".count)) : text
      }
    }
    #expect(found == bad.expected)
    // Milliseconds alone; a wide bound, since the other tests share the cores.
    #expect(elapsed < .seconds(10))
  }

  @Test func thereAreAtLeastThirtyDistinctBadDocuments() {
    #expect(Set(badAsyncAPIDocuments.map(\.document)).count >= 30)
    #expect(Set(badAsyncAPIDocuments.map(\.name)).count == badAsyncAPIDocuments.count)
  }

  @Test func aMessageIsAnEventNamedByItsKeyWithItsWireNameDocAndVersion() throws {
    let file = try asyncAPIFile(
      """
      asyncapi: 3.1.0
      info: {title: Accounts, version: 2.0.0, description: Signups.}
      channels:
        user/signedup:
          messages:
            userSignedUp: {$ref: '#/components/messages/userSignedUp'}
            inline-note:
              payload: {type: object, properties: {text: {type: string}}}
      components:
        messages:
          userSignedUp:
            name: accounts.user.signed-up
            summary: A user signed up.
            deprecated: true
            x-eventgen-version: 3
            headers: {type: object, properties: {traceparent: {type: string}}}
            payload:
              type: object
              required: [id]
              properties:
                id: {type: string, format: uuid}
      """)
    #expect(file.doc == "Signups.")
    #expect(file.events.map(\.name) == ["UserSignedUp", "InlineNote"])
    let event = file.events[0]
    #expect(event.wireName == "accounts.user.signed-up")
    #expect(event.doc == "A user signed up.")
    #expect(event.deprecated == "")
    #expect(event.version == 3)
    // Headers are the envelope's attributes, not fields.
    #expect(event.fields.map(\.name) == ["id"])
    #expect(file.events[1].wireName == "inline-note")
    #expect(file.events[1].version == 1)
  }

  @Test func scalarsMapToBuiltinsAndIntegersToTheNarrowestWidth() throws {
    let file = try asyncAPIFile(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          E:
            payload:
              type: object
              required: [s, b, d, u, url, ref, data, bytes, i, i32, i64, small, byte, word, big, n, f, dec]
              properties:
                s: {type: string, format: email}
                b: {type: boolean}
                d: {type: string, format: date-time}
                u: {type: string, format: uuid}
                url: {type: string, format: uri}
                ref: {type: string, format: uri-reference}
                data: {type: string, contentEncoding: base64}
                bytes: {type: string, format: byte}
                i: {type: integer}
                i32: {type: integer, format: int32}
                i64: {type: integer, format: int64}
                small: {type: integer, minimum: -100, maximum: 100}
                byte: {type: integer, minimum: 0, maximum: 255}
                word: {type: integer, minimum: 0, maximum: 65536}
                big: {type: integer, minimum: 0, maximum: 18446744073709551615}
                n: {type: number}
                f: {type: number, format: float}
                dec: {type: number, format: decimal}
      """)
    let types = file.events[0].fields.map { "\($0.name): \($0.type)" }
    #expect(
      types == [
        "s: String", "b: Bool", "d: Date", "u: String", "url: String", "ref: String", "data: Data", "bytes: Data",
        "i: Int",
        "i32: Int32", "i64: Int64", "small: Int8", "byte: UInt8", "word: UInt32", "big: UInt64", "n: Double",
        "f: Float", "dec: Decimal",
      ])
  }

  /// `format` is an annotation (JSON Schema 2020-12, 7.2): a string with `format: uuid` may hold
  /// any text, and a real backend's examples do. Its typed form is asked for, by the
  /// configuration or by the field.
  @Test func formatsAreStringsUnlessTheTypedFormIsAskedFor() throws {
    let document = """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          E:
            payload:
              type: object
              required: [u, url, ref, iri, email, pinned, link]
              properties:
                u: {type: string, format: uuid}
                url: {type: string, format: uri}
                ref: {type: string, format: uri-reference}
                iri: {type: string, format: iri-reference}
                email: {type: string, format: email}
                pinned: {type: string, format: uuid, x-eventgen-type: UUID}
                link: {type: string, x-eventgen-type: URL}
      """
    func types(_ typed: Set<TypedFormat>) throws -> [String] {
      let result = SchemaLoader.load([SchemaSource(path: "a.asyncapi.yaml", text: document)], typedFormats: typed)
      #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
      return try #require(result.schema?.files.first).events[0].fields.map { "\($0.name): \($0.type)" }
    }
    #expect(
      try types([]) == [
        "u: String", "url: String", "ref: String", "iri: String", "email: String", "pinned: UUID", "link: URL",
      ])
    #expect(
      try types([.uuid]) == [
        "u: UUID", "url: String", "ref: String", "iri: String", "email: String", "pinned: UUID", "link: URL",
      ])
    #expect(
      try types([.uuid, .uri]) == [
        "u: UUID", "url: URL", "ref: URL", "iri: URL", "email: String", "pinned: UUID", "link: URL",
      ])
  }

  @Test func requiredNullableAndDefaultDecideOptionality() throws {
    let file = try asyncAPIFile(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          E:
            payload:
              type: object
              required: [needed, nullable, listed]
              properties:
                needed: {type: string, description: Always there.}
                nullable: {type: [string, 'null']}
                listed: {anyOf: [{type: integer}, {type: 'null'}]}
                absent: {type: string}
                withDefault: {type: integer, default: 3}
                optionalWithDefault: {type: integer, default: 3, x-eventgen-optional: true}
                first-name: {type: string, deprecated: true}
      """)
    let fields = file.events[0].fields
    #expect(
      fields.map { "\($0.name): \($0.type)" } == [
        "needed: String", "nullable: String?", "listed: Int?", "absent: String?", "withDefault: Int",
        "optionalWithDefault: Int?", "firstName: String?",
      ])
    #expect(fields[0].doc == "Always there.")
    #expect(fields[4].defaultValue == .integer("3"))
    #expect(fields[6].wireKey == "first-name")
    #expect(fields[6].deprecated == "")
  }

  @Test func objectsEnumsArraysAndDictionariesBecomeTypes() throws {
    let file = try asyncAPIFile(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          OrderPlaced:
            payload:
              type: object
              required: [order, lines, totals, status]
              properties:
                order: {$ref: '#/components/schemas/order'}
                lines: {type: array, items: {$ref: '#/components/schemas/order'}}
                totals: {type: object, additionalProperties: {type: number}}
                status: {type: string, enum: [placed, in-progress]}
                channel:
                  type: string
                  enum: [web, app]
                  x-eventgen-enum: {frozen: true}
                address:
                  type: object
                  properties: {street: {type: string}}
        schemas:
          order:
            description: An order.
            type: object
            required: [id]
            properties:
              id: {type: string}
              children: {type: array, items: {$ref: '#/components/schemas/order'}}
      """)
    #expect(
      file.events[0].fields.map { "\($0.name): \($0.type)" } == [
        "order: Order", "lines: [Order]", "totals: [String: Double]", "status: OrderPlacedStatus",
        "channel: OrderPlacedChannel?", "address: OrderPlacedAddress?",
      ])
    let types = Dictionary(uniqueKeysWithValues: file.types.map { ($0.name, $0) })
    #expect(types.count == 4)
    #expect(types["Order"]?.doc == "An order.")
    guard case .record(let orderFields)? = types["Order"]?.kind else {
      Issue.record("Order is not a record")
      return
    }
    // A schema that refers to itself is one recursive type (through an array: a struct cannot
    // hold itself by value, which the validator reports as for `.events.yaml`).
    #expect(orderFields.map { "\($0.name): \($0.type)" } == ["id: String", "children: [Order]?"])
    #expect(
      types["OrderPlacedStatus"]?.kind
        == .enumeration(
          cases: [EnumCase(name: "placed", rawValue: "placed"), EnumCase(name: "inProgress", rawValue: "in-progress")],
          frozen: false))
    if case .enumeration(_, let frozen)? = types["OrderPlacedChannel"]?.kind {
      #expect(frozen)
    } else {
      Issue.record("OrderPlacedChannel is not an enum")
    }
  }

  @Test func aMessageThatCannotBeAnEventIsSkippedWithALocatedWarningAndTheRestGenerates() throws {
    let result = loadAsyncAPI(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          Avro:
            payload:
              schemaFormat: application/vnd.apache.avro;version=1.9.0
              schema: {type: record, name: Avro, fields: []}
          Text:
            contentType: text/plain
            payload: {type: string}
          Remote:
            payload: {$ref: 'https://example.com/schemas/run_start.json'}
          Kept:
            payload: {type: object, properties: {id: {type: string}}}
      """)
    #expect(
      result.diagnostics.map(\.description) == [
        "a.asyncapi.yaml:7:23: warning: message `Avro` is skipped: its payload is in `application/vnd.apache.avro;version=1.9.0`, and eventgen reads JSON Schema payloads (AsyncAPI's schema format or `application/schema+json`)",
        "a.asyncapi.yaml:13:23: warning: message `Remote` is skipped: its payload is only a `$ref` to https://example.com/schemas/run_start.json, which eventgen does not fetch; save that document beside this one and refer to it by a relative path",
      ])
    // A content type that is not JSON, with a string payload, is bytes: a binary event.
    #expect(result.schema?.files.first?.events.map(\.name) == ["Text", "Kept"])
    #expect(result.schema?.files.first?.events.first?.binaryContentType == "text/plain")
  }

  @Test func relativeReferencesResolveAgainstTheReferencingFile() throws {
    let result = SchemaLoader.load([
      SchemaSource(
        path: "services/backend/asyncapi.yaml",
        text: """
          asyncapi: 3.0.0
          info: {title: T, version: 1.0.0}
          channels:
            liked:
              messages:
                commentLiked: {$ref: '../common/messages.yaml#/commentLiked'}
          """)
    ]) { path in
      let files = [
        "services/common/messages.yaml": "commentLiked:\n  payload: {$ref: './schemas.yaml#/payload'}\n",
        "services/common/schemas.yaml":
          "payload:\n  type: object\n  properties:\n    commentId:\n      allOf:\n        - $ref: '#/commentId'\n        - description: The comment.\ncommentId: {type: string}\n",
      ]
      guard let text = files[path] else { throw SchemaLoader.ReadFailure(description: "\(path): missing") }
      return Array(text.utf8)
    }
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
    let event = try #require(result.schema?.files.first?.events.first)
    #expect(event.name == "CommentLiked")
    #expect(event.fields.map { "\($0.name): \($0.type)" } == ["commentId: String?"])
    #expect(event.fields.first?.doc == "The comment.")
  }

  @Test func allOfObjectsMergeTheirFields() throws {
    let file = try asyncAPIFile(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          E:
            payload:
              allOf:
                - {$ref: '#/components/schemas/base'}
                - type: object
                  required: [extra]
                  properties: {extra: {type: boolean}}
        schemas:
          base:
            type: object
            required: [id]
            properties: {id: {type: string}}
      """)
    #expect(file.events[0].fields.map { "\($0.name): \($0.type)" } == ["id: String", "extra: Bool"])
  }

  @Test func aPayloadThatWritesOutTheCloudEventsEnvelopeIsReadFromItsData() throws {
    let file = try asyncAPIFile(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          E:
            payload:
              type: object
              properties:
                specversion: {type: string}
                id: {type: string}
                source: {type: string}
                type: {type: string}
                data:
                  type: object
                  required: [amount]
                  properties: {amount: {type: integer, format: int32}}
      """)
    #expect(file.events[0].fields.map { "\($0.name): \($0.type)" } == ["amount: Int32"])
  }

  @Test(arguments: ["2.0.0", "2.1.0", "2.2.0", "2.3.0", "2.4.0", "2.5.0", "2.6.0"])
  func anAsyncAPI2DocumentReadsItsOperationsMessages(version: String) throws {
    let file = try asyncAPIFile(
      """
      asyncapi: \(version)
      info: {title: T, version: 1.0.0}
      channels:
        user/signedup:
          subscribe:
            message:
              oneOf:
                - {$ref: '#/components/messages/UserSignedUp'}
                - name: UserLeft
                  payload: {type: object, properties: {id: {type: string}}}
      components:
        messages:
          UserSignedUp:
            payload: {type: object, properties: {email: {type: string}}}
      """)
    #expect(file.events.map(\.name) == ["UserSignedUp", "UserLeft"])
    #expect(file.events.map(\.wireName) == ["UserSignedUp", "UserLeft"])
  }

  @Test func aJSONDocumentIsReadByTheSameFrontEndWithItsOwnPositions() {
    let result = loadAsyncAPI(
      """
      {
        "asyncapi": "3.0.0",
        "info": {"title": "T", "version": "1.0.0"},
        "components": {"messages": {"E": {"payload": {"type": "object",
          "properties": {"x": {"type": "strin"}}}}}}
      }
      """, path: "a.asyncapi.json")
    #expect(
      result.diagnostics.map(\.description) == [
        "a.asyncapi.json:5:34: error: unknown `type` `strin`; JSON Schema's types are string, integer, number, boolean, array, object and null"
      ])
  }

  @Test func namesThatAreNotSwiftIdentifiersAreCamelCased() throws {
    let file = try asyncAPIFile(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          user.signed-up:
            payload:
              type: object
              required: [2fa, display_name]
              properties:
                2fa: {type: boolean}
                display_name: {type: string}
      """)
    let event = file.events[0]
    #expect(event.name == "UserSignedUp")
    #expect(event.fields.map(\.name) == ["_2fa", "display_name"])
    #expect(event.fields.map(\.wireKey) == ["2fa", "display_name"])
  }
}

/// The example of the DocC article "Schema format", section "AsyncAPI input", read from the
/// article and checked against what the article says it gives.
@Suite("Article: Schema format, AsyncAPI input")
struct SchemaFormatAsyncAPIArticleTests {
  @Test func theExampleGivesWhatTheArticleSays() throws {
    let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/TypedEvents/TypedEvents.docc/SchemaFormat.md")
    let text = try String(contentsOf: article, encoding: .utf8)
    let marker = try #require(text.range(of: "<!-- asyncapi-example -->\n```yaml\n"))
    let end = try #require(text[marker.upperBound...].range(of: "```"))
    let file = try asyncAPIFile(String(text[marker.upperBound..<end.lowerBound]))

    let event = try #require(file.events.first)
    #expect(file.events.count == 1)
    #expect(event.name == "OrderPlaced" && event.wireName == "shop.order-placed")
    #expect(event.subject?.properties == ["id"])
    #expect(
      event.fields.map { "\($0.name): \($0.type)" } == [
        "id: String", "lines: [Line]", "placedAt: Date", "channel: OrderPlacedChannel?", "note: String?",
      ])
    let types = Dictionary(uniqueKeysWithValues: file.types.map { ($0.name, $0.kind) })
    #expect(types.count == 2)
    if case .record(let fields)? = types["Line"] {
      #expect(fields.map { "\($0.name): \($0.type)" } == ["sku: String", "quantity: UInt16"])
    } else {
      Issue.record("no value type Line")
    }
    #expect(
      types["OrderPlacedChannel"]
        == .enumeration(
          cases: [EnumCase(name: "web", rawValue: "web"), EnumCase(name: "app", rawValue: "app")], frozen: false))
  }
}

/// The shapes example of the article "Schema format": its YAML is
/// `Tests/BackendEvents/Contract/uploads.asyncapi.yaml` (which the tests build and run), and the
/// Swift it shows is in what eventgen generated from it, in that order.
@Suite("Article: Schema format, real services' shapes")
struct SchemaFormatShapesArticleTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func block(after marker: String, in text: String) throws -> String {
    let start = try #require(text.range(of: marker))
    let end = try #require(text[start.upperBound...].range(of: "```"))
    return String(text[start.upperBound..<end.lowerBound])
  }

  @Test func theExampleIsTheTestedContractAndTheSwiftIsWhatItGives() throws {
    let article = try String(
      contentsOf: Self.root.appendingPathComponent("Sources/TypedEvents/TypedEvents.docc/SchemaFormat.md"),
      encoding: .utf8)
    let yaml = try Self.block(after: "<!-- asyncapi-shapes-example -->\n```yaml\n", in: article)
    let contract = try String(
      contentsOf: Self.root.appendingPathComponent("Tests/BackendEvents/Contract/uploads.asyncapi.yaml"),
      encoding: .utf8)
    #expect(yaml == contract)
    _ = try asyncAPIFile(yaml)  // reads without a diagnostic

    let generated = try String(
      contentsOf: Self.root.appendingPathComponent("Tests/BackendEvents/Generated/uploads.asyncapi.swift"),
      encoding: .utf8
    )
    .split(separator: "\n").map { line in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      return trimmed.hasPrefix("nonisolated ") ? String(trimmed.dropFirst("nonisolated ".count)) : trimmed
    }
    var position = generated.startIndex
    for line in try Self.block(after: "<!-- asyncapi-shapes-swift -->\n```swift\n", in: article).split(separator: "\n")
    {
      let wanted = line.trimmingCharacters(in: .whitespaces)
      let found = generated[position...].firstIndex(of: wanted)
      #expect(found != nil, "not generated, or not in this order: \(wanted)")
      if let found { position = found + 1 }
    }
  }
}
