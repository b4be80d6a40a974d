import BackendEvents
import Foundation
import SampleEvents
import Testing
import TypedEvents

/// The Swift generated from `Tests/BackendEvents/Contract/shapes.asyncapi.yaml`, the shapes of
/// real services' contracts, reads and writes their JSON exactly, through `userInfo` too.
@Suite("Real services' shapes: const, free-form values, choices, other keys")
struct ShapesContractTests {
  /// Decodes `json` as `E`, checks that it writes back `expected` (the same JSON unless given)
  /// and survives `userInfo`.
  @discardableResult
  private func roundTrip<E: TypedEvents.Event>(
    _ json: String, as type: E.Type, writes expected: String? = nil
  ) throws -> E {
    let event = try JSONDecoder().decode(E.self, from: Data(json.utf8))
    let written = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
    #expect(try JSONValue(jsonText: written) == (try JSONValue(jsonText: expected ?? json)), "\(written)")
    #expect(try E(userInfo: event.userInfo) == event)
    return event
  }

  private func decodingError<E: TypedEvents.Event>(_ json: String, as type: E.Type) -> String? {
    do {
      _ = try JSONDecoder().decode(E.self, from: Data(json.utf8))
      return nil
    } catch {
      return "\(error)"
    }
  }

  @Test func constIsWrittenAndChecked() throws {
    let ping = try roundTrip(#"{"type": "ping", "payload": null}"#, as: Ping.self)
    #expect(ping.type == "ping")
    #expect(ping.payload == .null)
    #expect(try roundTrip(#"{"type": "ping"}"#, as: Ping.self).payload == nil)
    let error = try #require(decodingError(#"{"type": "pong"}"#, as: Ping.self))
    #expect(error.contains("`type` must be the constant \"ping\"; found \"pong\""))
    #expect(decodingError(#"{}"#, as: Ping.self) != nil)
    #expect(throws: UserInfoDecodingError.self) { try Ping(userInfo: ["type": "pong"]) }
  }

  @Test func aChoiceIsDecodedByItsTagAndKeepsAnUnknownOne() throws {
    let duplicate = try roundTrip(
      #"{"type": "UPLOAD_FAILED", "error": {"type": "duplicate", "links": ["a"], "message": "m"}}"#,
      as: UploadFailed.self)
    #expect(duplicate.error == .duplicateError(DuplicateError(links: ["a"], message: "m")))
    let unknown = try roundTrip(
      #"{"type": "UPLOAD_FAILED", "error": {"type": "quota", "limit": 12345678901234567890.5}}"#,
      as: UploadFailed.self)
    #expect(
      unknown.error
        == .UNRECOGNIZED(["type": "quota", "limit": .decimal(Decimal(string: "12345678901234567890.5") ?? 0)]))
    // Without the tag, exactly one member must match: here the generic error alone, whose
    // constant is written back.
    let untagged = try roundTrip(
      #"{"type": "UPLOAD_FAILED", "error": {"message": "m"}}"#, as: UploadFailed.self,
      writes: #"{"type": "UPLOAD_FAILED", "error": {"type": "error", "message": "m"}}"#)
    #expect(untagged.error == .genericError(GenericError(message: "m")))
  }

  @Test func choicesWithoutATagTryTheirMembers() throws {
    let event = try roundTrip(
      #"{"type": "UPLOAD_FAILED", "error": {"type": "error", "message": "m"}, "detail": 3, "hint": "h", "score": "n/a"}"#,
      as: UploadFailed.self)
    #expect(event.detail == .integer(3))
    #expect(event.hint == .string("h"))
    #expect(event.score == .string("n/a"))
    #expect(
      try roundTrip(
        #"{"type": "UPLOAD_FAILED", "error": {"type": "error", "message": "m"}, "score": 0.5}"#, as: UploadFailed.self
      ).score == .number(0.5))
    let error = try #require(
      decodingError(#"{"type": "UPLOAD_FAILED", "error": {"message": "m"}, "detail": true}"#, as: UploadFailed.self))
    #expect(error.contains("none of `UploadFailedDetail`'s members"))
  }

  @Test func aPayloadThatIsAChoiceIsTheWholeEvent() throws {
    // Told apart by the tag, with no key around the member; `userInfo` holds the member's keys.
    let duplicate = try roundTrip(#"{"type": "duplicate", "links": ["a"], "message": "m"}"#, as: RequestFailed.self)
    #expect(duplicate.payload == .duplicateError(DuplicateError(links: ["a"], message: "m")))
    #expect(duplicate.userInfo["message"] as? String == "m")
    #expect(duplicate.userInfo["type"] as? String == "duplicate")
    #expect(
      try RequestFailed(userInfo: ["type": "error", "message": "x"]).payload
        == .genericError(GenericError(message: "x")))
    // An unknown tag is kept, in JSON and in `userInfo`, where it is a dictionary of its keys.
    let unknown = try roundTrip(
      #"{"type": "quota", "limit": 3, "ratio": 0.5, "tags": ["a", true], "owner": {"id": 7}}"#, as: RequestFailed.self)
    #expect(
      unknown.payload
        == .UNRECOGNIZED(["type": "quota", "limit": 3, "ratio": 0.5, "tags": ["a", true], "owner": ["id": 7]]))
    #expect(unknown.userInfo["limit"] as? Int64 == 3)
    #expect((unknown.userInfo["owner"] as? [String: Any])?["id"] as? Int64 == 7)
    // A property list has no null: a null member is left out of `userInfo`, as the doc says.
    let withNull = try JSONDecoder().decode(RequestFailed.self, from: Data(#"{"type": "quota", "gone": null}"#.utf8))
    #expect(try RequestFailed(userInfo: withNull.userInfo) == RequestFailed(payload: .UNRECOGNIZED(["type": "quota"])))
    // A number beyond Int64 and Double is the nearest Double there.
    let big = try JSONDecoder().decode(
      RequestFailed.self, from: Data(#"{"type": "quota", "big": 12345678901234567890.5}"#.utf8))
    #expect(big.userInfo["big"] as? Double == 12345678901234567890.5)
    // Inline, without a tag: exactly one member must match.
    #expect(
      try roundTrip(#"{"percent": 40}"#, as: Progress.self).payload == .object1(ProgressPayloadObject1(percent: 40)))
    #expect(
      try roundTrip(#"{"done": true}"#, as: Progress.self).payload == .object2(ProgressPayloadObject2(done: true)))
    let error = try #require(decodingError(#"{"percent": 1, "done": true}"#, as: Progress.self))
    #expect(error.contains("more than one of `ProgressPayload`'s members (object1, object2)"))
    #expect(decodingError(#"{"other": 1}"#, as: Progress.self)?.contains("none of `ProgressPayload`'s members") == true)
    // The event a backend sends as a CloudEvent decodes through the catalog.
    let cloudEvent =
      #"{"specversion": "1.0", "id": "1", "source": "/s", "type": "requestFailed", "data": {"type": "error", "message": "m"}}"#
    let decoded = try EventEnvelope(cloudEventJSON: Data(cloudEvent.utf8)).decode(
      using: BackendEvents.GeneratedEvents.catalog)
    #expect(decoded as? RequestFailed == RequestFailed(payload: .genericError(GenericError(message: "m"))))
  }

  @Test func cloudEventsOfEveryTypeThePatternOrListAllowsDecode() throws {
    func decoded(_ type: String, _ data: String) throws -> (any TypedEvents.Event, EventEnvelope) {
      let json = #"{"specversion": "1.0", "id": "1", "source": "/s", "type": "\#(type)", "data": \#(data)}"#
      let envelope = try EventEnvelope(cloudEventJSON: Data(json.utf8))
      return (try envelope.decode(using: BackendEvents.GeneratedEvents.catalog), envelope)
    }
    for type in ["uk.gov.fcp.sfd.notification.received", "uk.gov.fcp.sfd.notification.failed"] {
      let (event, envelope) = try decoded(type, #"{"id": "n1"}"#)
      #expect(event as? SfdNotice == SfdNotice(id: "n1"))
      #expect(envelope.name == type)
    }
    #expect(throws: EventLogError.self) { try decoded("uk.gov.other", #"{"id": "n1"}"#) }
    for type in ["com.example.item.created", "com.example.item.updated"] {
      #expect(try decoded(type, #"{"sku": "s"}"#).0 as? ItemChanged == ItemChanged(sku: "s"))
    }
    // Published from Swift: the example the pattern matches, the first value listed.
    #expect(try EventEnvelope(SfdNotice(id: "n")).name == "uk.gov.fcp.sfd.notification.received")
    #expect(
      try EventEnvelope(ItemChanged(sku: "s"), name: "com.example.item.updated").name == "com.example.item.updated")
  }

  @Test func otherKeysAndFreeFormObjectsAreKept() throws {
    let event = try roundTrip(
      #"{"type": "UPLOAD_FAILED", "error": {"type": "error", "message": "m"}, "labels": {"source": "s", "team": "t"}, "metadata": {"a": [1, {"b": null}]}}"#,
      as: UploadFailed.self)
    #expect(event.labels?.additionalProperties == ["team": "t"])
    #expect(event.metadata?["a"] == [1, ["b": nil]])
    let anything = try roundTrip(#"{"id": 7, "tags": ["x"], "nested": {"deep": true}}"#, as: Anything.self)
    #expect(anything.additionalProperties["id"] == 7)
    let batch = try roundTrip(#"{"items": [{"name": "a", "size": 1}], "cursor": "c"}"#, as: Batch.self)
    #expect(batch.items == [PutObject(name: "a", size: 1)])
    #expect(batch.additionalProperties == ["cursor": "c"])
  }

  @Test func keysByPatternAndTuplesAreKept() throws {
    let event = try roundTrip(
      #"{"type": "UPLOAD_FAILED", "error": {"type": "error", "message": "m"}, "headers": {"x-a": "1"}, "position": [1.5, -2]}"#,
      as: UploadFailed.self)
    #expect(event.headers == ["x-a": "1"])
    // Two positions written alike: an array of that type.
    #expect(event.position == [1.5, -2])
    #expect(type(of: event.position) == [Double]?.self)
    #expect(
      decodingError(
        #"{"type": "UPLOAD_FAILED", "error": {"type": "e", "message": "m"}, "headers": {"x-a": 1}}"#,
        as: UploadFailed.self) != nil)
  }

  @Test func integersBeyondInt64AreRefusedInAnIntAndKeptExactlyInAJSONValue() throws {
    // JSON Schema's integers are unbounded: an `Int` field refuses what it cannot hold...
    #expect(
      decodingError(#"{"message_type": "SessionBegins", "data": {"id": 9223372036854775808}}"#, as: SessionBegins.self)
        != nil)
    // ...and a free-form value keeps 38 digits, written back as they came.
    let digits = "12345678901234567890123456789012345678"
    let ping = try roundTrip(#"{"type": "ping", "payload": \#(digits)}"#, as: Ping.self)
    #expect(String(decoding: try JSONEncoder().encode(ping), as: UTF8.self).contains(digits))
  }

  @Test func aFloatKeepsFloatPrecisionAndRefusesWhatNoFloatHolds() throws {
    func score(_ number: String) throws -> Float? {
      let json = #"{"conversation": 7, "messages": [], "hasMore": false, "loadedIn": 1, "score": \#(number)}"#
      return try JSONDecoder().decode(SampleEvents.MessagesLoaded.self, from: Data(json.utf8)).score
    }
    #expect(try score("0.1") == 0.1)
    #expect(try score("16777217") == 16_777_216)  // to Float's precision
    #expect(try score("1e-45") == .leastNonzeroMagnitude)
    // Beyond Float's range, or so near zero that it would be 0: refused, never infinite or 0.
    for number in ["3.5e38", "-1.7976931348623157e308", "1e-46", "-2.2250738585072014e-308"] {
      #expect(throws: DecodingError.self, "\(number)") { try score(number) }
    }
  }

  @Test func allOfNarrowsTheBaseToAConstantCase() throws {
    let event = try roundTrip(#"{"message_type": "SessionBegins", "data": {"id": 4}}"#, as: SessionBegins.self)
    #expect(event.message_type == .sessionBegins)
    #expect(event.data?.id == 4)
    #expect(decodingError(#"{"message_type": "SessionEnds"}"#, as: SessionBegins.self) != nil)
    #expect(MessageType(rawValue: "UNKNOWN") == .unknown)
    #expect(MessageType(rawValue: "LATER") == .UNRECOGNIZED("LATER"))
  }
}

/// What the article "Schema format" says of its shapes example (`uploads.asyncapi.yaml`).
@Suite("Article: Schema format, real services' shapes, run")
struct UploadsArticleTests {
  @Test func whatTheArticleSaysHolds() throws {
    let heartbeat = Heartbeat(payload: ["retry": 3])
    let json = try JSONValue(jsonText: String(decoding: try JSONEncoder().encode(heartbeat), as: UTF8.self))
    #expect(json == ["type": "heartbeat", "payload": ["retry": 3]])
    do {
      _ = try JSONDecoder().decode(Heartbeat.self, from: Data(#"{"type": "pong"}"#.utf8))
      Issue.record("a Heartbeat decoded from type pong")
    } catch {
      #expect("\(error)".contains("`type` must be the constant \"heartbeat\"; found \"pong\""))
    }
    let quota = #"{"error": {"type": "quota", "limit": 10}}"#
    let rejected = try JSONDecoder().decode(UploadRejected.self, from: Data(quota.utf8))
    #expect(rejected.error == .UNRECOGNIZED(["type": "quota", "limit": 10]))
    let written = String(decoding: try JSONEncoder().encode(rejected), as: UTF8.self)
    #expect(try JSONValue(jsonText: written) == (try JSONValue(jsonText: quota)))
    #expect(SessionOpened().kind == .sessionOpened)
  }
}
