import EdgeCaseEvents
import Foundation
import SampleEvents
import Testing
import TypedEvents

/// The CloudEvents Python SDK reads what the envelopes write and writes what they read, in the
/// structured, binary (HTTP and Kafka) and batch modes (`Scripts/peers/cloudevents_peer.py`).
@Suite("Peers: the CloudEvents Python SDK", .enabled(if: Peers.python != nil, Peers.pythonMissing))
struct CloudEventsPeerTests {
  static let events: [any Event] = [
    Fixtures.sold, Fixtures.item, Fixtures.page, Fixtures.nested, Fixtures.keywords,
    ListingCreated(listing: Fixtures.listing),
  ]

  static func envelopes() throws -> [EventEnvelope] {
    try events.map {
      try EventEnvelope(
        $0, source: "/swift-tests", metadata: ["traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"]
      )
    }
  }

  struct Message: Codable {
    var mode: String
    var headers: [String: String]
    var body: String  // base64
  }

  struct Request: Encodable {
    var messages: [Message]
    var originate: [Originate]
  }

  struct Originate: Encodable {
    var type: String
    var source: String
    var subject: String?
    var data: JSONText
    var extensions: [String: String]
  }

  /// JSON written as it is inside an encoded document.
  struct JSONText: Encodable {
    var object: [String: JSONFragment]
    init(_ data: Data) throws {
      object = try JSONDecoder().decode([String: JSONFragment].self, from: data)
    }
    func encode(to encoder: any Encoder) throws { try object.encode(to: encoder) }
  }

  struct Described: Decodable {
    var attributes: [String: JSONFragment]
    var data: JSONFragment?
  }

  struct Originated: Decodable {
    var event: Described
    var messages: [Message]
  }

  struct Response: Decodable {
    var read: [[Described]]
    var written: [Message]
    var originated: [Originated]
  }

  func message(_ envelope: EventEnvelope, _ mode: String) throws -> Message {
    switch mode {
    case "structured":
      return Message(
        mode: mode, headers: ["content-type": "application/cloudevents+json"],
        body: try envelope.cloudEventJSON().base64EncodedString())
    default:
      let binary = try envelope.cloudEventMessage(mode == "http" ? .http : .kafka)
      return Message(mode: mode, headers: binary.headers, body: binary.body.base64EncodedString())
    }
  }

  /// The envelopes of a message the SDK wrote.
  func read(_ message: Message) throws -> [EventEnvelope] {
    let body = try #require(Data(base64Encoded: message.body))
    switch message.mode {
    case "structured": return [try EventEnvelope(cloudEventJSON: body)]
    case "batch": return try EventEnvelope.envelopes(cloudEventBatchJSON: body)
    default:
      return [
        try EventEnvelope(
          cloudEventMessage: CloudEventMessage(
            binding: message.mode == "http" ? .http : .kafka, headers: message.headers, body: body))
      ]
    }
  }

  func exchange(_ request: Request) async throws -> Response {
    let input = try Peers.temporaryFile(try JSONEncoder().encode(request), suffix: ".json")
    let output = input.appendingPathExtension("out")
    defer {
      try? FileManager.default.removeItem(at: input)
      try? FileManager.default.removeItem(at: output)
    }
    _ = try await Peers.run(try #require(Peers.python), [Peers.script("cloudevents_peer.py"), input.path, output.path])
    return try JSONDecoder().decode(Response.self, from: Data(contentsOf: output))
  }

  /// Same attributes, the time to the microsecond Python keeps, the same typed event.
  func expectSame(_ read: EventEnvelope, _ written: EventEnvelope, _ context: String) throws {
    #expect(read.id == written.id, "\(context)")
    #expect(read.source == written.source, "\(context)")
    #expect(read.name == written.name, "\(context)")
    #expect(read.subject == written.subject, "\(context)")
    #expect(read.version == written.version, "\(context)")
    #expect(read.metadata == written.metadata, "\(context)")
    let readTime = try #require(read.time, "\(context)")
    let writtenTime = try #require(written.time, "\(context)")
    #expect(abs(readTime.timeIntervalSince(writtenTime)) < 1e-6, "\(context)")
    let catalog = SampleEvents.GeneratedEvents.catalog.merging(EdgeCaseEvents.GeneratedEvents.catalog)
    let decoded = try read.decode(using: catalog)
    let original = try written.decode(using: catalog)
    #expect(decoded.isEqual(to: original), "\(context)")
  }

  @Test func theSDKReadsAndWritesEveryModeBackUnchanged() async throws {
    let envelopes = try Self.envelopes()
    var messages: [Message] = []
    for envelope in envelopes {
      for mode in ["structured", "http", "kafka"] { messages.append(try message(envelope, mode)) }
    }
    messages.append(
      Message(
        mode: "batch", headers: ["content-type": EventEnvelope.cloudEventBatchContentType],
        body: try EventEnvelope.cloudEventBatchJSON(envelopes).base64EncodedString()))
    let response = try await exchange(Request(messages: messages, originate: []))
    try #require(response.read.count == messages.count && response.written.count == messages.count)

    for (index, message) in messages.enumerated() {
      let written = message.mode == "batch" ? envelopes : [envelopes[index / 3]]
      // What the SDK read: the attributes and data this package wrote.
      for (described, envelope) in zip(response.read[index], written) {
        #expect(described.attributes["id"] == .string(envelope.id))
        #expect(described.attributes["source"] == .string("/swift-tests"))
        #expect(described.attributes["type"] == .string(envelope.name))
        #expect(described.attributes["traceparent"] == .string(envelope.metadata["traceparent"]?.stringValue ?? ""))
        #expect(
          described.data == (try JSONDecoder().decode(JSONFragment.self, from: envelope.payload)), "\(message.mode)")
      }
      // What the SDK wrote back in the same mode reads as the same event.
      let back = try read(response.written[index])
      try #require(back.count == written.count)
      for (read, envelope) in zip(back, written) {
        try expectSame(read, envelope, "\(message.mode) \(envelope.name)")
      }
    }
  }

  @Test func aSpecLegalEventWithoutTimeOrUUIDIsForwardedUnchanged() async throws {
    let text =
      #"{"specversion":"1.0","type":"com.github.pull_request.opened","source":"https://github.com/cloudevents/spec/pull","#
      + #""subject":"123","id":"A234-1234-1234","comexampleextension1":"value","data":{"number":123}}"#
    let json = Data(text.utf8)
    let envelope = try EventEnvelope(cloudEventJSON: json)
    let messages = try ["structured", "http", "kafka"].map { try message(envelope, $0) }
    let response = try await exchange(Request(messages: messages, originate: []))
    for (index, described) in response.read.enumerated() {
      let attributes = try #require(described.first?.attributes)
      #expect(attributes["id"] == .string("A234-1234-1234"), "\(messages[index].mode)")
      #expect(attributes["source"] == .string("https://github.com/cloudevents/spec/pull"))
      #expect(attributes["comexampleextension1"] == .string("value"))
      #expect(described.first?.data == .object(["number": .integer(123)]))
      // The SDK's event type gives every event a time, the current one where none came: all
      // else it writes back is what it read, the data spaced its own way.
      var back = try read(response.written[index])
      #expect(back.first?.time != nil)
      #expect(try JSONDecoder().decode(JSONFragment.self, from: back[0].payload) == .object(["number": .integer(123)]))
      back[0].time = nil
      back[0].payload = envelope.payload
      #expect(back == [envelope], "\(messages[index].mode)")
    }
  }

  @Test func eventsTheSDKMakesWithItsDefaultsDecodeTyped() async throws {
    let envelopes = try Self.envelopes()
    let originate = try envelopes.map {
      Originate(
        type: $0.name, source: "/python-service", subject: $0.subject, data: try JSONText($0.payload),
        extensions: ["partitionkey": "p-1"])
    }
    let response = try await exchange(Request(messages: [], originate: originate))
    try #require(response.originated.count == envelopes.count)
    let catalog = SampleEvents.GeneratedEvents.catalog.merging(EdgeCaseEvents.GeneratedEvents.catalog)
    for (made, envelope) in zip(response.originated, envelopes) {
      guard case .string(let id)? = made.event.attributes["id"] else {
        Issue.record("the SDK made no id")
        continue
      }
      for message in made.messages {
        let read = try self.read(message)
        try #require(read.count == 1, "\(message.mode)")
        #expect(read[0].id == id, "\(message.mode)")  // a UUID4 in lower case: any string is an id
        #expect(read[0].source == "/python-service", "\(message.mode)")
        #expect(read[0].time != nil, "\(message.mode)")
        if message.mode != "kafka" {  // the SDK's Kafka binding moves partitionkey to the message key
          #expect(read[0].metadata == ["partitionkey": "p-1"], "\(message.mode)")
        }
        let decoded = try read[0].decode(using: catalog)
        #expect(decoded.isEqual(to: try envelope.decode(using: catalog)), "\(message.mode) \(envelope.name)")
      }
    }
  }
}

/// Any JSON value, compared by value (numbers as the Double or whole number they are).
enum JSONFragment: Codable, Equatable {
  case null
  case bool(Bool)
  case integer(Int64)
  case unsigned(UInt64)
  case number(Double)
  case string(String)
  case array([JSONFragment])
  case object([String: JSONFragment])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(UInt64.self) {
      self = .unsigned(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONFragment].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONFragment].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .unsigned(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}

extension Event {
  /// Whether `other` is an event of the same type equal to this one.
  func isEqual(to other: any Event) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}
