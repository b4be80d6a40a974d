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
