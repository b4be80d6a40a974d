import EventSchema
import SchemaEvolution
import Testing

/// `compat` across formats: a `.events.yaml` file on one side and an AsyncAPI document on the
/// other are compared by wire names and wire keys, with the version rule applied per event.
@Suite("Compatibility across .events.yaml and AsyncAPI")
struct AsyncAPICompatibilityTests {
  static let yaml = """
    namespace: Shop
    version: 1
    events:
      OrderPlaced:
        fields:
          id: String
          total: Int
    """

  /// The same event as an AsyncAPI message, with `properties` and `version` filled in.
  static func asyncAPI(version: Int, properties: String, required: String = "[id, total]") -> String {
    """
    asyncapi: 3.0.0
    info: {title: Shop, version: 1.0.0}
    components:
      messages:
        OrderPlaced:
          name: Shop.OrderPlaced
          x-eventgen-version: \(version)
          payload:
            type: object
            required: \(required)
            properties:
    \(properties)
    """
  }

  static let sameProperties = "          id: {type: string}\n          total: {type: integer}"

  func compare(old: (String, String), new: (String, String)) throws -> [String] {
    let before = try #require(SchemaLoader.load([SchemaSource(path: old.0, text: old.1)]).schema)
    let after = try #require(SchemaLoader.load([SchemaSource(path: new.0, text: new.1)]).schema)
    return CompatibilityChecker.check(old: before, new: after, mode: .backward).map(\.description)
  }

  @Test func theSameEventInTheOtherFormatHasNoChange() throws {
    let document = Self.asyncAPI(version: 1, properties: Self.sameProperties)
    #expect(try compare(old: ("shop.events.yaml", Self.yaml), new: ("shop.asyncapi.yaml", document)) == [])
    #expect(try compare(old: ("shop.asyncapi.yaml", document), new: ("shop.events.yaml", Self.yaml)) == [])
  }

  @Test func aBreakingChangeIsLocatedInTheAsyncAPIDocumentAndNeedsAHigherEventVersion() throws {
    // `total` is now optional: it breaks readers on the old schema (forward), a note in backward
    // mode, and like every breaking change it needs a higher version.
    let document = Self.asyncAPI(version: 1, properties: Self.sameProperties, required: "[id]")
    let found = try compare(old: ("shop.events.yaml", Self.yaml), new: ("shop.asyncapi.yaml", document))
    #expect(
      found == [
        "shop.asyncapi.yaml:5:5: error: 1 breaking change to event `OrderPlaced` but its version stays 1: raise it to 2",
        "shop.asyncapi.yaml:13:11: note: field `total` of event `OrderPlaced` became optional: apps on the old schema require it",
      ])
    let raised = Self.asyncAPI(version: 2, properties: Self.sameProperties, required: "[id]")
    let foundAfterRaising = try compare(old: ("shop.events.yaml", Self.yaml), new: ("shop.asyncapi.yaml", raised))
    #expect(
      foundAfterRaising == [
        "shop.asyncapi.yaml:13:11: note: field `total` of event `OrderPlaced` became optional: apps on the old schema require it"
      ])
  }

  @Test func aVersionThatGoesDownIsAnError() throws {
    let old = Self.asyncAPI(version: 3, properties: Self.sameProperties)
    let found = try compare(old: ("shop.asyncapi.yaml", old), new: ("shop.events.yaml", Self.yaml))
    #expect(
      found == [
        "shop.events.yaml:4:3: error: the version of event `OrderPlaced` went down from 3 to 1; versions only go up"
      ])
  }
}
