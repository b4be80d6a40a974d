import EventSchema
import Testing

/// The JSON Schema constructs that real services' documents use, and the model they map to.
@Suite("AsyncAPI mappings: const, free-form values, choices, names")
struct AsyncAPIMappingTests {
  /// A 3.0 document with one message `E` whose payload has `properties`, and `schemas`; each is
  /// written from column 0 and indented here.
  private func document(properties: String, schemas: String = "") -> String {
    func indented(_ text: String, by spaces: Int) -> String {
      let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
      let common = lines.map { $0.prefix { $0 == " " }.count }.min() ?? 0
      return lines.map { String(repeating: " ", count: spaces) + $0.dropFirst(common) }.joined(separator: "\n")
    }
    let properties = indented(properties, by: 10)
    let schemas = schemas.isEmpty ? "" : "  schemas:\n" + indented(schemas, by: 4)
    return """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          E:
            payload:
              type: object
              required: [tag]
              properties:
      \(properties)
      \(schemas)
      """
  }

  private func field(_ name: String, in file: SchemaFile) throws -> Field {
    try #require(file.events.first?.fields.first { $0.name == name })
  }

  @Test func constIsAFixedValueOfItsType() throws {
    let file = try asyncAPIFile(
      document(
        properties: """
                  tag: {const: ping}
                  count: {type: integer, const: 3, default: 3}
                  flag: {const: true}
          """))
    let tag = try field("tag", in: file)
    #expect(tag.type == .builtin(.string))
    #expect(tag.constant == .string("ping"))
    let count = try field("count", in: file)
    #expect(count.type == .optional(.builtin(.int)))
    #expect(count.constant == .integer("3"))
    #expect(count.defaultValue == nil)
    #expect(try field("flag", in: file).constant == .bool(true))
  }

  @Test func freeFormValuesAreJSONValues() throws {
    let file = try asyncAPIFile(
      document(
        properties: """
                  tag: {description: anything at all}
                  empty: {}
                  open: true
                  metadata: {type: object}
                  extra: {type: object, additionalProperties: true}
                  maybe: {type: [object, 'null'], additionalProperties: {}}
          """))
    #expect(try field("tag", in: file).type == .builtin(.json))
    #expect(try field("empty", in: file).type == .optional(.builtin(.json)))
    #expect(try field("open", in: file).type == .optional(.builtin(.json)))
    #expect(try field("metadata", in: file).type == .optional(.dictionary(.builtin(.json))))
    #expect(try field("extra", in: file).type == .optional(.dictionary(.builtin(.json))))
    #expect(try field("maybe", in: file).type == .optional(.dictionary(.builtin(.json))))
  }

  @Test func aOneOfWithDistinctConstsIsAChoiceByThatTag() throws {
    let file = try asyncAPIFile(
      document(
        properties: "          tag: {$ref: '#/components/schemas/Failure'}",
        schemas: """
              Failure:
                oneOf:
                  - {$ref: '#/components/schemas/Duplicate'}
                  - {$ref: '#/components/schemas/Generic'}
              Duplicate:
                type: object
                properties: {type: {const: duplicate}, links: {type: array, items: {type: string}}}
              Generic:
                type: object
                properties: {type: {const: error}, message: {type: string}}
          """))
    let failure = try #require(file.types.first { $0.name == "Failure" })
    guard case .choice(let choice) = failure.kind else {
      Issue.record("Failure is \(failure.kind), not a choice")
      return
    }
    #expect(choice.selection == .discriminator("type"))
    #expect(choice.members.map(\.name) == ["duplicate", "generic"])
    #expect(choice.members.map(\.tag) == ["duplicate", "error"])
    #expect(choice.members.map(\.type) == [.named("Duplicate", .record), .named("Generic", .record)])
  }

  @Test func choicesWithoutATagTryTheirMembers() throws {
    let file = try asyncAPIFile(
      document(
        properties: """
                  tag: {oneOf: [{type: string}, {type: integer}]}
                  any: {anyOf: [{type: string}, {type: number}, {type: 'null'}]}
                  list: {type: [string, boolean, 'null']}
                  single: {oneOf: [{type: string}], description: one member is that member}
          """))
    let choices = Dictionary(
      uniqueKeysWithValues: file.types.compactMap { type -> (String, Choice)? in
        if case .choice(let choice) = type.kind { return (type.name, choice) }
        return nil
      })
    #expect(choices["ETag"]?.selection == .exactlyOne)
    #expect(choices["ETag"]?.members.map(\.type) == [.builtin(.string), .builtin(.int)])
    #expect(choices["EAny"]?.selection == .first)
    #expect(try field("any", in: file).type == .optional(.named("EAny", .choice)))
    #expect(choices["EList"]?.members.map(\.name) == ["string", "boolean"])
    #expect(try field("list", in: file).type == .optional(.named("EList", .choice)))
    #expect(try field("single", in: file).type == .optional(.builtin(.string)))
  }

  @Test func aMessageAndItsPayloadSchemaOfTheSameNameAreOneType() throws {
    let file = try asyncAPIFile(
      """
      asyncapi: 2.6.0
      info: {title: T, version: 1.0.0}
      channels:
        /:
          publish:
            message:
              oneOf:
                - $ref: '#/components/messages/putObject'
                - $ref: '#/components/messages/batch'
      components:
        messages:
          putObject:
            payload: {$ref: '#/components/schemas/putObject'}
          batch:
            payload: {$ref: '#/components/schemas/batch'}
        schemas:
          putObject:
            type: object
            properties: {name: {type: string}}
          batch:
            type: object
            properties:
              items: {type: array, items: {$ref: '#/components/schemas/putObject'}}
      """)
    #expect(file.types.isEmpty)
    #expect(file.events.map(\.name) == ["PutObject", "Batch"])
    #expect(try #require(file.events.last?.fields.first).type == .optional(.array(.named("PutObject", .record))))
  }

  @Test func namesThatCollideAreSettledByTheRuleEachWithANote() throws {
    let files = [
      "media.json": #"{"definitions": {"Audio": {"type": "object", "properties": {"codec": {"type": "string"}}}}}"#,
      "billing.json": #"{"definitions": {"Error": {"type": "object", "properties": {"invoice": {"type": "string"}}}}}"#,
    ]
    func names(_ before: String) throws -> (types: [String], events: [String], notes: [String]) {
      let result = loadAsyncAPI(
        """
        asyncapi: 3.0.0
        info: {title: T, version: 1.0.0}
        components:
          messages:
        \(before)
            audio:
              payload:
                type: object
                properties:
                  clip: {$ref: 'media.json#/definitions/Audio'}
                  first: {$ref: '#/components/schemas/Error'}
                  second: {$ref: 'billing.json#/definitions/Error'}
          schemas:
            Error: {type: object, properties: {code: {type: integer}}}
        """, files: files)
      let file = try #require(result.schema?.files.first, "\(result.diagnostics)")
      return (
        file.types.map(\.name).sorted(), file.events.map(\.name),
        result.diagnostics.filter { $0.severity == .note }.map(\.message)
      )
    }
    let alone = try names("")
    #expect(alone.types == ["BillingError", "Error", "MediaAudio"])
    #expect(alone.events == ["Audio"])
    #expect(
      alone.notes.sorted() == [
        "schema `Audio` is named `MediaAudio` in Swift, not `Audio`: message `audio` at a.asyncapi.yaml:6:5 has that name; `x-eventgen-name` on it chooses another name",
        "schema `Error` is named `BillingError` in Swift, not `Error`: schema `Error` at a.asyncapi.yaml:14:12 has that name; `x-eventgen-name` on it chooses another name",
      ])
    // Stable as the document grows: a message added before them, with types of new names,
    // renames none of them.
    let grown = try names(
      "    added:\n      payload: {type: object, properties: {x: {title: Extra, type: object, properties: {}}}}")
    #expect(grown.types == ["BillingError", "Error", "Extra", "MediaAudio"])
    #expect(grown.events == ["Added", "Audio"])
  }

  @Test func documentsOfOneRunShareTheNamesAndGiveWayToSchemaFiles() throws {
    // One Swift namespace for the run: a `.events.yaml` file's names are its author's, and an
    // AsyncAPI document's derived names give way to them, and to an earlier document's.
    func contract(_ message: String) -> String {
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          \(message):
            payload: {type: object, properties: {error: {$ref: '#/components/schemas/Error'}, money: {$ref: '#/components/schemas/Money'}}}
        schemas:
          Error: {type: object, properties: {code: {type: integer}}}
          Money: {type: object, properties: {cents: {type: integer}}}
      """
    }
    let result = SchemaLoader.load([
      SchemaSource(path: "b.asyncapi.yaml", text: contract("billed")),
      SchemaSource(path: "a.events.yaml", text: "types:\n  Money:\n    wraps: Int\n"),
      SchemaSource(path: "c.asyncapi.yaml", text: contract("charged")),
    ])
    let schema = try #require(result.schema, "\(result.diagnostics)")
    #expect(schema.files.map(\.path) == ["b.asyncapi.yaml", "a.events.yaml", "c.asyncapi.yaml"])
    #expect(schema.files[0].types.map(\.name).sorted() == ["Error", "MoneySchema"])
    #expect(schema.files[2].types.map(\.name).sorted() == ["ErrorSchema", "Money2"])
    #expect(
      result.diagnostics.map(\.description) == [
        "b.asyncapi.yaml:9:12: note: schema `Money` is named `MoneySchema` in Swift, not `Money`: type `Money` at a.events.yaml:2:3 has that name; `x-eventgen-name` on it chooses another name",
        "c.asyncapi.yaml:8:12: note: schema `Error` is named `ErrorSchema` in Swift, not `Error`: schema `Error` at b.asyncapi.yaml:8:12 has that name; `x-eventgen-name` on it chooses another name",
        "c.asyncapi.yaml:9:12: note: schema `Money` is named `Money2` in Swift, not `Money`: type `Money` at a.events.yaml:2:3 has that name; `x-eventgen-name` on it chooses another name",
      ])
  }

  @Test func typesThatHoldThemselvesGetTheIndirectionSwiftNeedsAndNoMore() throws {
    let file = try asyncAPIFile(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          changed:
            payload:
              type: object
              properties:
                node: {$ref: '#/components/schemas/Node'}
                a: {$ref: '#/components/schemas/A'}
                schema: {$ref: '#/components/schemas/Schema'}
                list: {$ref: '#/components/schemas/List'}
        schemas:
          Node: {type: object, properties: {next: {$ref: '#/components/schemas/Node'}}}
          A: {type: object, required: [b], properties: {b: {$ref: '#/components/schemas/B'}}}
          B: {type: object, properties: {a: {$ref: '#/components/schemas/A'}}}
          Schema:
            oneOf:
              - {type: boolean}
              - {type: object, properties: {not: {$ref: '#/components/schemas/Schema'}}}
          List: {type: object, properties: {items: {type: array, items: {$ref: '#/components/schemas/List'}}}}
      """)
    func indirectFields(_ name: String) -> [String] {
      guard case .record(let fields)? = file.types.first(where: { $0.name == name })?.kind else { return ["?"] }
      return fields.filter(\.isIndirect).map(\.name)
    }
    func isIndirectChoice(_ name: String) -> Bool {
      guard case .choice(let choice)? = file.types.first(where: { $0.name == name })?.kind else { return false }
      return choice.isIndirect
    }
    // One field of each cycle of records: the one the search finds closing it (A's `b` is
    // required, B's `a` is not, and either breaks the cycle).
    #expect(indirectFields("Node") == ["next"])
    #expect(indirectFields("A") + indirectFields("B") == ["a"])
    // A choice on a cycle is an indirect enum, and its member's field needs nothing more.
    #expect(isIndirectChoice("Schema"))
    #expect(indirectFields("SchemaObject").isEmpty)
    // An array stores its elements out of line already.
    #expect(indirectFields("List").isEmpty)
    #expect(try #require(file.events.first).fields.allSatisfy { !$0.isIndirect })
  }

  @Test func messageKeysRepeatedInChannelsTakeTheirNames() throws {
    let file = try asyncAPIFile(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      channels:
        ticker:
          messages:
            subscribe:
              name: TickerSubscription
              payload: {type: object, properties: {cmd: {type: string, enum: [subscribe, unsubscribe]}}}
        depth:
          messages:
            subscribe:
              payload: {type: object, properties: {cmd: {type: string, enum: [subscribe, unsubscribe]}}}
      """)
    #expect(file.events.map(\.name) == ["TickerSubscription", "DepthSubscribe"])
    #expect(file.events.map(\.wireName) == ["TickerSubscription", "subscribe"])
    #expect(file.types.map(\.name) == ["TickerSubscriptionCmd", "DepthSubscribeCmd"])
  }

  @Test func anEnumValueUNKNOWNIsAnOrdinaryCase() throws {
    let file = try asyncAPIFile(
      document(properties: "          tag: {type: string, enum: [UNKNOWN, ACTIVE]}"))
    let type = try #require(file.types.first)
    #expect(
      type.kind
        == .enumeration(
          cases: [.init(name: "unknown", rawValue: "UNKNOWN"), .init(name: "active", rawValue: "ACTIVE")], frozen: false
        ))
  }

  @Test func validationOnlyKeywordsLeaveTheTypeAlone() throws {
    let file = try asyncAPIFile(
      document(
        properties: """
                  tag:
                    type: string
                    pattern: '^a'
                    minLength: 1
                    not: {enum: [b]}
                    if: {minLength: 3}
                    then: {maxLength: 9}
          """))
    #expect(try field("tag", in: file).type == .builtin(.string))
  }

  @Test func allOfNarrowsAPropertyOfItsBase() throws {
    let file = try asyncAPIFile(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          SessionBegins:
            payload:
              allOf:
                - {$ref: '#/components/schemas/Base'}
                - type: object
                  properties:
                    message_type: {const: SessionBegins}
                    data: {type: object, properties: {id: {type: string}}, required: [id]}
        schemas:
          Base:
            type: object
            required: [message_type]
            properties:
              message_type: {$ref: '#/components/schemas/MessageType'}
              data: {type: object}
          MessageType: {type: string, enum: [SessionBegins, SessionEnds]}
      """)
    let event = try #require(file.events.first)
    let messageType = try #require(event.fields.first { $0.name == "message_type" })
    #expect(messageType.type == .named("MessageType", .enumeration))
    #expect(messageType.constant == .enumCase("sessionBegins"))
    let data = try #require(event.fields.first { $0.name == "data" })
    #expect(data.type == .optional(.named("SessionBeginsData", .record)))
  }

  @Test func allOfDefinitionsThatContradictAreAnErrorNamingBoth() {
    let result = loadAsyncAPI(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          E:
            payload:
              allOf:
                - {type: object, properties: {a: {type: string}}}
                - {type: object, properties: {a: {type: integer}}}
      """)
    #expect(
      result.diagnostics.map(\.description) == [
        "a.asyncapi.yaml:9:41: error: property `a` is defined twice in `allOf`, as `integer` here and as `string` at line 8, column 41; no value is both"
      ])
  }

  @Test func theCloudEventsEnvelopesTypeIsTheWireName() throws {
    let file = try asyncAPIFile(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          MessageEvent:
            name: MessageEvent
            payload:
              allOf:
                - {$ref: '#/components/schemas/CloudEvent'}
                - properties:
                    type: {const: uk.gov.fcp.sfd.notification.received}
                    data: {type: object, required: [id], properties: {id: {type: string}}}
          Other:
            payload:
              type: object
              properties:
                specversion: {type: string}
                type: {type: string, enum: [a.one]}
                data: {type: object, properties: {n: {type: integer}}}
        schemas:
          CloudEvent:
            type: object
            required: [specversion, id, source, type]
            properties:
              specversion: {const: '1.0'}
              id: {type: string}
              source: {type: string}
              type: {type: string}
              data: {type: object}
      """)
    #expect(file.events.map(\.wireName) == ["uk.gov.fcp.sfd.notification.received", "a.one"])
    #expect(file.events.map { $0.fields.map(\.name) } == [["id"], ["n"]])
  }

  @Test func anEnvelopeTypeOfSeveralValuesOrAPatternAcceptsThemAll() throws {
    let result = loadAsyncAPI(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          MessageEvent:
            payload:
              type: object
              properties:
                specversion: {type: string}
                type:
                  type: string
                  pattern: '^uk\\.gov\\.fcp\\.sfd\\.notification\\.'
                  examples: [uk.gov.other, uk.gov.fcp.sfd.notification.received]
                data: {type: object, properties: {n: {type: integer}}}
          Listed:
            payload:
              type: object
              properties:
                specversion: {type: string}
                type: {enum: [a.created, a.updated]}
                data: {type: object}
          Unmatched:
            payload:
              type: object
              properties:
                specversion: {type: string}
                type: {pattern: '^b\\.'}
                data: {type: object}
      """)
    let events = try #require(result.schema?.allEvents)
    // The first example the pattern matches, the first value listed, else the message's key.
    #expect(events.map(\.wireName) == ["uk.gov.fcp.sfd.notification.received", "a.created", "Unmatched"])
    #expect(
      events.map(\.acceptedWireNames) == [
        .pattern(#"^uk\.gov\.fcp\.sfd\.notification\."#), .names(["a.created", "a.updated"]), .pattern(#"^b\."#),
      ])
    // An event published from Swift would carry a type the backend's pattern refuses: said.
    #expect(
      result.diagnostics.map(\.description) == [
        "a.asyncapi.yaml:22:5: warning: message `Unmatched` is known by every CloudEvents `type` its pattern matches, but no `examples` value of that `type` matches it: events published from Swift carry `Unmatched`, which it does not; publish with `EventEnvelope(event, name:)` and a name it matches"
      ])
  }

  @Test func aTypeListSeveralMessagesShareNamesEachByItsOwnName() throws {
    // A common CloudEvents headers schema lists every type: each message keeps its own name.
    let result = loadAsyncAPI(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          created:
            name: order.created
            headers: {$ref: '#/components/schemas/Headers'}
            payload: {type: object, properties: {id: {type: string}}}
          cancelled:
            name: order.cancelled
            headers: {$ref: '#/components/schemas/Headers'}
            payload: {type: object, properties: {id: {type: string}}}
        schemas:
          Headers:
            type: object
            properties:
              specversion: {const: '1.0'}
              type: {enum: [order.created, order.cancelled]}
      """)
    let events = try #require(result.schema?.allEvents)
    #expect(events.map(\.wireName) == ["order.created", "order.cancelled"])
    #expect(
      events.map(\.acceptedWireNames) == Array(repeating: .names(["order.created", "order.cancelled"]), count: 2))
    #expect(result.diagnostics.isEmpty)
  }

  @Test func aChoicePayloadNamedAsAnEventIsDeclaredOnceAsItsPayload() throws {
    // `shape` and `shapeChanged` both carry the choice `Shape`; `Shape` is also an event's name.
    let result = loadAsyncAPI(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          shape: {payload: {$ref: '#/components/schemas/Shape'}}
          shapeChanged: {payload: {$ref: '#/components/schemas/Shape'}}
        schemas:
          Shape:
            oneOf:
              - {type: object, title: Circle, required: [r], properties: {r: {type: number}}}
              - {type: object, title: Square, required: [side], properties: {side: {type: number}}}
      """)
    let file = try #require(result.schema?.files.first, "\(result.diagnostics)")
    #expect(file.events.map(\.name) == ["Shape", "ShapeChanged"])
    #expect(file.events.map { $0.fields.map(\.type) } == Array(repeating: [.named("ShapePayload", .choice)], count: 2))
    #expect(file.types.filter { $0.name == "ShapePayload" }.count == 1)
  }

  @Test func aOneOfThatOnlyConstrainsIsValidationOnlyInAPayload() throws {
    let result = loadAsyncAPI(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          Either:
            payload:
              type: object
              properties: {id: {type: string}, a: {type: integer}, b: {type: integer}}
              oneOf: [{required: [a]}, {required: [b]}]
          Bare:
            payload:
              oneOf: [{required: [a]}, {required: [b]}]
      """)
    let events = try #require(result.schema?.allEvents, "\(result.diagnostics)")
    #expect(events.map { $0.fields.map(\.name) } == [["id", "a", "b"], ["additionalProperties"]])
    #expect(events.allSatisfy { !$0.fields.contains(where: \.isWholePayload) })
  }

  @Test func membersNamedAlikeGetCaseNamesNoOtherMemberHas() throws {
    let result = loadAsyncAPI(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          E:
            payload:
              type: object
              properties:
                value:
                  oneOf:
                    - {type: object, required: [a], properties: {a: {type: integer}}}
                    - {type: object, required: [b], properties: {b: {type: integer}}}
                    - {$ref: '#/components/schemas/object2'}
        schemas:
          object2: {type: object, required: [c], properties: {c: {type: integer}}}
      """)
    let choice = try #require(result.schema?.files.first?.types.first { $0.name == "EValue" }, "\(result.diagnostics)")
    guard case .choice(let definition) = choice.kind else {
      Issue.record("not a choice: \(choice.kind)")
      return
    }
    #expect(definition.members.map(\.name) == ["object1", "object3", "object2"])
  }

  @Test func anEnvelopeTypePatternThatIsNoRegularExpressionIsSaid() {
    let result = loadAsyncAPI(
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
                type: {type: string, pattern: '(unclosed'}
                data: {type: object, properties: {n: {type: integer}}}
      """)
    #expect(result.schema?.allEvents.map(\.wireName) == ["E"])
    #expect(result.schema?.allEvents.first?.acceptedWireNames == nil)
    #expect(
      result.diagnostics.map(\.description) == [
        "a.asyncapi.yaml:10:41: warning: message `E` is known on the wire by its name alone: its envelope's `type` pattern is not a regular expression eventgen reads"
      ])
  }

  @Test func aRequiredKeyWithoutAPropertyIsKeptAsAnyValue() throws {
    // `tag` is required by the document helper and described nowhere: JSON Schema lets it hold
    // anything, so it is a JSONValue rather than dropped.
    let file = try asyncAPIFile(document(properties: "n: {type: integer}"))
    #expect(try field("tag", in: file).type == .builtin(.json))

    // Under `additionalProperties: false` no payload can be valid: still kept, with a warning.
    let closed = loadAsyncAPI(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          E:
            payload:
              type: object
              additionalProperties: false
              required: [n, hdg]
              properties:
                n: {type: integer}
      """)
    #expect(closed.schema?.allEvents.first?.fields.map(\.name) == ["n", "hdg"])
    #expect(closed.schema?.allEvents.first?.fields.last?.type == .builtin(.json))
    #expect(
      closed.diagnostics.map(\.description) == [
        "a.asyncapi.yaml:9:23: warning: `hdg` is required but not among `properties`, and `additionalProperties: false` forbids it, so no payload is valid; it is read as any JSON value (`JSONValue`)"
      ])
  }

  @Test func keysByPatternAndTuplesHoldWhatEveryKeyOrPositionMay() throws {
    let file = try asyncAPIFile(
      document(
        properties: """
                  tag: {const: t}
                  labels: {type: object, patternProperties: {'^x-': {type: string}}, additionalProperties: false}
                  mixed: {type: object, patternProperties: {'^a': {type: string}, '^b': {type: integer}}}
                  open: {patternProperties: {'^a': {type: string}}}
                  point: {type: array, prefixItems: [{type: number}], items: false}
                  pair: {type: array, prefixItems: [{type: string}, {type: integer}]}
                  same: {type: array, prefixItems: [{type: string}, {type: 'string'}], items: false}
                  legacy: {type: array, items: [{type: string}], additionalItems: {type: integer}}
          """))
    // One type only where every key or position allowed is written alike.
    #expect(try field("labels", in: file).type == .optional(.dictionary(.builtin(.string))))
    #expect(try field("mixed", in: file).type == .optional(.dictionary(.builtin(.json))))
    #expect(try field("open", in: file).type == .optional(.dictionary(.builtin(.json))))
    #expect(try field("point", in: file).type == .optional(.array(.builtin(.double))))
    #expect(try field("pair", in: file).type == .optional(.array(.builtin(.json))))
    #expect(try field("same", in: file).type == .optional(.array(.builtin(.string))))
    #expect(try field("legacy", in: file).type == .optional(.array(.builtin(.json))))

    // Beside `properties`, keys that match a pattern are kept with the others.
    let keyed = try asyncAPIFile(
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          E:
            payload:
              type: object
              properties:
                n: {type: integer}
              patternProperties:
                '^x-': {type: string}
              additionalProperties: false
      """)
    let other = try field("additionalProperties", in: keyed)
    #expect(other.keepsOtherKeys)
    #expect(other.type == .dictionary(.builtin(.string)))
  }
}
