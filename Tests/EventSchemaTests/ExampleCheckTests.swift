import Foundation
import Testing

@testable import EventSchema

/// A message's `examples` are checked against the event it becomes, as the generated type
/// decodes: each that would not decode is a located warning naming the field, and the document
/// still generates.
@Suite("AsyncAPI examples checked against the generated types")
struct ExampleCheckTests {
  /// A document whose message `Sold` has `payload` and the given examples (YAML, indented for
  /// the `examples:` key), and its diagnostics, with `typedFormats`.
  func warnings(
    examples: String, payload: String = ExampleCheckTests.soldPayload, typedFormats: Set<TypedFormat> = []
  ) -> [String] {
    let document = """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      components:
        messages:
          Sold:
            payload:
      \(payload)
            examples:
      \(examples)
        examples:
          sold: {id: x, count: 1, at: '2026-11-29T10:00:00Z', lines: []}
        schemas:
          Line:
            type: object
            required: [sku, price]
            properties:
              sku: {type: string}
              price: {type: number}
          Shipping:
            type: string
            enum: [post, courier]
      """
    let result = SchemaLoader.load([SchemaSource(path: "a.asyncapi.yaml", text: document)], typedFormats: typedFormats)
    #expect(result.schema != nil, "warnings never refuse the document")
    return result.diagnostics.map(\.description)
  }

  static let soldPayload = """
            type: object
            required: [id, count, at, lines]
            properties:
              id: {type: string, format: uuid}
              count: {type: integer, minimum: 0, maximum: 255}
              at: {type: string, format: date-time}
              lines: {type: array, items: {$ref: '#/components/schemas/Line'}}
              shipping: {$ref: '#/components/schemas/Shipping'}
              note: {type: [string, 'null']}
    """

  @Test func examplesThatDecodeGiveNoWarning() {
    let found = warnings(
      examples: """
                - payload: {id: ols-activity-001, count: 3, at: '2026-11-29T10:00:00.5+01:00', lines: [], note: null}
                - payload:
                    id: 3F2504E0-4F89-11D3-9A0C-0305E82C3301
                    count: 255.0
                    at: 2026-11-29t10:00:00z
                    lines: [{sku: a-1, price: 12}, {sku: '7', price: 1.5e2, extra: ignored}]
                    shipping: post
                - name: headers only
                  headers: {traceparent: x}
                - payload: {$ref: '#/components/examples/sold'}
                - payload: {$ref: '#/components/examples/missing'}
        """)
    #expect(found == [])
  }

  @Test func eachExampleThatWouldNotDecodeIsALocatedWarningNamingTheField() {
    let found = warnings(
      examples: """
                - payload: {id: a, at: '2026-11-29T10:00:00Z', lines: []}
                - payload: {id: a, count: 256, at: '2026-11-29T10:00:00Z', lines: []}
                - payload: {id: a, count: 1, at: yesterday, lines: []}
                - payload: {id: a, count: 1, at: '2026-11-29T10:00:00Z', lines: [{sku: a, price: 1}, {sku: 12, price: 1}]}
                - payload: {id: a, count: 1, at: '2026-11-29T10:00:00Z', lines: [], shipping: pigeon}
                - payload: {id: a, count: '1', at: '2026-11-29T10:00:00Z', lines: []}
                - payload: [not, an, object]
        """)
    // Example 5 decodes: a JSON Schema `enum` is an open enum, which keeps a value it does not
    // know (`x-eventgen-enum: {frozen: true}` makes it frozen).
    #expect(
      found == [
        "a.asyncapi.yaml:17:20: warning: example 1 of event `Sold` would not decode: `count` is missing, and `count` is a `UInt8`",
        "a.asyncapi.yaml:18:35: warning: example 2 of event `Sold` would not decode: at `count`: 256 is not a whole number that a `UInt8` holds",
        "a.asyncapi.yaml:19:42: warning: example 3 of event `Sold` would not decode: at `at`: \"yesterday\" is not an RFC 3339 timestamp",
        "a.asyncapi.yaml:20:100: warning: example 4 of event `Sold` would not decode: at `lines[1].sku`: expected a string, found the number 12",
        "a.asyncapi.yaml:22:35: warning: example 6 of event `Sold` would not decode: at `count`: expected an integer, found the string \"1\"",
        "a.asyncapi.yaml:23:20: warning: example 7 of event `Sold` would not decode: expected an object, found an array",
      ])
  }

  /// `format` is an annotation: a backend's example may put any text in a `format: uuid`
  /// field. Only where the configuration asks for the typed form is it refused, and then the
  /// team hears of it when it generates.
  @Test func aFormatIsCheckedOnlyWhereItsTypedFormIsAskedFor() {
    let example = """
              - payload: {id: ols-activity-001, count: 1, at: '2026-11-29T10:00:00Z', lines: []}
      """
    #expect(warnings(examples: example) == [])
    #expect(
      warnings(examples: example, typedFormats: [.uuid]) == [
        "a.asyncapi.yaml:17:25: warning: example 1 of event `Sold` would not decode: at `id`: \"ols-activity-001\" is not a UUID (a `format: uuid` string is a `UUID` as the field says)"
      ])
  }

  /// A payload that writes out the CloudEvents envelope is the event's `data`: its examples'
  /// `data` is what is checked.
  @Test func anEnvelopeExampleIsCheckedByItsData() {
    let found = warnings(
      examples: """
                - payload: {specversion: '1.0', id: e-1, source: /s, type: sold, data: {amount: 5}}
                - payload: {specversion: '1.0', id: e-2, source: /s, type: sold, data: {amount: five}}
        """,
      payload: """
                type: object
                properties:
                  specversion: {type: string}
                  id: {type: string}
                  source: {type: string}
                  type: {type: string}
                  data:
                    type: object
                    required: [amount]
                    properties: {amount: {type: integer}}
        """)
    #expect(
      found == [
        "a.asyncapi.yaml:19:89: warning: example 2 of event `Sold` would not decode: at `amount`: expected an integer, found the string \"five\""
      ])
  }

  @Test func aChoiceTakesItsMembersByTheirRule() {
    let payload = """
                oneOf:
                  - {type: object, required: [kind, radius], properties: {kind: {const: circle}, radius: {type: number}}}
                  - {type: object, required: [kind, side], properties: {kind: {const: square}, side: {type: number}}}
                discriminator: kind
      """
    let found = warnings(
      examples: """
                - payload: {kind: circle, radius: 2}
                - payload: {kind: triangle, side: 2}
                - payload: {kind: square}
        """, payload: payload)
    #expect(found.count == 2, "\(found)")
    #expect(found.first?.contains("example 2 of event `Sold` would not decode: `kind` is `triangle`") == true)
    #expect(found.last?.contains("example 3 of event `Sold` would not decode: `side` is missing") == true)
  }

  @Test func timestampsAreRFC3339() {
    for good in ["2026-11-29T10:00:00Z", "2026-11-29t10:00:00.123456789+05:30", "1990-12-31T23:59:60-08:00"] {
      #expect(ExampleCheck.isTimestamp(good), "\(good)")
    }
    for bad in [
      "2026-11-29", "2026-11-29T10:00Z", "2026-13-01T10:00:00Z", "2026-11-29T10:00:00", "2026-11-29 10:00:00Z",
    ] {
      #expect(!ExampleCheck.isTimestamp(bad), "\(bad)")
    }
  }
}
