import EventSchema

/// How a contract document is written.
public enum ContractSyntax: String, Sendable, CaseIterable {
  /// Pretty-printed JSON.
  case json
  /// Block-style YAML, with the generated note as a first comment line.
  case yaml

  /// YAML for a path ending in `.yaml` or `.yml`, JSON otherwise.
  public init(path: String) {
    let lowered = path.lowercased()
    self = lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") ? .yaml : .json
  }
}

public enum ContractFormat: String, Sendable, CaseIterable {
  /// An AsyncAPI 3.0.0 document: channels, operations, messages and payload schemas.
  case asyncAPI = "asyncapi"
  /// A JSON Schema (draft 2020-12) document: the payload schemas alone, under `$defs`.
  case jsonSchema = "json-schema"
  /// An OpenAPI 3.1.0 document: the HTTP endpoint that serves the events.
  case openAPI = "openapi"
}

/// Exports a validated schema set as the contract other services read: an AsyncAPI 3.0.0
/// document (``asyncAPIDocument(title:version:)``), a JSON Schema document
/// (``jsonSchemaDocument(title:)``) or the OpenAPI 3.1.0 description of the HTTP endpoint
/// (``openAPIDocument(title:version:path:)``), all deterministic (same schemas, same bytes).
///
/// The payload schemas say exactly what the generated `Codable` writes and what it reads back,
/// with the JSON settings of the runtime's envelopes, logs and stores. Every document builds
/// them with one builder; they differ only in where the definitions live.
///
/// ## Payload schemas
///
/// | Schema | JSON Schema |
/// |---|---|
/// | event, `fields:` type | `type: object`, `title` (Swift name), `description` (`doc`), `properties` by wire key, `required`, `x-eventgen-kind` `event` or `record`; never `additionalProperties: false`, as the decoder ignores unknown keys |
/// | event whose payload is a choice (read from AsyncAPI) | `title`, `description`, `allOf` of the choice's `$ref` alone, `x-eventgen-kind: event`: the event's JSON is the member's |
/// | field | its type's schema; `description`; `x-eventgen-field: <Swift name>` when `key:` differs |
/// | field `T?`, or with a `default` | not required; `anyOf: [T, {type: null}]`, because the decoder reads `null` as a missing key (nil, or the default); `x-eventgen-optional: true` for `T?` |
/// | `default:` | `default`: the JSON the decoder reads as that value (an enum case's raw value, an identifier's raw value, `null`) |
/// | `deprecated:` | `deprecated: true`, and `x-eventgen-deprecated: <message>` unless it is `true` |
/// | `String`, `Bool` | `type: string`, `type: boolean` |
/// | `Int`, `Int64` | `type: integer`, `format: int64`, exact `minimum` and `maximum`; `Int` adds `x-eventgen-type: Int` |
/// | `Int32` | `type: integer`, `format: int32`, exact bounds |
/// | `Int8`, `Int16`, `UInt`, `UInt8`…`UInt64` | `type: integer`, exact bounds, `x-eventgen-type: <Swift type>` |
/// | `Double` | `type: number`, `format: double`, ±`Double.greatestFiniteMagnitude` |
/// | `Float` | `type: number`, `format: float`, exclusive ±(2^128 − 2^103), beyond which the reader overflows; `not` a nonzero number of at most 2^-150, which it rounds to zero and refuses |
/// | `Decimal` | `type: number`, `format: decimal` (code generators then read it into a decimal type, not a double), ±`Decimal.greatestFiniteMagnitude`, `x-eventgen-type: Decimal` |
/// | `Date` | `anyOf`: a string matching what `EventTimestamp` reads, or (beyond ±95 billion years) a `Double`; `x-eventgen-type: Date` |
/// | `UUID` | `type: string`, `format: uuid`, an 8-4-4-4-12 hexadecimal `pattern`, `x-eventgen-type: UUID` (a `format` alone reads as `String`) |
/// | `URL` | `type: string`, `format: uri-reference` (a Swift URL may be relative), a `pattern` that refuses a first segment with a colon and no scheme, `minLength: 1`, `x-eventgen-type: URL` |
/// | `Data` | `type: string`, `contentEncoding: base64`, a padded base64 `pattern` |
/// | `[T]`, `[String: T]` | `type: array` with `items`; `type: object` with `additionalProperties`; an optional element is `anyOf` it and `null` |
/// | declared type | `$ref` to its definition |
/// | `wraps:` | the raw type's schema with `title`, `description`, `x-eventgen-kind: identifier` |
/// | open `enum:` | `type: string`, `examples` (any string decodes: an unknown one is kept and written back), `x-eventgen-enum: {cases: {name: raw}, frozen: false}` |
/// | frozen `enum:` | `type: string`, `enum` of the raw values, `x-eventgen-enum: {…, frozen: true}` |
/// | `external:` | `x-eventgen-external: <name>` and no constraint: its JSON is the app's own |
///
/// What the reader refuses that the schemas let through: a number that a `Double` rounds to
/// zero (below 2^-1075; validators that read numbers as doubles see 0), a `Decimal` spelled
/// with an exponent beyond Decimal's own (`1e128`, though `10e127` reads), a `Float` or
/// `Double` zero spelled with a positive exponent (`0e5`), a date in a year beyond ±95 billion or on
/// 29 February of a common year, a `URL` with a malformed authority (`http://exa mple.com`),
/// and whatever an `external:` type's own decoder refuses. The reader also takes a `URL` that
/// is not a URI reference (`a b`, read as `a%20b`), which `format: uri-reference` refuses where
/// formats are asserted. The writer never writes any of these.
public struct ContractExporter: Sendable {
  /// The validated schemas.
  public var schema: SchemaSet

  /// An exporter of `schema`.
  public init(_ schema: SchemaSet) {
    self.schema = schema
  }

  /// The title when none is given: the channel names (namespaces, or the file stems of files
  /// without one) joined with commas, then `events`, such as `Listings events` or
  /// `Analytics, Chat, Inventory, Listings events`.
  public var defaultTitle: String {
    let names = ChannelNaming.channels(of: schema).map(\.title)
    return names.isEmpty ? "Events" : names.joined(separator: ", ") + " events"
  }

  /// The version when none is given: `<highest schema version>.0.0`. A breaking change must
  /// raise a file's `version:` (`eventgen compat`), so the major version of the contract moves
  /// with the breaking changes of any of its files.
  public var defaultVersion: String {
    "\(schema.files.map(\.version).max() ?? 1).0.0"
  }

  /// The document in `format`, pretty-printed in `syntax` with a trailing newline; `path` is
  /// where an OpenAPI document's endpoint is mounted.
  public func document(
    _ format: ContractFormat, syntax: ContractSyntax = .json, title: String? = nil, version: String? = nil,
    path: String = "/events"
  ) -> String {
    let value: JSONValue
    let command: String
    switch format {
    case .asyncAPI:
      value = asyncAPIDocument(title: title, version: version)
      command = "eventgen asyncapi"
    case .jsonSchema:
      value = jsonSchemaDocument(title: title)
      command = "eventgen json-schema"
    case .openAPI:
      value = openAPIDocument(title: title, version: version, path: path)
      command = "eventgen openapi"
    }
    switch syntax {
    case .json: return value.prettyPrinted
    // The first line marks the file as eventgen's, as in generated Swift.
    case .yaml: return "# " + generatedNote(command: command) + "\n" + value.yamlText
    }
  }

  /// The JSON Schema document: `$schema` (draft 2020-12), a `$comment` that marks it as
  /// generated, `title`, and one `$defs` entry per event, declared type and external type,
  /// keyed by Swift name and referring to each other as `#/$defs/<Name>`. An event's payload
  /// schema is `{"$ref": "<this document>#/$defs/<EventName>"}`.
  public func jsonSchemaDocument(title: String? = nil) -> JSONValue {
    let payloads = PayloadSchemas(schema: schema, definitionsPointer: "#/$defs/")
    return [
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "$comment": .string(generatedNote(command: "eventgen json-schema")),
      "title": .string(title ?? defaultTitle),
      "$defs": .object(payloads.definitions),
    ]
  }

  /// The sentence that marks a document as generated, naming its schema files.
  func generatedNote(command: String) -> String {
    let names = schema.files.map { SchemaFileNames.fileName(of: $0.path) }
    return GeneratedFileMarker.text + names.joined(separator: ", ") + ". Do not edit: regenerate it with `\(command)`."
  }
}
