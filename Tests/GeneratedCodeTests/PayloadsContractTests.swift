import BackendEvents
import Foundation
import Testing
import TypedEvents

/// The Swift generated from `Tests/BackendEvents/Contract/payloads.asyncapi.yaml`, whose
/// messages' payloads are not objects (a string, a number, a Boolean, an array, a choice with a
/// string member): each is an event whose JSON is the payload itself, through the catalog,
/// `userInfo`, CloudEvents and an `EventLog`.
@Suite("Payloads that are not objects")
struct PayloadsContractTests {
  /// Decodes `json` through the catalog as `E`, checks that it writes the same JSON back and
  /// survives `userInfo` (where the payload is under `payload`), a structured CloudEvent and a
  /// log's line.
  @discardableResult
  private func roundTrip<E: TypedEvents.Event>(_ json: String, as type: E.Type) throws -> E {
    let envelope = EventEnvelope(id: "1", time: nil, name: E.eventName, version: 1, payload: Data(json.utf8))
    try envelope.validate()
    let decoded = try envelope.decode(using: GeneratedEvents.catalog)
    let event = try #require(decoded as? E, "\(Swift.type(of: decoded))")
    let written = try EventEnvelope(event, id: "2", source: "/test")
    #expect(
      try JSONValue(jsonText: String(decoding: written.payload, as: UTF8.self)) == (try JSONValue(jsonText: json)))
    #expect(event.userInfo["payload"] != nil)
    #expect(try E(userInfo: event.userInfo) == event)
    // In a structured CloudEvent, `data` is the value itself.
    let cloudEvent = try JSONValue(jsonText: String(decoding: try written.cloudEventJSON(), as: UTF8.self))
    guard case .object(let members) = cloudEvent else { throw PayloadTestError("\(cloudEvent)") }
    #expect(members["data"] == (try JSONValue(jsonText: json)))
    #expect(
      try EventEnvelope(cloudEventJSON: try written.cloudEventJSON()).decode(using: GeneratedEvents.catalog) as? E
        == event)
    // And in a log's line.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("payloads-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = EventLog(url: folder.appendingPathComponent("events.log"))
    try log.append(written)
    let read = try log.read()
    #expect(read.problems.isEmpty)
    #expect(try read.envelopes.first?.decode(using: GeneratedEvents.catalog) as? E == event)
    return event
  }

  struct PayloadTestError: Swift.Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  @Test func scalarsAndArraysAreEvents() throws {
    #expect(try roundTrip(#""hello, \"room\"""#, as: ChatLine.self).payload == #"hello, "room""#)
    #expect(try roundTrip("9007199254740993", as: KeepAlive.self).payload == 9_007_199_254_740_993)
    #expect(try roundTrip("0.25", as: Level.self).payload == 0.25)
    #expect(try roundTrip("true", as: Ready.self).payload)
    #expect(try roundTrip(#"["XBT","USD"]"#, as: TickerPair.self).payload == ["XBT", "USD"])
    #expect(try roundTrip("[1.5,2]", as: Quote.self).payload == [1.5, 2])
    let stamped = try roundTrip(#""2026-11-29T12:00:00.5Z""#, as: Stamped.self)
    #expect(stamped.payload == Date(timeIntervalSince1970: 1_795_953_600.5))
  }

  @Test func aChoiceWithAStringMemberIsAnEvent() throws {
    #expect(try roundTrip(#""plain""#, as: Update.self).payload == .string("plain"))
    #expect(try roundTrip(#"{"id":"u1"}"#, as: Update.self).payload == .update(UpdateSchema(id: "u1")))
  }

  @Test func aPayloadOfAnotherShapeDoesNotDecode() {
    for (json, type) in [(#"{"a":1}"#, ChatLine.self as any TypedEvents.Event.Type), ("\"x\"", KeepAlive.self)] {
      let envelope = EventEnvelope(id: "1", time: nil, name: type.eventName, version: 1, payload: Data(json.utf8))
      #expect(throws: (any Swift.Error).self, "\(json)") { try envelope.decode(using: GeneratedEvents.catalog) }
    }
  }
}

/// The binary frames of `Tests/BackendEvents/Contract/payloads.asyncapi.yaml`: events whose data
/// is bytes of their content type, in an envelope, `userInfo`, a CloudEvent in either mode and
/// an `EventLog`'s line.
@Suite("Binary payloads")
struct BinaryPayloadTests {
  /// Every byte value, and bytes that are no UTF-8 and no JSON.
  static let bytes = Data((0...255).map(UInt8.init) + [0xFF, 0xFE, 0x0A, 0x00])

  @Test func aBinaryFrameIsItsBytesEverywhere() throws {
    let frame = AudioFrame(payload: Self.bytes)
    let envelope = try EventEnvelope(frame, id: "f1", source: "/test")
    #expect(envelope.payload == Self.bytes)
    #expect(envelope.dataContentType == "audio/ogg")
    #expect(!envelope.hasJSONPayload)
    try envelope.validate()
    #expect(try envelope.decode(using: GeneratedEvents.catalog) as? AudioFrame == frame)
    #expect(try AudioFrame(userInfo: frame.userInfo) == frame)
    #expect(frame.userInfo["payload"] as? Data == Self.bytes)
    // Its own Codable form, which no envelope uses, is a base64 string.
    #expect(
      try JSONDecoder().decode(String.self, from: JSONEncoder().encode(frame)) == Self.bytes.base64EncodedString())
    #expect(try JSONDecoder().decode(AudioFrame.self, from: JSONEncoder().encode(frame)) == frame)

    // A structured CloudEvent carries them as `data_base64`, the binary mode as the body.
    let structured = try envelope.cloudEventJSON()
    let members = try #require(try JSONSerialization.jsonObject(with: structured) as? [String: Any])
    #expect(members["data_base64"] as? String == Self.bytes.base64EncodedString())
    #expect(members["data"] == nil && members["datacontenttype"] as? String == "audio/ogg")
    #expect(
      try EventEnvelope(cloudEventJSON: structured).decode(using: GeneratedEvents.catalog) as? AudioFrame == frame)
    let message = try envelope.cloudEventMessage(.http)
    #expect(message.body == Self.bytes)
    #expect(
      try EventEnvelope(cloudEventMessage: message).decode(using: GeneratedEvents.catalog) as? AudioFrame == frame)

    // A log keeps them as base64 text on the line, and gives them back.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("binary-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = EventLog(url: folder.appendingPathComponent("events.log"))
    try log.append(contentsOf: [envelope, try EventEnvelope(Upload(payload: Data()), id: "f2", source: "/test")])
    let line = try String(contentsOf: log.url, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
    #expect(line.hasSuffix(#","payload":"\#(Self.bytes.base64EncodedString())"}"#), "\(line)")
    let read = try log.read()
    #expect(read.problems.isEmpty)
    #expect(read.envelopes.first == envelope)
    #expect(try read.envelopes.last?.decode(using: GeneratedEvents.catalog) as? Upload == Upload(payload: Data()))
  }

  @Test func structuredDataOfAnotherFormatIsItsBytes() throws {
    // `application/xml` with an object schema: eventgen does not read XML, so the event is bytes.
    let xml = Data(#"<report id="r1"/>"#.utf8)
    let envelope = try EventEnvelope(Report(payload: xml), id: "x1", source: "/test")
    #expect(envelope.payload == xml && envelope.dataContentType == "application/xml")
    #expect(try envelope.decode(using: GeneratedEvents.catalog) as? Report == Report(payload: xml))
  }

  @Test func bytesAndJSONAreNotTakenForEachOther() throws {
    // JSON for a binary event is the sender's mistake, said as such; bytes for a JSON event are
    // read as JSON, and these are none.
    let json = EventEnvelope(id: "1", time: nil, name: AudioFrame.eventName, version: 1, payload: Data(#""AAE=""#.utf8))
    #expect { try json.decode(using: GeneratedEvents.catalog) } throws: { "\($0)".contains("holds JSON") }
    let bytes = EventEnvelope(
      id: "2", time: nil, name: ChatLine.eventName, version: 1, dataContentType: "application/octet-stream",
      payload: Data("hi".utf8))
    #expect(throws: DecodingError.self) { try bytes.decode(using: GeneratedEvents.catalog) }
  }
}

/// The text messages of `Tests/BackendEvents/Contract/payloads.asyncapi.yaml` (`text/plain`, as
/// an MQTT tracker publishes `ONLINE` or `12.5`): binary events whose bytes are their value's
/// UTF-8 text, and whose property has the value's type.
@Suite("Text payloads")
struct TextPayloadTests {
  /// The event that `text` gives through an envelope of its content type and the catalog.
  private func event<E: BinaryEvent>(_ text: String, as type: E.Type) throws -> E {
    let envelope = EventEnvelope(
      id: "1", time: nil, name: E.eventName, version: 1, dataContentType: E.dataContentType, payload: Data(text.utf8))
    try envelope.validate()
    return try #require(try envelope.decode(using: GeneratedEvents.catalog) as? E)
  }

  @Test func aTextIsItsValue() throws {
    #expect(try event("ONLINE", as: ReceiverStatus.self).payload == .online)
    #expect(try event("12.5", as: MessagesPerSecond.self).payload == 12.5)
    #expect(try event("true", as: Connected.self).payload)
    #expect(try event("hello, world", as: Motd.self).payload == "hello, world")
    // A string's `format` annotates the text: it is kept as it came.
    #expect(try event("2026-11-29T18:00:00Z", as: LastSeen.self).payload == "2026-11-29T18:00:00Z")
    // Written back as the same text, with the event's content type.
    for (event, text) in [
      (MessagesPerSecond(payload: 12.5) as any BinaryEvent, "12.5"), (Connected(payload: false), "false"),
      (ReceiverStatus(payload: .offline), "OFFLINE"), (Motd(payload: "héllo"), "héllo"),
    ] {
      let envelope = try EventEnvelope(event, id: "2", source: "/test")
      #expect(envelope.payload == Data(text.utf8) && envelope.dataContentType == "text/plain", "\(text)")
    }
    // An open enum keeps a value this version does not know.
    #expect(try event("DEGRADED", as: ReceiverStatus.self).payload == .UNRECOGNIZED("DEGRADED"))
  }

  @Test func aTextThatIsNoValueOfTheTypeIsRefused() {
    #expect(throws: EventLogError.self) { try event("maybe", as: Connected.self) }
    #expect(throws: EventLogError.self) { try event("12,5", as: MessagesPerSecond.self) }
    let notUTF8 = EventEnvelope(
      id: "3", time: nil, name: Motd.eventName, version: 1, dataContentType: "text/plain", payload: Data([0xFF, 0xFE]))
    #expect(throws: EventLogError.self) { try notUTF8.decode(using: GeneratedEvents.catalog) }
  }
}
