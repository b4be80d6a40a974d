import ContractExport
import EventSchema
import Testing

/// Channels, operations and messages of the AsyncAPI document, and the JSON Schema document.
@Suite("Contract export: AsyncAPI and JSON Schema documents")
struct AsyncAPIMappingTests {
  static let listings = """
    namespace: Listings
    version: 2
    doc: Events of marketplace listings.
    types:
      ListingID:
        wraps: String
      Listing:
        fields:
          id: ListingID
    external: [GeoPoint]
    events:
      ListingCreated:
        doc: A user published a listing. It shows in feeds.
        subject: listing.id
        fields:
          listing: Listing
      ListingRemoved:
        deprecated: Use ListingArchived.
        fields:
          id: ListingID
    groups:
      ListingEvent:
        doc: Everything.
        events: [ListingCreated, ListingRemoved]
      ListingChange:
        cases: { created: ListingCreated }
    """

  @Test func aChannelPerNamespaceWithWhatAnImporterNeeds() throws {
    let document = try asyncAPI(Self.listings, path: "Schemas/Listings.events.yaml")
    #expect(document["asyncapi"] == "3.0.0")
    #expect(document["channels"]?.objectValue?.keys == ["Listings"])
    let channel = try #require(document["channels"]?["Listings"])
    #expect(channel["address"] == "Listings")
    #expect(channel["title"] == "Listings")
    #expect(channel["description"] == "Events of marketplace listings.")
    #expect(
      compact(channel["messages"])
        == ##"{"ListingCreated":{"$ref":"#/components/messages/ListingCreated"},"ListingRemoved":{"$ref":"#/components/messages/ListingRemoved"}}"##
    )
    #expect(channel["x-eventgen-namespace"] == "Listings")
    #expect(channel["x-eventgen-version"] == 2)
    #expect(channel["x-eventgen-file"] == "Listings")
    #expect(compact(channel["x-eventgen-types"]) == #"["ListingID","Listing"]"#)
    #expect(compact(channel["x-eventgen-external"]) == #"["GeoPoint"]"#)
    #expect(
      compact(channel["x-eventgen-groups"])
        == #"{"ListingEvent":{"description":"Everything.","cases":{"listingCreated":"ListingCreated","listingRemoved":"ListingRemoved"}},"ListingChange":{"cases":{"created":"ListingCreated"}}}"#
    )
  }

  @Test func aFileWithoutNamespaceIsNamedByItsStem() throws {
    let schema = try load([
      ("Schemas/Shapes.events.yaml", "events:\n  Drawn: {}\n"),
      ("Other/Shapes.events.yaml", "events:\n  Erased: {}\n"),
    ])
    let document = ContractExporter(schema).asyncAPIDocument()
    #expect(document["channels"]?.objectValue?.keys == ["Shapes", "Shapes_2"])
    #expect(document["channels"]?["Shapes"]?["x-eventgen-namespace"] == .null)
    #expect(document["channels"]?["Shapes_2"]?["x-eventgen-file"] == "Shapes")
    #expect(document["components"]?["messages"]?["Drawn"]?["name"] == "Drawn")
    #expect(ContractExporter(schema).defaultTitle == "Shapes, Shapes events")
  }

  @Test func sendAndReceiveOperationsReferToTheChannelsMessages() throws {
    let document = try asyncAPI(Self.listings)
    #expect(document["operations"]?.objectValue?.keys == ["sendListings", "receiveListings"])
    for (key, action) in [("sendListings", "send"), ("receiveListings", "receive")] {
      let operation = try #require(document["operations"]?[key])
      #expect(operation["action"] == .string(action))
      #expect(operation["channel"] == ["$ref": "#/channels/Listings"])
      #expect(
        compact(operation["messages"])
          == ##"[{"$ref":"#/channels/Listings/messages/ListingCreated"},{"$ref":"#/channels/Listings/messages/ListingRemoved"}]"##
      )
    }
  }

  @Test func aMessagePerEvent() throws {
    let messages = try #require(try asyncAPI(Self.listings)["components"]?["messages"])
    let created = try #require(messages["ListingCreated"])
    #expect(created["name"] == "Listings.ListingCreated")
    #expect(created["title"] == "ListingCreated")
    #expect(created["summary"] == "A user published a listing.")
    #expect(created["description"] == "A user published a listing. It shows in feeds.")
    #expect(created["contentType"] == "application/json")
    #expect(created["payload"] == ["$ref": "#/components/schemas/ListingCreated"])
    #expect(created["x-eventgen-version"] == 2)
    #expect(created["x-eventgen-subject"] == "listing.id")
    #expect(created["deprecated"] == nil)
    let removed = try #require(messages["ListingRemoved"])
    #expect(removed["deprecated"] == true)
    #expect(removed["x-eventgen-deprecated"] == "Use ListingArchived.")
    #expect(removed["x-eventgen-subject"] == nil)
    #expect(removed["summary"] == nil)
  }

  @Test func headersAreTheCloudEventsAttributes() throws {
    let document = try asyncAPI(Self.listings)
    let messages = try #require(document["components"]?["messages"])
    let headers = try #require(messages["ListingCreated"]?["headers"])
    // What every event shares is written once and referred to.
    #expect(headers["allOf"]?["0"] == ["$ref": "#/components/schemas/CloudEvents-attributes"])
    let shared = try #require(document["components"]?["schemas"]?["CloudEvents-attributes"])
    #expect(
      shared["properties"]?.objectValue?.keys == [
        "specversion", "id", "source", "type", "time", "datacontenttype", "eventversion",
      ])
    #expect(shared["properties"]?["specversion"]?["const"] == "1.0")
    #expect(shared["properties"]?["id"]?["minLength"] == 1)
    #expect(compact(shared["required"]) == #"["specversion","id","source","type"]"#)
    // What is the event's own narrows it.
    let own = try #require(headers["allOf"]?["1"]?["properties"])
    #expect(own.objectValue?.keys == ["type", "eventversion", "subject"])
    #expect(own["type"]?["const"] == "Listings.ListingCreated")
    #expect(own["eventversion"]?["const"] == 2)
    #expect(own["subject"]?["type"] == "string")
    // Only an event with a subject has one.
    #expect(messages["ListingRemoved"]?["headers"]?["allOf"]?["1"]?["properties"]?["subject"] == nil)
    #expect(messages["ListingRemoved"]?["headers"]?["allOf"]?["1"]?["properties"]?["type"] != nil)
  }

  @Test func titleAndVersionDefaultsAndOverrides() throws {
    let schema = try load([
      ("A.events.yaml", "namespace: A\nversion: 4\n"), ("B.events.yaml", "namespace: B\nversion: 2\n"),
    ])
    let exporter = ContractExporter(schema)
    #expect(exporter.defaultTitle == "A, B events")
    #expect(exporter.defaultVersion == "4.0.0")
    #expect(exporter.asyncAPIDocument()["info"]?["version"] == "4.0.0")
    let given = exporter.asyncAPIDocument(title: "Shop", version: "1.2.3")
    #expect(given["info"]?["title"] == "Shop" && given["info"]?["version"] == "1.2.3")
    #expect(exporter.jsonSchemaDocument(title: "Shop")["title"] == "Shop")
  }

  @Test func theJSONSchemaDocumentHasTheSameSchemasUnderDefs() throws {
    let schema = try load([("Listings.events.yaml", Self.listings)])
    let exporter = ContractExporter(schema)
    let document = exporter.jsonSchemaDocument()
    #expect(document["$schema"] == "https://json-schema.org/draft/2020-12/schema")
    #expect(document["$comment"]?.stringValue?.hasPrefix(GeneratedFileMarker.text + "Listings.events.yaml.") == true)
    let definitions = try #require(document["$defs"])
    // The AsyncAPI document adds the CloudEvents attributes its message headers share.
    var payloadComponents = try #require(exporter.asyncAPIDocument()["components"]?["schemas"]?.objectValue)
    #expect(payloadComponents.keys.last == "CloudEvents-attributes")
    payloadComponents["CloudEvents-attributes"] = nil
    let components = JSONValue.object(payloadComponents)
    #expect(definitions.objectValue?.keys == components.objectValue?.keys)
    #expect(definitions.objectValue?.keys == ["ListingCreated", "ListingRemoved", "ListingID", "Listing", "GeoPoint"])
    // One builder: the documents differ only in where the references point.
    let rewritten = compact(components).replacingOccurrences(of: "#/components/schemas/", with: "#/$defs/")
    #expect(compact(definitions) == rewritten)
    #expect(!document.prettyPrinted.contains("#/components/"))
  }

  @Test func theSummaryIsTheFirstSentenceOfTheFirstLine() throws {
    let document = try asyncAPI(
      "events:\n  A:\n    doc: \"Edge cases.\\nTwo lines.\"\n  B:\n    doc: No period here\n  C:\n    doc: Version 1.2 is out. More.\n"
    )
    let messages = try #require(document["components"]?["messages"])
    #expect(messages["A"]?["summary"] == "Edge cases.")
    #expect(messages["B"]?["summary"] == "No period here")
    #expect(messages["C"]?["summary"] == "Version 1.2 is out.")
  }
}
