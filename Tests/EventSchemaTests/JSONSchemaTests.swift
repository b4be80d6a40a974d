import Foundation
import Testing

@testable import EventSchema

/// JSONSchema/events.schema.json lets editors complete and check schema files; it must accept
/// exactly the keys the front end accepts. (`Scripts/validate-json-schema` validates the
/// samples against it.)
@Suite("JSON Schema of the format")
struct JSONSchemaTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  func keys(at path: [String]) throws -> Set<String> {
    let data = try Data(contentsOf: Self.root.appendingPathComponent("JSONSchema/events.schema.json"))
    var node = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    for component in path {
      node = try #require(node[component] as? [String: Any], "no \(component) in \(path)")
    }
    let properties = try #require(node["properties"] as? [String: Any])
    return Set(properties.keys)
  }

  @Test func everyKeyOfTheFrontEndIsInTheJSONSchemaAndTheOtherWayRound() throws {
    #expect(try keys(at: []) == Set(SchemaDecoder.topLevelKeys))
    #expect(try keys(at: ["$defs", "type"]) == Set(SchemaDecoder.typeKeys))
    #expect(try keys(at: ["$defs", "event"]) == Set(SchemaDecoder.eventKeys))
    #expect(try keys(at: ["$defs", "field"]) == Set(SchemaDecoder.fieldKeys))
    #expect(try keys(at: ["$defs", "group"]) == Set(SchemaDecoder.groupKeys))
  }
}
