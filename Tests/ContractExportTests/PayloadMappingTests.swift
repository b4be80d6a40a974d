import ContractExport
import EventSchema
import Testing

/// Each row of the payload mapping (``ContractExporter``), on small schemas.
@Suite("Contract export: payload schemas")
struct PayloadMappingTests {
  /// An event `E` with one required field `value` of `type`, and that field's schema.
  func fieldSchema(_ type: String) throws -> JSONValue? {
    try jsonSchema("events:\n  E:\n    fields:\n      value: \"\(type)\"\n")["$defs"]?["E"]?["properties"]?["value"]
  }

  /// The schema of built-in `type`, written once under `$defs` and referred to by the field.
  func sharedSchema(_ type: String) throws -> JSONValue? {
    let document = try jsonSchema("events:\n  E:\n    fields:\n      value: \"\(type)\"\n")
    #expect(document["$defs"]?["E"]?["properties"]?["value"]?["$ref"] == .string("#/$defs/\(type)"))
    return document["$defs"]?[type]
  }

  struct Width: Sendable, CustomTestStringConvertible {
    var type: String
    var minimum: String
    var maximum: String
    var format: String?
    var swiftType: String?
    var testDescription: String { type }
  }

  static let widths = [
    Width(
      type: "Int", minimum: "-9223372036854775808", maximum: "9223372036854775807", format: "int64", swiftType: "Int"),
    Width(type: "Int64", minimum: "-9223372036854775808", maximum: "9223372036854775807", format: "int64"),
    Width(type: "Int32", minimum: "-2147483648", maximum: "2147483647", format: "int32"),
    Width(type: "Int16", minimum: "-32768", maximum: "32767", swiftType: "Int16"),
    Width(type: "Int8", minimum: "-128", maximum: "127", swiftType: "Int8"),
    Width(type: "UInt", minimum: "0", maximum: "18446744073709551615", swiftType: "UInt"),
    Width(type: "UInt64", minimum: "0", maximum: "18446744073709551615", swiftType: "UInt64"),
    Width(type: "UInt32", minimum: "0", maximum: "4294967295", swiftType: "UInt32"),
    Width(type: "UInt16", minimum: "0", maximum: "65535", swiftType: "UInt16"),
    Width(type: "UInt8", minimum: "0", maximum: "255", swiftType: "UInt8"),
  ]

  @Test("integers carry their exact bounds, and their Swift type where no format names it", arguments: widths)
  func integerBounds(_ width: Width) throws {
    let schema = try #require(try fieldSchema(width.type))
    #expect(schema["type"] == "integer")
    #expect(schema["minimum"] == .number(try #require(JSONNumber(text: width.minimum))))
    #expect(schema["maximum"] == .number(try #require(JSONNumber(text: width.maximum))))
    #expect(schema["format"]?.stringValue == width.format)
    #expect(schema["x-eventgen-type"]?.stringValue == width.swiftType)
  }

  @Test func otherBuiltinsMapToTheJSONTheCodableWrites() throws {
    #expect(compact(try fieldSchema("String")) == #"{"type":"string"}"#)
    #expect(compact(try fieldSchema("Bool")) == #"{"type":"boolean"}"#)
    // No bounds: ±greatestFiniteMagnitude said nothing.
    #expect(compact(try fieldSchema("Double")) == #"{"type":"number","format":"double"}"#)
    let float = try #require(try sharedSchema("Float"))
    #expect(float["format"] == "float")
    #expect(compact(float["exclusiveMaximum"]) == "340282356779733661637539395458142568448")
    #expect(compact(float["not"]?["maximum"]) == "7.006492321624085e-46")
    let decimal = try #require(try sharedSchema("Decimal"))
    #expect(decimal["type"] == "number" && decimal["format"] == "decimal" && decimal["x-eventgen-type"] == "Decimal")
    #expect(
      compact(decimal["maximum"]) == "340282366920938463463374607431768211455" + String(repeating: "0", count: 127))
    let date = try #require(try sharedSchema("Date"))
    #expect(date["x-eventgen-type"] == "Date")
    #expect(date["anyOf"]?["0"]?["type"] == "string")
    #expect(date["anyOf"]?["1"]?["format"] == "double")
    let uuid = try #require(try sharedSchema("UUID"))
    #expect(uuid["format"] == "uuid" && uuid["pattern"] != nil)
    let url = try #require(try sharedSchema("URL"))
    #expect(url["format"] == "uri-reference" && url["minLength"] == 1)
    let data = try #require(try sharedSchema("Data"))
    #expect(data["type"] == "string" && data["contentEncoding"] == "base64" && data["pattern"] != nil)
  }

  @Test func containersAndOptionalElements() throws {
    #expect(compact(try fieldSchema("[String]")) == #"{"type":"array","items":{"type":"string"}}"#)
    #expect(
      compact(try fieldSchema("[String: Bool]")) == #"{"type":"object","additionalProperties":{"type":"boolean"}}"#)
    // The coder writes a nil element as null.
    #expect(
      compact(try fieldSchema("[Bool?]")) == #"{"type":"array","items":{"anyOf":[{"type":"boolean"},{"type":"null"}]}}"#
    )
  }

  @Test func requiredIsTheNonOptionalFieldsWithoutADefault() throws {
    let document = try jsonSchema(
      """
      events:
        E:
          fields:
            plain: String
            optional: String?
            defaulted:
              type: Int8
              default: 3
            nullDefault:
              type: Int?
              default: null
      """)
    let event = try #require(document["$defs"]?["E"])
    #expect(compact(event["required"]) == #"["plain"]"#)
    let properties = try #require(event["properties"])
    // The decoder reads null as a missing key: nil, or the default.
    #expect(
      compact(properties["optional"]) == #"{"anyOf":[{"type":"string"},{"type":"null"}],"x-eventgen-optional":true}"#)
    #expect(properties["defaulted"]?["default"] == 3)
    #expect(properties["defaulted"]?["anyOf"]?["1"] == ["type": "null"])
    #expect(properties["defaulted"]?["x-eventgen-optional"] == nil)
    #expect(properties["nullDefault"]?["default"] == .null)
    #expect(event["additionalProperties"] == nil)
  }

  @Test func defaultsAreTheJSONTheDecoderReads() throws {
    let document = try jsonSchema(
      """
      types:
        Code:
          enum: { euro: EUR, dollar: USD }
        ID:
          wraps: UUID
      events:
        E:
          fields:
            code: { type: Code, default: euro }
            id: { type: ID, default: 5a8b0a3c-2f6e-4c1d-9b7a-0e1f2d3c4b5a }
            amount: { type: Decimal, default: "-1234.50" }
            small: { type: Decimal, default: "0.005" }
            minimum: { type: Int64, default: -9223372036854775808 }
            maximum: { type: UInt64, default: 18446744073709551615 }
            ratio: { type: Double, default: 1e-3 }
            half: { type: Float, default: .5 }
            limits: { type: "[String: Int]", default: { zeta: 1, alpha: 2 } }
      """)
    let properties = try #require(document["$defs"]?["E"]?["properties"])
    #expect(properties["code"]?["default"] == "EUR")
    #expect(properties["id"]?["default"] == "5A8B0A3C-2F6E-4C1D-9B7A-0E1F2D3C4B5A")
    #expect(compact(properties["amount"]?["default"]) == "-1234.50")
    #expect(compact(properties["small"]?["default"]) == "0.005")
    #expect(compact(properties["minimum"]?["default"]) == "-9223372036854775808")
    #expect(compact(properties["maximum"]?["default"]) == "18446744073709551615")
    // Written so that YAML 1.1 readers read it as a number too.
    #expect(compact(properties["ratio"]?["default"]) == "1.0e-3")
    #expect(compact(properties["half"]?["default"]) == "0.5")
    #expect(compact(properties["limits"]?["default"]) == #"{"zeta":1,"alpha":2}"#)
  }

  @Test func openAndFrozenEnums() throws {
    let document = try jsonSchema(
      """
      types:
        Open:
          enum: [a, b]
        Closed:
          enum: { low: "lo w", high: HIGH }
          frozen: true
      """)
    let open = try #require(document["$defs"]?["Open"])
    // Any string decodes into an open enum: the known values are examples, not a constraint.
    #expect(open["enum"] == nil)
    #expect(compact(open["examples"]) == #"["a","b"]"#)
    #expect(compact(open["x-eventgen-enum"]) == #"{"cases":{"a":"a","b":"b"},"frozen":false}"#)
    let closed = try #require(document["$defs"]?["Closed"])
    #expect(compact(closed["enum"]) == #"["lo w","HIGH"]"#)
    #expect(closed["examples"] == nil)
    #expect(compact(closed["x-eventgen-enum"]) == #"{"cases":{"low":"lo w","high":"HIGH"},"frozen":true}"#)
  }

  @Test func identifiersRecordsAndExternals() throws {
    let document = try jsonSchema(
      """
      types:
        Count:
          doc: How many.
          wraps: UInt32
        Box:
          fields:
            count: Count
            spot: Spot?
      external: [Spot]
      """)
    let definitions = try #require(document["$defs"]?.objectValue)
    #expect(definitions.keys == ["Count", "Box", "Spot"])
    #expect(
      compact(definitions["Count"])
        == #"{"title":"Count","description":"How many.","type":"integer","minimum":0,"maximum":4294967295,"x-eventgen-type":"UInt32","x-eventgen-kind":"identifier"}"#
    )
    #expect(definitions["Box"]?["properties"]?["count"] == ["$ref": "#/$defs/Count"])
    #expect(definitions["Box"]?["x-eventgen-kind"] == "record")
    let spot = try #require(definitions["Spot"])
    #expect(spot["x-eventgen-external"] == "Spot")
    #expect(spot["type"] == nil)
  }

  @Test func wireKeysNamePropertiesAndTheSwiftNameIsKept() throws {
    let document = try jsonSchema(
      "events:\n  E:\n    fields:\n      channel:\n        type: String\n        key: sales_channel\n      plain: Int\n"
    )
    let event = try #require(document["$defs"]?["E"])
    #expect(event["properties"]?.objectValue?.keys == ["sales_channel", "plain"])
    #expect(event["properties"]?["sales_channel"]?["x-eventgen-field"] == "channel")
    #expect(event["properties"]?["plain"]?["x-eventgen-field"] == nil)
    #expect(compact(event["required"]) == #"["sales_channel","plain"]"#)
  }

  @Test func deprecationsKeepTheirMessage() throws {
    let document = try jsonSchema(
      """
      types:
        Old:
          deprecated: Use New.
          wraps: String
      events:
        E:
          deprecated: true
          fields:
            legacy:
              type: Old
              doc: Kept for old apps.
              deprecated: Gone in version 3.
      """)
    let old = try #require(document["$defs"]?["Old"])
    #expect(old["deprecated"] == true && old["x-eventgen-deprecated"] == "Use New.")
    let event = try #require(document["$defs"]?["E"])
    // `deprecated: true` has no message.
    #expect(event["deprecated"] == true && event["x-eventgen-deprecated"] == nil)
    // A $ref with annotations goes into allOf: draft-07 ignores the siblings of a $ref.
    #expect(
      compact(event["properties"]?["legacy"])
        == ##"{"description":"Kept for old apps.","allOf":[{"$ref":"#/$defs/Old"}],"deprecated":true,"x-eventgen-deprecated":"Gone in version 3."}"##
    )
  }
}
