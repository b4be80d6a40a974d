import Foundation
import Testing

@testable import TypedEvents

/// Every way JSON enters the runtime has `StrictJSON` check it first: a CloudEvent in each
/// content mode, a batch, `validate()` (and so every append), a line of the log. A shape refused
/// on one way is refused on every other, and nothing of it is stored.
@Suite("Strict JSON at every entry")
struct StrictEntryTests {
  /// A CloudEvent around `data`, written as given.
  static func event(data: String, extra: String = "") -> String {
    #"{"specversion":"1.0","id":"e-1","source":"/s","type":"Test.Tick","subject":"s"\#(extra),"data":\#(data)}"#
  }

  /// Data each entry must refuse, and why: each breaks the grammar somewhere other readers
  /// disagree about, or fail on.
  static let badData: [(what: String, data: [UInt8])] = [
    ("a trailing comma", Array(#"{"source":"s","count":1,}"#.utf8)),
    ("a key twice", Array(#"{"source":"s","count":1,"count":2}"#.utf8)),
    ("a key twice, one escaped", Array(#"{"source":"s","count":1,"co\u0075nt":2}"#.utf8)),
    ("a key twice, deep", Array(#"{"source":"s","count":1,"x":[{"a":1,"a":2}]}"#.utf8)),
    ("a raw line break in a string", Array("{\"source\":\"a\nb\",\"count\":1}".utf8)),
    ("a lone surrogate", Array(#"{"source":"\ud800","count":1}"#.utf8)),
    ("a bad escape", Array(#"{"source":"\q","count":1}"#.utf8)),
    ("a number beyond a double", Array(#"{"source":"s","count":1,"x":1e400}"#.utf8)),
    ("a byte order mark", [0xEF, 0xBB, 0xBF] + Array(#"{"source":"s","count":1}"#.utf8)),
    ("UTF-16", Array(#"{"source":"s","count":1}"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })),
    ("bytes that are not UTF-8", Array(#"{"source":""#.utf8) + [0xC3, 0x28] + Array(#"","count":1}"#.utf8)),
  ]

  @Test("Bad data is refused in every content mode and every append, saying where", arguments: badData)
  func badDataIsRefusedEverywhere(_ what: String, _ data: [UInt8]) async throws {
    let structured = Data(Self.event(data: "").utf8.dropLast()) + Data(data) + Data("}".utf8)
    #expect(throws: EventLogError.self, "\(what): structured") { try EventEnvelope(cloudEventJSON: structured) }
    let batch = Data("[".utf8) + structured + Data("]".utf8)
    #expect(throws: EventLogError.self, "\(what): batch") { try EventEnvelope.envelopes(cloudEventBatchJSON: batch) }
    let message = CloudEventMessage(
      binding: .http,
      headers: [
        "ce-specversion": "1.0", "ce-id": "e-1", "ce-source": "/s", "ce-type": "Test.Tick",
        "Content-Type": "application/json",
      ],
      body: Data(data))
    #expect(throws: EventLogError.self, "\(what): binary") { try EventEnvelope(cloudEventMessage: message) }

    // An envelope made in Swift with such a payload: every append refuses it, and nothing is
    // written.
    let log = EventLog(url: FileManager.default.temporaryDirectory.appendingPathComponent("strict-\(UUID()).jsonl"))
    defer { try? FileManager.default.removeItem(at: log.url) }
    let envelope = EventEnvelope(id: "e-1", source: "/s", time: nil, name: "Test.Tick", version: 1, payload: Data(data))
    #expect(throws: EventLogError.self, "\(what): validate") { try envelope.validate() }
    #expect(throws: EventLogError.self, "\(what): append") { try log.append(envelope) }
    await #expect(throws: EventLogError.self, "\(what): appendOnce") { try await log.appendOnce([envelope]) }
    #expect(try log.read().envelopes.isEmpty)
  }

  @Test("The error of a CloudEvent that is not JSON says where")
  func whereItBreaks() throws {
    let json = Data(Self.event(data: #"{"source":"s","count":1,}"#).utf8)
    let error = try #require(throws: EventLogError.self) { try EventEnvelope(cloudEventJSON: json) }
    #expect(
      error.description
        == "the JSON text is not JSON at line 1, column 110 (byte 109): "
        + "a comma before the closing bracket (a trailing comma is not JSON)")
  }

  @Test("A key written with escapes is the key it denotes: data is not dropped")
  func escapedKeys() throws {
    let json =
      #"{"specversion":"1.0","id":"e-1","source":"/s","type":"Test.Tick","d\u0061ta":{"source":"s","count":2}}"#
    let envelope = try EventEnvelope(cloudEventJSON: Data(json.utf8))
    #expect(envelope.payload == Data(#"{"source":"s","count":2}"#.utf8))
    #expect(try envelope.decode(using: EventCatalog([Tick.self])) as? Tick == Tick(source: "s", count: 2))
    let twice = #"{"specversion":"1.0","id":"e-1","source":"/s","type":"Test.Tick","data":{},"d\u0061ta":{}}"#
    #expect(throws: EventLogError.self) { try EventEnvelope(cloudEventJSON: Data(twice.utf8)) }
    let twoIDs = #"{"specversion":"1.0","id":"a","source":"/s","type":"Test.Tick","\u0069d":"b"}"#
    #expect(throws: EventLogError.self) { try EventEnvelope(cloudEventJSON: Data(twoIDs.utf8)) }
  }

  /// An attribute a log or store refuses: what no CloudEvents reader, or PostgreSQL, takes.
  struct BadAttribute: Sendable, CustomTestStringConvertible {
    var what: String
    var id = "e-1"
    var source = "/s"
    var time: Date?
    var version = 1
    var subject: String? = "s"
    var metadata: [String: EventAttributeValue] = [:]

    var testDescription: String { what }

    /// Built in the test, not held in the static: LeakSanitizer cannot see the pointer in a
    /// `Data` kept by a static's array, and reports its storage as leaked.
    var envelope: EventEnvelope {
      EventEnvelope(
        id: id, source: source, time: time, name: "Test.Tick", version: version, subject: subject, metadata: metadata,
        payload: Data(#"{"source":"s","count":1}"#.utf8))
    }
  }

  static let badAttributes: [BadAttribute] = [
    BadAttribute(what: "an extension name with _", metadata: ["trace_id": "x"]),
    BadAttribute(what: "an extension name in upper case", metadata: ["traceId": "x"]),
    BadAttribute(what: "an extension name of 21 characters", metadata: [String(repeating: "a", count: 21): "x"]),
    BadAttribute(what: "a defined attribute's name as metadata", metadata: ["subject": "x"]),
    BadAttribute(what: "an Integer beyond 32 bits", metadata: ["n": .integer(1 << 32)]),
    BadAttribute(what: "a NUL in the id", id: "a\u{0}b"),
    BadAttribute(what: "a line break in the subject", subject: "a\nb"),
    BadAttribute(what: "U+0085 in the subject", subject: "a\u{85}b"),
    BadAttribute(what: "DEL in metadata", metadata: ["note": "a\u{7F}"]),
    // What PostgreSQL cannot index or hold, or crashes binding, and Python's datetime cannot read.
    BadAttribute(what: "an id of 1,025 bytes", id: String(repeating: "i", count: 1_025)),
    BadAttribute(what: "a source of 1,025 bytes", source: "/" + String(repeating: "s", count: 1_024)),
    BadAttribute(what: "an eventversion beyond 32 bits", version: Int(Int32.max) + 1),
    BadAttribute(what: "a time after the year 9999", time: EventTimestamp.date(from: "10000-01-01T00:00:00Z")),
    BadAttribute(what: "a time before the year 1", time: EventTimestamp.date(from: "0000-12-31T23:59:59.999Z")),
  ]

  @Test("An attribute no reader or store takes is refused by every append", arguments: badAttributes)
  func badAttributesAreRefused(_ bad: BadAttribute) async throws {
    let (what, envelope) = (bad.what, bad.envelope)
    let log = EventLog(url: FileManager.default.temporaryDirectory.appendingPathComponent("strict-\(UUID()).jsonl"))
    defer { try? FileManager.default.removeItem(at: log.url) }
    #expect(throws: EventLogError.self, "\(what)") { try envelope.validate() }
    #expect(throws: EventLogError.self, "\(what)") { try log.append(envelope) }
    await #expect(throws: EventLogError.self, "\(what)") { try await log.appendOnce([envelope]) }
    #expect(try log.read().envelopes.isEmpty)
  }

  @Test("A control character is found wherever it lies in an attribute, and none in a clean one")
  func controlCharactersAreFoundAtEveryPlace() {
    // Long enough that some lie in whole words of eight bytes, some in the bytes after them.
    for length in [0, 1, 7, 8, 9, 16, 23, 24] {
      let clean = String((0..<length).map { Character(Unicode.Scalar(UInt8(0x20 + $0 % 95))) })
      #expect(EventEnvelope.controlCharacter(in: clean) == nil, "\(clean)")
      #expect(EventEnvelope.controlCharacter(in: clean + "é😀~") == nil)
      for place in 0..<length {
        for bad: UInt32 in [0x00, 0x09, 0x1F, 0x7F, 0x80, 0x85, 0x9F] {
          var scalars = Array(clean.unicodeScalars)
          scalars[place] = Unicode.Scalar(bad) ?? " "
          let text = String(String.UnicodeScalarView(scalars))
          #expect(
            EventEnvelope.controlCharacter(in: text) == bad, "U+\(String(bad, radix: 16)) at \(place) of \(length)")
        }
      }
    }
  }

  @Test("The limits of each attribute's rule are accepted")
  func attributesAtTheirLimits() throws {
    let envelope = EventEnvelope(
      id: "é-\u{A0}-😀", source: "/s", time: nil, name: "Test.Tick", version: 1, subject: "\u{7E}",
      metadata: [String(repeating: "a", count: 20): "x", "n": .integer(Int(Int32.min)), "m": .integer(Int(Int32.max))],
      payload: Data(#"{"source":"s","count":1}"#.utf8))
    try envelope.validate()
    for time in ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z"] {
      let edge = EventEnvelope(
        id: String(repeating: "i", count: 1_024), source: "/" + String(repeating: "s", count: 1_023),
        time: EventTimestamp.date(from: time), name: "Test.Tick", version: Int(Int32.max),
        payload: Data(#"{"source":"s","count":1}"#.utf8))
      try edge.validate()
    }
  }

  @Test("A CloudEvent whose attribute a reader would change is refused, not changed")
  func attributesAreNotChangedOnTheWayIn() {
    let base = #"{"specversion":"1.0","id":"e-1","source":"/s","type":"Test.Tick","data":{}"#
    // Numbers a JSONDecoder reads as other Integers, a number or a Boolean for a String.
    for extra in [
      #","n":1.0"#, #","n":1e2"#, #","n":2147483647.0000000001"#, #","subject":5"#, #","dataschema":true"#,
      #","datacontenttype":1"#,
    ] {
      #expect(throws: EventLogError.self, "\(extra)") {
        try EventEnvelope(cloudEventJSON: Data((base + extra + "}").utf8))
      }
    }
    // Binary mode: a header beyond printable ASCII (a server hands raw bytes on as U+FFFD), and
    // the content type as an attribute's header beside its own.
    let headers = ["ce-specversion": "1.0", "ce-id": "e-1", "ce-source": "/s", "ce-type": "Test.Tick"]
    for (name, value) in [("ce-id", "a\u{FFFD}"), ("ce-note", "caf\u{E9}"), ("ce-datacontenttype", "text/plain")] {
      var these = headers
      these[name] = value
      let message = CloudEventMessage(binding: .http, headers: these, body: Data("{}".utf8))
      #expect(throws: EventLogError.self, "\(name): \(value)") { try EventEnvelope(cloudEventMessage: message) }
    }
  }

  @Test("Data nests as deep in every content mode: two levels less than the limits, as a page holds it")
  func dataIsAsDeepInEveryMode() throws {
    let limits = JSONLimits(maximumDepth: 10)
    func data(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
    for (depth, taken) in [(8, true), (9, false)] {
      let structured = Data(Self.event(data: data(depth)).utf8)
      let batch = Data("[".utf8) + structured + Data("]".utf8)
      let message = CloudEventMessage(
        binding: .http,
        headers: ["ce-specversion": "1.0", "ce-id": "e-1", "ce-source": "/s", "ce-type": "Test.Tick"],
        body: Data(data(depth).utf8))
      let base64 = Data(
        Self.event(
          data: "null",
          extra:
            #","datacontenttype":"application/json","data_base64":"\#(Data(data(depth).utf8).base64EncodedString())""#
        )
        .utf8)
      let reads: [(String, () throws -> Void)] = [
        ("structured", { _ = try EventEnvelope(cloudEventJSON: structured, limits: limits) }),
        ("batch", { _ = try EventEnvelope.envelopes(cloudEventBatchJSON: batch, limits: limits) }),
        ("binary", { _ = try EventEnvelope(cloudEventMessage: message, limits: limits) }),
        ("data_base64", { _ = try EventEnvelope(cloudEventJSON: base64, limits: limits) }),
      ]
      for (mode, read) in reads {
        if taken {
          #expect(throws: Never.self, "\(mode), \(depth)") { try read() }
        } else {
          #expect(throws: EventLogError.self, "\(mode), \(depth)") { try read() }
        }
      }
    }
  }

  @Test("Percent-encoding takes two hex digits: %-0 is no NUL, %00 is refused as one")
  func percentEncoding() throws {
    #expect(HeaderText.percentDecoded("a%-0b") == nil)
    #expect(HeaderText.percentDecoded("a%+1b") == nil)
    #expect(HeaderText.percentDecoded("a%2") == nil)
    #expect(HeaderText.percentDecoded("a%2fb%C3%A9") == "a/bé")
    let message = CloudEventMessage(
      binding: .http,
      headers: ["ce-specversion": "1.0", "ce-id": "a%00b", "ce-source": "/s", "ce-type": "Test.Tick"],
      body: Data(#"{"source":"s","count":1}"#.utf8))
    let envelope = try EventEnvelope(cloudEventMessage: message)
    #expect(envelope.id == "a\u{0}b")
    #expect(throws: EventLogError.self) { try envelope.validate() }
  }

  @Test("A line edited into something that is not JSON is reported, not read")
  func editedLinesAreReported() throws {
    let log = EventLog(url: FileManager.default.temporaryDirectory.appendingPathComponent("strict-\(UUID()).jsonl"))
    defer { try? FileManager.default.removeItem(at: log.url) }
    try log.append(try EventEnvelope(Tick(source: "s", count: 1), id: "1"))
    let line = try String(contentsOf: log.url, encoding: .utf8)
    let edited = [
      line.replacingOccurrences(of: #""source":"s"}"#, with: #""source":"s",}"#),
      line.replacingOccurrences(of: #""source":"s"}"#, with: #""source":"s","count":2}"#),
      line.replacingOccurrences(of: #""id":"1""#, with: #""id":"1","id":"2""#),
    ]
    try (line + edited.joined()).write(to: log.url, atomically: true, encoding: .utf8)
    let (envelopes, problems) = try log.read()
    #expect(envelopes.map(\.id) == ["1"])
    #expect(problems.map(\.line) == [2, 3, 4])
    #expect(problems.allSatisfy { $0.reason.contains("is not JSON at line 1, column") }, "\(problems)")
  }

  @Test("An event of many null attributes, or data of many keys, reads in full")
  func manyMembers() throws {
    let nulls = (0..<20_000).map { #""n\#($0)":null"# }.joined(separator: ",")
    let envelope = try EventEnvelope(cloudEventJSON: Data(Self.event(data: "{}", extra: "," + nulls).utf8))
    #expect(envelope.metadata.isEmpty)
    let keys = (0..<20_000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
    let wide = try EventEnvelope(cloudEventJSON: Data(Self.event(data: "{\(keys)}").utf8))
    try wide.validate()
    // Past the configured members, refused.
    let limits = JSONLimits(maximumMembers: 1_000)
    #expect(throws: EventLogError.self) {
      try EventEnvelope(cloudEventJSON: Data(Self.event(data: "{}", extra: "," + nulls).utf8), limits: limits)
    }
    #expect(throws: EventLogError.self) {
      try EventEnvelope(cloudEventJSON: Data(Self.event(data: "{\(keys)}").utf8), limits: limits)
    }
  }
}
