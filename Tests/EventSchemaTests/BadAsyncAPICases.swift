import Testing

/// Bad AsyncAPI documents, each with the exact diagnostics it must produce (file `a.asyncapi.yaml`,
/// and the referenced files given beside it).
///
/// One case per construct the reader refuses or input it cannot read; `expected` lists every
/// diagnostic of the run, sorted.
struct BadAsyncAPI: CustomTestStringConvertible, Sendable {
  var name: String
  var document: String
  var files: [String: String] = [:]
  var expected: [String]

  var testDescription: String { name }
}

/// The first lines of most cases: a 3.0 document with its required `info`.
private let header = "asyncapi: 3.0.0\ninfo: {title: T, version: 1.0.0}\n"

/// A document with one message `E` whose payload object has `properties` (YAML indented by 10).
private func message(_ properties: String) -> String {
  header + "components:\n  messages:\n    E:\n      payload:\n        type: object\n        properties:\n" + properties
}

let badAsyncAPIDocuments: [BadAsyncAPI] = [
  BadAsyncAPI(
    name: "a 2.x version that does not exist",
    document: "asyncapi: 2.7.0\ninfo: {title: T, version: 1.0.0}\nchannels: {}\n",
    expected: [
      "1:11: error: AsyncAPI 2.7.0 is not read: eventgen reads AsyncAPI 2.0 to 2.6, 3.0 and 3.1 documents; convert this one with `asyncapi convert` of the AsyncAPI CLI"
    ]),
  BadAsyncAPI(
    name: "a 1.x document",
    document: "asyncapi: '1.2.0'\ninfo: {title: T, version: 1.0.0}\n",
    expected: [
      "1:11: error: AsyncAPI 1.2.0 is not read: eventgen reads AsyncAPI 2.0 to 2.6, 3.0 and 3.1 documents; convert this one with `asyncapi convert` of the AsyncAPI CLI"
    ]),
  BadAsyncAPI(
    name: "the version is not a string",
    document: "asyncapi: [3]\ninfo: {title: T, version: 1.0.0}\n",
    expected: [
      "1:11: error: expected a string for `asyncapi` (the version, such as 3.0.0), found a sequence"
    ]),
  BadAsyncAPI(
    name: "unknown top-level key",
    document: header + "channel: {}\n",
    expected: [
      "3:1: warning: unknown key `channel` in the AsyncAPI document is not read; did you mean `channels`?"
    ]),
  BadAsyncAPI(
    name: "a file named as AsyncAPI that is not",
    document: "openapi: 3.1.0\ninfo: {title: T, version: 1.0.0}\n",
    expected: [
      "1:1: error: this file is named as an AsyncAPI document but has no top-level `asyncapi:` key (such as `asyncapi: 3.0.0`)"
    ]),
  BadAsyncAPI(
    name: "alias bomb",
    document: header + "components:\n  schemas:\n    a: &a [lol]\n    b: [*a, *a]\n",
    expected: [
      "5:8: error: anchors (`&name`) are not supported in event schemas; write the value out"
    ]),
  BadAsyncAPI(
    name: "unresolvable local $ref",
    document: header
      + "components:\n  messages:\n    E:\n      payload:\n        $ref: '#/components/schemas/Missing'\n",
    expected: [
      "7:15: error: `$ref` #/components/schemas/Missing names nothing: this file has no `/components/schemas/Missing`"
    ]),
  BadAsyncAPI(
    name: "$ref to a missing file",
    document: header + "components:\n  messages:\n    E:\n      payload:\n        $ref: './nope.yaml#/E'\n",
    expected: [
      "7:15: error: `$ref` names a file that cannot be read: nope.yaml: no such file or directory"
    ]),
  BadAsyncAPI(
    name: "$ref into a file that lacks the pointer",
    document: header + "components:\n  messages:\n    E:\n      payload:\n        $ref: 'other.yaml#/F'\n",
    files: ["other.yaml": "E:\n  type: object\n  properties: {}\n"],
    expected: [
      "7:15: error: `$ref` other.yaml#/F names nothing: other.yaml has no `/F`"
    ]),
  BadAsyncAPI(
    name: "a YAML error in a referenced file",
    document: header + "components:\n  messages:\n    E:\n      payload:\n        $ref: 'other.yaml#/E'\n",
    files: ["other.yaml": "E:\n  type: [object\n"],
    expected: [
      "other.yaml:3:1: error: YAML syntax error: did not find expected ',' or ']' while parsing a flow sequence started at 2:9"
    ]),
  BadAsyncAPI(
    name: "cyclic $ref",
    document: header
      + "components:\n  messages:\n    E:\n      payload:\n        $ref: '#/components/schemas/A'\n  schemas:\n    A:\n      $ref: '#/components/schemas/B'\n    B:\n      $ref: '#/components/schemas/A'\n",
    expected: [
      "12:13: error: cyclic `$ref`: a.asyncapi.yaml#/components/schemas/A → a.asyncapi.yaml#/components/schemas/B → a.asyncapi.yaml#/components/schemas/A never reaches a schema; one of them must define it"
    ]),
  BadAsyncAPI(
    name: "cyclic $ref across files",
    document: header + "components:\n  messages:\n    E:\n      payload:\n        $ref: 'other.yaml#/A'\n",
    files: ["other.yaml": "A:\n  $ref: 'a.asyncapi.yaml#/components/messages/E/payload'\n"],
    expected: [
      "7:15: error: cyclic `$ref`: other.yaml#/A → a.asyncapi.yaml#/components/messages/E/payload → other.yaml#/A never reaches a schema; one of them must define it"
    ]),
  BadAsyncAPI(
    name: "remote $ref inside a payload",
    document: message("          e: {$ref: 'https://example.com/schemas/e.json'}\n"),
    expected: [
      "9:21: error: `$ref` to https://example.com/schemas/e.json is not fetched: a build does not touch the network; save a copy in a folder of the package and map the URL's prefix to it in eventgen-config.yaml (`references: {\"https://example.com/schemas/\": vendor/schemas}`), or refer to the copy by a relative path"
    ]),
  BadAsyncAPI(
    name: "$ref that is not a string",
    document: header + "components:\n  messages:\n    E:\n      payload:\n        $ref: [a]\n",
    expected: [
      "7:15: error: `$ref` must be a string such as `#/components/schemas/Name`"
    ]),
  BadAsyncAPI(
    name: "type null alone",
    document: message("          x:\n            type: 'null'\n"),
    expected: [
      "10:13: error: `type: null` alone has no event field type; a field that may be null is `[<type>, \"null\"]`"
    ]),
  BadAsyncAPI(
    name: "unknown type",
    document: message("          x:\n            type: str\n"),
    expected: [
      "10:19: error: unknown `type` `str`; JSON Schema's types are string, integer, number, boolean, array, object and null"
    ]),
  BadAsyncAPI(
    name: "an array without items",
    document: message("          x:\n            type: array\n"),
    expected: [
      "10:13: error: an array schema needs `items`: the schema of its elements"
    ]),
  BadAsyncAPI(
    name: "an enum of numbers",
    document: message("          x:\n            enum: [1, 2]\n"),
    expected: [
      "10:20: error: eventgen enums are strings; this `enum` value is not a string"
    ]),
  BadAsyncAPI(
    name: "allOf members that conflict",
    document: message(
      "          x:\n            allOf:\n              - type: object\n                properties:\n                  a: {type: string}\n              - type: object\n                properties:\n                  a: {type: integer}\n"
    ),
    expected: [
      "16:19: error: property `a` is defined twice in `allOf`, as `integer` here and as `string` at line 13, column 19; no value is both"
    ]),
  BadAsyncAPI(
    name: "a content type that is not JSON, with a schema of structured data",
    document: header
      + "components:\n  messages:\n    E:\n      contentType: application/avro\n      payload: {type: object, properties: {}}\n",
    expected: [
      "6:20: warning: message `E` is skipped: its content type is `application/avro`, whose data eventgen cannot read or write; it reads and writes JSON (`application/json`, `json`, `text/json` or a `+json` type) and bytes"
    ]),
  BadAsyncAPI(
    name: "a content type that is not JSON, Avro or Protobuf, with a schema of structured data: bytes, and a note",
    document: header
      + "components:\n  messages:\n    E:\n      contentType: application/xml\n      payload: {type: object, properties: {}}\n",
    expected: [
      "6:20: note: message `E` has the content type `application/xml`, not JSON: its event carries the data as bytes (`payload: Data`), whose structure eventgen does not check"
    ]),
  BadAsyncAPI(
    name: "JSON spelled `json` and `text/json` is JSON: no message is skipped",
    document: "asyncapi: 3.0.0\ninfo: {title: T, version: 1.0.0}\ndefaultContentType: json\n"
      + "components:\n  messages:\n    E:\n      payload: {type: object, properties: {}}\n"
      + "    F:\n      contentType: text/json; charset=utf-8\n      payload: {type: object, properties: {}}\n",
    expected: []),
  BadAsyncAPI(
    name: "a description that is no string documents nothing, and refuses nothing",
    document: "asyncapi: 3.0.0\ninfo:\n  title: T\n  version: 1.0.0\n  description: {$ref: './README.md'}\n"
      + "components:\n  messages:\n    E:\n      description: [a, list]\n      summary: The summary documents it.\n"
      + "      payload:\n        type: object\n        properties:\n          a: {type: string, description: 5}\n"
      + "          b: {type: string, description: {text: x}}\n",
    expected: [
      "5:16: warning: `info.description` is not read: AsyncAPI and JSON Schema make it a string, and this is a mapping; the Swift has no documentation from it",
      "9:20: warning: `description` is not read: AsyncAPI and JSON Schema make it a string, and this is a sequence; the Swift has no documentation from it",
      "15:42: warning: `description` is not read: AsyncAPI and JSON Schema make it a string, and this is a mapping; the Swift has no documentation from it",
    ]),
  BadAsyncAPI(
    name: "an Avro payload",
    document: header
      + "components:\n  messages:\n    E:\n      payload:\n        schemaFormat: application/vnd.apache.avro;version=1.9.0\n        schema: {type: record, name: E, fields: []}\n",
    expected: [
      "7:23: warning: message `E` is skipped: its payload is in `application/vnd.apache.avro;version=1.9.0`, and eventgen reads JSON Schema payloads (AsyncAPI's schema format or `application/schema+json`)"
    ]),
  BadAsyncAPI(
    name: "info that is not a mapping",
    document: "asyncapi: 3.0.0\ninfo: [T]\ncomponents:\n  messages:\n    E:\n      payload: {type: object}\n",
    expected: [
      "2:7: warning: `info` is not read: expected a mapping, found a sequence"
    ]),
  BadAsyncAPI(
    name: "unknown key in a message",
    document: header + "components:\n  messages:\n    E:\n      payloads: {type: object, properties: {}}\n",
    expected: [
      "6:7: warning: unknown key `payloads` in message `E` is not read; did you mean `payload`?"
    ]),
  BadAsyncAPI(
    name: "x-eventgen-type that names no built-in",
    document: message("          x:\n            type: integer\n            x-eventgen-type: Integer\n"),
    expected: [
      "11:30: error: `x-eventgen-type` names no built-in type `Integer`"
    ]),
  BadAsyncAPI(
    name: "two messages with one Swift name",
    document: header
      + "components:\n  messages:\n    user-signed-up:\n      payload: {type: object, properties: {}}\n    userSignedUp:\n      payload: {type: object, properties: {}}\n",
    expected: [
      "7:5: note: message `userSignedUp` is named `UserSignedUpEvent` in Swift, not `UserSignedUp`: message `user-signed-up` at a.asyncapi.yaml:5:5 has that name; `x-eventgen-name` on it chooses another name"
    ]),
  BadAsyncAPI(
    name: "x-eventgen-name that is taken, or no type name",
    document: header
      + "components:\n  messages:\n    a:\n      payload: {type: object, properties: {b: {$ref: '#/components/schemas/B'}, c: {$ref: '#/components/schemas/C'}}}\n  schemas:\n    B:\n      x-eventgen-name: A\n      type: object\n      properties: {}\n    C:\n      x-eventgen-name: Self\n      type: object\n      properties: {}\n",
    expected: [
      "9:24: error: `x-eventgen-name` `A` of schema `B` is taken: message `a` at a.asyncapi.yaml:5:5 has it",
      "13:24: error: `x-eventgen-name` `Self` of schema `C` cannot name a type: it is a Swift keyword",
    ]),
  BadAsyncAPI(
    name: "a default that does not fit",
    document: message("          x:\n            type: integer\n            default: many\n"),
    expected: [
      "11:22: warning: default value `many` does not fit type `Int`; the default is ignored, and the field is optional"
    ]),
  BadAsyncAPI(
    name: "a subject that names no field",
    document: header
      + "components:\n  messages:\n    E:\n      x-eventgen-subject: id\n      payload: {type: object, properties: {name: {type: string}}}\n",
    expected: [
      "6:27: error: subject `id` names no field: event `E` has no field `id`"
    ]),
  BadAsyncAPI(
    name: "a JSON document cut short",
    document:
      "{\"asyncapi\": \"3.0.0\", \"info\": {\"title\": \"T\", \"version\": \"1.0.0\"},\n \"components\": {\"messages\": {\"E\": {\"payload\": {\"type\": \"object\"\n",
    expected: [
      "3:1: error: YAML syntax error: did not find expected ',' or '}' while parsing a flow mapping started at 2:47"
    ]),
  BadAsyncAPI(
    name: "a group naming no event",
    document: header
      + "channels:\n  c:\n    messages:\n      E: {$ref: '#/components/messages/E'}\n    x-eventgen-groups:\n      G: {cases: {e: F}}\ncomponents:\n  messages:\n    E:\n      payload: {type: object, properties: {}}\n",
    expected: [
      "8:22: error: group `G` names no event `F`"
    ]),
  BadAsyncAPI(
    name: "a version below 1",
    document: header
      + "components:\n  messages:\n    E:\n      x-eventgen-version: 0\n      payload: {type: object, properties: {}}\n",
    expected: [
      "6:27: error: a version must be 1 or higher; found 0"
    ]),
  BadAsyncAPI(
    name: "an object that allows no properties",
    document: message("          x:\n            type: object\n            additionalProperties: false\n"),
    expected: [
      "11:35: error: an object that allows no properties at all has no event field type; list its `properties`"
    ]),
  BadAsyncAPI(
    name: "the schema false",
    document: message("          x: false\n"),
    expected: [
      "9:14: error: the schema `false` allows no value, so no field can hold one"
    ]),
  BadAsyncAPI(
    name: "a oneOf of null alone",
    document: message("          x:\n            oneOf:\n              - type: 'null'\n"),
    expected: [
      "10:13: error: a `oneOf` of `null` alone has no field type; a field that may be null is optional"
    ]),
  BadAsyncAPI(
    name: "a type list of null alone",
    document: message("          x:\n            type: ['null']\n"),
    expected: [
      "10:13: error: a `type` list of `null` alone has no field type; a field that may be null is optional"
    ]),
]
