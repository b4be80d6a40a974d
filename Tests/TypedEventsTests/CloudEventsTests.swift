import Foundation
import Testing
import TypedEvents

@Suite("CloudEvents 1.0")
struct CloudEventsTests {
  let catalog = EventCatalog([Tick.self, Tock.self])

  @Test func anEnvelopeRoundTripsThroughCloudEventsJSON() throws {
    let envelope = try EventEnvelope(
      Tick(source: "s-9", count: 3), time: Date(timeIntervalSinceReferenceDate: 785_000_000.1234567),
      metadata: ["traceparent": "00-abc-def-01", "service": "listings"])
    let json = try envelope.cloudEventJSON(source: "/listings-service")
    let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    #expect(object["specversion"] as? String == "1.0")
    #expect(object["id"] as? String == envelope.id.uuidString)
    #expect(object["source"] as? String == "/listings-service")
    #expect(object["type"] as? String == "Test.Tick")
    #expect(object["subject"] as? String == "s-9")
    #expect(object["datacontenttype"] as? String == "application/json")
    #expect(object["eventversion"] as? Int == 1)
    #expect(object["traceparent"] as? String == "00-abc-def-01")
    #expect((object["data"] as? [String: Any])?["count"] as? Int == 3)

    let back = try EventEnvelope(cloudEventJSON: json)
    #expect(back == envelope)
    #expect(try back.decode(using: catalog) as? Tick == Tick(source: "s-9", count: 3))
  }

  @Test func theSpecificationsExampleReads() throws {
    let json = Data(
      """
      {
        "specversion" : "1.0",
        "type" : "com.github.pull_request.opened",
        "source" : "https://github.com/cloudevents/spec/pull",
        "subject" : "123",
        "id" : "A234-1234-1234",
        "time" : "2018-04-05T17:31:00Z",
        "comexampleextension1" : "value",
        "datacontenttype" : "application/json",
        "data" : {"number": 123}
      }
      """.utf8)
    // Its id is not a UUID, which an envelope's id is: refused with the reason.
    #expect(throws: EventLogError.malformed("the CloudEvent's id is not a UUID: A234-1234-1234")) {
      try EventEnvelope(cloudEventJSON: json)
    }
    let withUUID = String(decoding: json, as: UTF8.self).replacingOccurrences(
      of: "A234-1234-1234", with: "6F9619FF-8B86-D011-B42D-00C04FC964FF")
    let envelope = try EventEnvelope(cloudEventJSON: Data(withUUID.utf8))
    #expect(envelope.name == "com.github.pull_request.opened")
    #expect(envelope.subject == "123")
    #expect(envelope.version == 1)
    #expect(envelope.metadata == ["comexampleextension1": "value"])
    #expect(envelope.payload == Data(#"{"number": 123}"#.utf8))
    #expect(envelope.time == EventTimestamp.date(from: "2018-04-05T17:31:00Z"))
  }

  @Test(arguments: ["Trace", "trace-id", "type", "data", "eventversion", "averyveryverylongattributename"])
  func metadataThatCannotBeAnAttributeIsRefused(_ key: String) throws {
    let envelope = try EventEnvelope(Tick(count: 1), metadata: [key: "x"])
    #expect(throws: EventLogError.self) { try envelope.cloudEventJSON(source: "/x") }
  }

  @Test func eventsThatAreNotJSONObjectsAreRefused() throws {
    let base: [String: Any] = [
      "specversion": "1.0", "id": UUID().uuidString, "source": "/x", "type": "T", "time": "2018-04-05T17:31:00Z",
    ]
    func json(_ extra: [String: Any]) throws -> Data {
      try JSONSerialization.data(withJSONObject: base.merging(extra) { $1 })
    }
    #expect(throws: EventLogError.self) { try EventEnvelope(cloudEventJSON: try json(["data_base64": "AAAA"])) }
    #expect(throws: EventLogError.self) { try EventEnvelope(cloudEventJSON: try json(["data": [1, 2]])) }
    #expect(throws: EventLogError.self) {
      try EventEnvelope(cloudEventJSON: try json(["data": ["a": 1], "datacontenttype": "text/xml"]))
    }
    #expect(throws: EventLogError.self) {
      try EventEnvelope(cloudEventJSON: try json(["data": ["a": 1], "specversion": "0.3"]))
    }
    #expect(throws: EventLogError.self) {
      try EventEnvelope(cloudEventJSON: try json(["data": ["a": 1], "time": "yesterday"]))
    }
    #expect(try EventEnvelope(cloudEventJSON: try json(["data": ["a": 1]])).payload == Data(#"{"a":1}"#.utf8))
  }
}
