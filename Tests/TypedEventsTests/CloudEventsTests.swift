import Foundation
import Testing
import TypedEvents

@Suite("CloudEvents 1.0")
struct CloudEventsTests {
  let catalog = EventCatalog([Tick.self, Tock.self])

  @Test func anEnvelopeRoundTripsThroughCloudEventsJSON() throws {
    let envelope = try EventEnvelope(
      Tick(source: "s-9", count: 3), source: "/listings-service",
      time: Date(timeIntervalSinceReferenceDate: 785_000_000.1234567),
      metadata: ["traceparent": "00-abc-def-01", "service": "listings"])
    let json = try envelope.cloudEventJSON()
    let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    #expect(object["specversion"] as? String == "1.0")
    #expect(object["id"] as? String == envelope.id)
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

  @Test("Strings are escaped as JSON needs, every other byte kept; names come in code-point order")
  func stringsAreEscapedAndNamesSorted() throws {
    // Every control character, a quote, a backslash, a slash and text beyond ASCII.
    let awkward = String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }) + "\"\\/é😀 end"
    let envelope = try EventEnvelope(
      Tick(source: awkward, count: 1), id: "id-\(awkward)", source: "/s\"q",
      metadata: ["zeta": .string(awkward), "alpha": .integer(7), "beta2": .boolean(true)])
    let json = try envelope.cloudEventJSON()
    let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    #expect(object["id"] as? String == "id-\(awkward)")
    #expect(object["source"] as? String == "/s\"q")
    #expect(object["subject"] as? String == awkward)
    #expect(object["zeta"] as? String == awkward)
    // Nothing but the escapes JSON requires: a slash and text beyond ASCII stay as they are.
    // (The attributes only: `data` is the encoder's.)
    let text = String(decoding: json, as: UTF8.self)
    let attributes = text[..<(try #require(text.range(of: #","data":"#))).lowerBound]
    #expect(attributes.contains(#"\"\\/é😀 end"#))
    #expect(attributes.contains(#"\u0000\u0001"#) && attributes.contains(#"\b\t\n\u000b\f\r\u000e"#))
    // The names in the order they are written, up to `data` (the payload's own follow it):
    // code-point order, `data` last.
    let written = text.matches(of: /[{,]"([a-z0-9_]+)":/).map { String($0.1) }
    let names = Array(written.prefix(through: try #require(written.firstIndex(of: "data"))))
    #expect(Set(names) == Set(object.keys))
    let attributeNames = Array(names.dropLast())
    #expect(attributeNames == attributeNames.sorted { Array($0.utf8).lexicographicallyPrecedes($1.utf8) })
    #expect(try EventEnvelope(cloudEventJSON: json) == envelope)
  }

  /// The specification's own example (CloudEvents 1.0, JSON format): an id that is no UUID.
  // Computed, not a `static let`: LeakSanitizer reports a global's lazily made buffer.
  static var specificationExample: Data {
    Data(
      """
      {
        "specversion" : "1.0",
        "type" : "com.github.pull_request.opened",
        "source" : "https://github.com/cloudevents/spec/pull",
        "subject" : "123",
        "id" : "A234-1234-1234",
        "time" : "2018-04-05T17:31:00Z",
        "comexampleextension1" : "value",
        "comexampleothervalue" : 5,
        "datacontenttype" : "text/xml",
        "data" : "<much wow=\\"xml\\"/>"
      }
      """.utf8)
  }

  @Test func theSpecificationsExampleReadsAndForwardsUnchanged() throws {
    let envelope = try EventEnvelope(cloudEventJSON: Self.specificationExample)
    #expect(envelope.id == "A234-1234-1234")
    #expect(envelope.source == "https://github.com/cloudevents/spec/pull")
    #expect(envelope.name == "com.github.pull_request.opened")
    #expect(envelope.subject == "123")
    #expect(envelope.version == 1)
    #expect(envelope.metadata == ["comexampleextension1": "value", "comexampleothervalue": 5])
    #expect(envelope.dataContentType == "text/xml")
    #expect(envelope.payload == Data(#"<much wow="xml"/>"#.utf8))
    #expect(envelope.time == EventTimestamp.date(from: "2018-04-05T17:31:00Z"))

    let forwarded = try EventEnvelope(cloudEventJSON: try envelope.cloudEventJSON())
    #expect(forwarded == envelope)
    let original = try JSONSerialization.jsonObject(with: Self.specificationExample) as? NSDictionary
    let written = try JSONSerialization.jsonObject(with: try envelope.cloudEventJSON()) as? NSDictionary
    // Every attribute as it came, and the data as base64 of the same bytes; eventversion added.
    let mutable = try #require(written?.mutableCopy() as? NSMutableDictionary)
    #expect(mutable["eventversion"] as? Int == 1)
    mutable.removeObject(forKey: "eventversion")
    #expect(mutable["data_base64"] as? String == Data(#"<much wow="xml"/>"#.utf8).base64EncodedString())
    mutable.removeObject(forKey: "data_base64")
    mutable["data"] = #"<much wow="xml"/>"#
    #expect(mutable == original)
  }

  @Test func anEventWithoutTimeOrDataReadsAndWritesNone() throws {
    let json = Data(#"{"specversion":"1.0","id":"x","source":"/s","type":"T"}"#.utf8)
    let envelope = try EventEnvelope(cloudEventJSON: json)
    #expect(envelope.time == nil)
    #expect(envelope.payload.isEmpty)
    let written = try #require(try JSONSerialization.jsonObject(with: envelope.cloudEventJSON()) as? [String: Any])
    #expect(written["time"] == nil && written["data"] == nil && written["data_base64"] == nil)
    #expect(try EventEnvelope(cloudEventJSON: envelope.cloudEventJSON()) == envelope)
  }

  @Test func jsonDataWithParametersAndBase64Read() throws {
    let base = #""specversion":"1.0","id":"7","source":"/s","type":"Test.Tick","dataschema":"https://x/t.json""#
    let withCharset = try EventEnvelope(
      cloudEventJSON: Data(
        #"{\#(base),"datacontenttype":"application/json; charset=utf-8","data":{"count":2,"source":"a"}}"#.utf8))
    #expect(withCharset.dataContentType == "application/json; charset=utf-8")
    #expect(withCharset.dataSchema == "https://x/t.json")
    #expect(try withCharset.decode(using: catalog) as? Tick == Tick(count: 2))
    let encoded = Data(#"{"count":3,"source":"a"}"#.utf8).base64EncodedString()
    let base64 = try EventEnvelope(cloudEventJSON: Data(#"{\#(base),"data_base64":"\#(encoded)"}"#.utf8))
    #expect(try base64.decode(using: catalog) as? Tick == Tick(count: 3))
    let structured = try EventEnvelope(
      cloudEventJSON: Data(
        #"{\#(base),"datacontenttype":"application/vnd.tick+json","data":{"count":4,"source":"a"}}"#.utf8))
    #expect(try structured.decode(using: catalog) as? Tick == Tick(count: 4))
  }

  @Test func extensionAttributesOfEveryTypeComeBack() throws {
    let time = Date(timeIntervalSinceReferenceDate: 785_000_000.25)
    var envelope = try EventEnvelope(Tick(count: 1), source: "/ticks")
    envelope.metadata = [
      "flag": true, "count": -2_147_483_648, "text": "a b", "uri": .uri(URL(string: "https://example.com/x")!),
      "uriref": .uriReference("/relative"), "stamp": .timestamp(time)!, "blob": .binary(Data([0, 255, 1])),
    ]
    let back = try EventEnvelope(cloudEventJSON: try envelope.cloudEventJSON())
    #expect(back == envelope)
    #expect(back.metadata["stamp"]?.dateValue == time)
    #expect(back.metadata["blob"]?.dataValue == Data([0, 255, 1]))
    #expect(back.metadata["uri"]?.urlValue == URL(string: "https://example.com/x"))
    let object = try #require(try JSONSerialization.jsonObject(with: envelope.cloudEventJSON()) as? [String: Any])
    #expect(object["flag"] as? Bool == true)
    #expect(object["count"] as? Int == -2_147_483_648)
    #expect(object["blob"] as? String == "AP8B")
  }

  @Test(arguments: [CloudEventMessage.Binding.http, .kafka])
  func theBinaryModeCarriesEveryAttribute(_ binding: CloudEventMessage.Binding) throws {
    var envelope = try EventEnvelope(
      Tick(source: "s 1", count: 9), source: "/ticks", time: Date(timeIntervalSinceReferenceDate: 785_000_000.5),
      metadata: ["text": "héllo \"%\"", "count": 3, "flag": false])
    envelope.dataSchema = "https://example.com/tick.json"
    let message = try envelope.cloudEventMessage(binding)
    let prefix = binding == .http ? "ce-" : "ce_"
    #expect(message.headers[prefix + "id"] == envelope.id)
    #expect(message.headers[prefix + "specversion"] == "1.0")
    #expect(message.headers[prefix + "type"] == "Test.Tick")
    #expect(message.headers[prefix + "time"] == "2025-11-16T15:33:20.5Z")
    #expect(message.headers[prefix + "eventversion"] == "1")
    #expect(message.headers[binding == .http ? "Content-Type" : "content-type"] == "application/json")
    #expect(message.headers[prefix + "text"] == (binding == .http ? "h%C3%A9llo%20%22%25%22" : "héllo \"%\""))
    #expect(message.headers[prefix + "subject"] == (binding == .http ? "s%201" : "s 1"))
    #expect(message.body == envelope.payload)

    let back = try EventEnvelope(cloudEventMessage: message)
    // Headers are text: the Integer and the Boolean come back as their strings.
    var expected = envelope
    expected.metadata = ["text": "héllo \"%\"", "count": "3", "flag": "false"]
    #expect(back == expected)
    #expect(try back.decode(using: catalog) as? Tick == Tick(source: "s 1", count: 9))
    // Header names are matched without regard to case; other headers are not the event's.
    var shouted = message
    shouted.headers = Dictionary(uniqueKeysWithValues: message.headers.map { ($0.key.uppercased(), $0.value) })
    shouted.headers["Accept"] = "*/*"
    #expect(try EventEnvelope(cloudEventMessage: shouted) == expected)
  }

  @Test func headersNamingTheDataAreNotAttributes() throws {
    // `data` and `data_base64` are the body's in the binary mode, never an extension attribute.
    let message = CloudEventMessage(
      binding: .http,
      headers: [
        "ce-specversion": "1.0", "ce-id": "1", "ce-source": "/s", "ce-type": "T", "ce-data": "x",
        "ce-data_base64": "AA==", "ce-eventversion": "2", "ce-trace": "t",
      ],
      body: Data("{}".utf8))
    let envelope = try EventEnvelope(cloudEventMessage: message)
    #expect(envelope.metadata == ["trace": "t"])
    #expect(envelope.version == 2)
    #expect(envelope.payload == Data("{}".utf8))
  }

  @Test func whichErrorAnEventGetsDoesNotDependOnHashOrder() {
    // Read with JSONDecoder (the fraction), whose attributes come as a dictionary.
    let json = Data(#"{"specversion":"1.0","id":"1","source":"/s","type":"T","n":1.5,"data_base64":{}}"#.utf8)
    #expect(throws: EventLogError.malformed("the CloudEvent attribute n has no CloudEvents type")) {
      try EventEnvelope(cloudEventJSON: json)
    }
  }

  @Test func badPercentEncodingIsRefused() {
    let message = CloudEventMessage(
      binding: .http, headers: ["ce-specversion": "1.0", "ce-id": "1", "ce-source": "/s", "ce-type": "%G1"],
      body: Data())
    #expect(throws: EventLogError.malformed("the header ce-type is not valid percent-encoding: %G1")) {
      try EventEnvelope(cloudEventMessage: message)
    }
  }

  @Test func aBatchKeepsOrderAndEveryEvent() throws {
    let envelopes = [
      try EventEnvelope(Tick(count: 1)), try EventEnvelope(cloudEventJSON: Self.specificationExample),
      try EventEnvelope(Tick(count: 2), source: "/own"),
    ]
    let batch = try EventEnvelope.cloudEventBatchJSON(envelopes, source: "/ticks")
    let back = try EventEnvelope.envelopes(cloudEventBatchJSON: batch)
    var expected = envelopes
    expected[0].source = "/ticks"
    #expect(back == expected)
    #expect(try EventEnvelope.envelopes(cloudEventBatchJSON: Data(" [ ] ".utf8)).isEmpty)
    #expect(throws: EventLogError.malformed("element 1 of the batch: a CloudEvent needs a non-empty id")) {
      try EventEnvelope.envelopes(
        cloudEventBatchJSON: Data(
          #"[{"specversion":"1.0","id":"1","source":"/s","type":"T"},{"specversion":"1.0","source":"/s","type":"T"}]"#
            .utf8))
    }
    #expect(throws: EventLogError.malformed("a CloudEvents batch is a JSON array")) {
      try EventEnvelope.envelopes(cloudEventBatchJSON: Data("{}".utf8))
    }
    // The whole batch is checked by the grammar, which says where it breaks; after the array,
    // nothing.
    let good = #"{"specversion":"1.0","id":"1","source":"/s","type":"T"}"#
    #expect(
      throws: EventLogError.malformed(
        "the batch is not JSON at line 1, column 66 (byte 65): 't' where a value must come")
    ) {
      try EventEnvelope.envelopes(cloudEventBatchJSON: Data("[\(good), {\"id\": tru}]".utf8))
    }
    #expect(
      throws: EventLogError.malformed(
        "the batch is not JSON at line 1, column 59 (byte 58): 'x' where nothing after the JSON value must come")
    ) {
      try EventEnvelope.envelopes(cloudEventBatchJSON: Data("[\(good)] x".utf8))
    }
    #expect(
      throws: EventLogError.malformed(
        "the batch is not JSON at line 1, column 4 (byte 3): '[' where nothing after the JSON value must come")
    ) {
      try EventEnvelope.envelopes(cloudEventBatchJSON: Data("[] []".utf8))
    }
    #expect(
      throws: EventLogError.malformed(
        "the batch is not JSON at line 1, column 57 (byte 56): a comma before the closing bracket (a trailing comma is not JSON)"
      )
    ) {
      try EventEnvelope.envelopes(cloudEventBatchJSON: Data("[\(good),]".utf8))
    }
  }

  @Test(arguments: ["Trace", "trace-id", "type", "data", "eventversion", "averyveryverylongattributename"])
  func metadataThatCannotBeAnAttributeIsRefused(_ key: String) throws {
    let envelope = try EventEnvelope(Tick(count: 1), metadata: [key: "x"])
    #expect(throws: EventLogError.self) { try envelope.cloudEventJSON(source: "/x") }
  }

  @Test func eventsThatAreNotCloudEventsAreRefused() throws {
    let base: [String: Any] = [
      "specversion": "1.0", "id": UUID().uuidString, "source": "/x", "type": "T", "time": "2018-04-05T17:31:00Z",
    ]
    func json(_ extra: [String: Any?]) throws -> Data {
      var object = base
      for (key, value) in extra { object[key] = value }
      return try JSONSerialization.data(withJSONObject: object)
    }
    #expect(throws: EventLogError.malformed("the CloudEvent's data_base64 is not base64")) {
      try EventEnvelope(cloudEventJSON: try json(["data_base64": "not base64!"]))
    }
    #expect(throws: EventLogError.malformed("not a CloudEvents 1.0 event (specversion)")) {
      try EventEnvelope(cloudEventJSON: try json(["data": ["a": 1], "specversion": "0.3"]))
    }
    #expect(throws: EventLogError.self) {
      try EventEnvelope(cloudEventJSON: try json(["data": ["a": 1], "time": "yesterday"]))
    }
    #expect(throws: EventLogError.malformed("a CloudEvent needs a non-empty id")) {
      try EventEnvelope(cloudEventJSON: try json(["id": ""]))
    }
    #expect(throws: EventLogError.self) { try EventEnvelope(cloudEventJSON: try json(["source": nil])) }
    #expect(throws: EventLogError.malformed("the CloudEvent attribute nested has no CloudEvents type")) {
      try EventEnvelope(cloudEventJSON: try json(["nested": ["a": 1]]))
    }
    #expect(throws: EventLogError.malformed("a CloudEvent is a JSON object")) {
      try EventEnvelope(cloudEventJSON: Data("[1]".utf8))
    }
    // Data of any JSON type reads; only a typed decode needs an object.
    let array = try EventEnvelope(cloudEventJSON: try json(["data": [1, 2]]))
    #expect(array.payload == Data("[1,2]".utf8))
    #expect(throws: (any Error).self) { try array.decode(using: catalog) }
    #expect(try EventEnvelope(cloudEventJSON: try json(["data": ["a": 1]])).payload == Data(#"{"a":1}"#.utf8))
    // An Integer beyond 32 bits is no CloudEvents Integer.
    let tooBig = try EventEnvelope(Tick(count: 1), source: "/x", metadata: ["big": .integer(1 << 40)])
    #expect(throws: EventLogError.self) { try tooBig.cloudEventJSON() }
    let sourceless = try EventEnvelope(Tick(count: 1))
    #expect(throws: EventLogError.malformed("the CloudEvent Test.Tick \(sourceless.id) needs a source")) {
      try sourceless.cloudEventJSON()
    }
  }
}
