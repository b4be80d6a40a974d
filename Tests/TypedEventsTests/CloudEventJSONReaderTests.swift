import Foundation
import TestSupport
import Testing

@testable import TypedEvents

/// `EventEnvelope(cloudEventJSON:)` reads the common shape of a CloudEvent without `JSONDecoder`
/// (``CloudEventJSONReader/read(_:)``), and leaves the rest to it. Wherever the direct reader
/// answers, it must give what `JSONDecoder` gives; where it is not sure, it must not answer.
@Suite("CloudEvents JSON read without JSONDecoder")
struct CloudEventJSONReaderTests {
  /// Events in the shape writers produce, which the direct reader must read itself.
  static let common: [String] = [
    #"{"specversion":"1.0","id":"A234-1234-1234","source":"https://github.com/cloudevents/spec/pull","type":"com.github.pull_request.opened","subject":"123","time":"2018-04-05T17:31:00Z","comexampleextension1":"value","comexampleothervalue":5,"datacontenttype":"text/xml","data":"<much wow=\"xml\"/>"}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","data":{"a":[1,2.5e-3,-0,true,false,null,{"b":"\u00e9\n\"x\""}],"c":{}}}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","data":[]}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","data":"\ud83d\ude00"}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","data":null}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","data": 42 }"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","data":-0.5E+2,"x":1}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","data_base64":"AAEC"}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T"}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","flag":true,"off":false,"count":-2147483648,"gone":null}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","big":9223372036854775807,"small":-9223372036854775808}"#,
    // Extension names that begin as a defined one does, told apart where they lie.
    #"{"ids":"x","i":1,"specversion":"1.0","id":"1","sourcex":"y","source":"/s","types":true,"type":"T","timex":"z","d":1,"datax":2,"data_base6":3,"eventversions":4,"subjects":5,"e":6,"t":7,"s":8}"#,
    #"{"specversion":"1.0","id":"é-ü-😀","source":"/s","type":"T","data":{"name":"Zoë 😀"}}"#,
    " \n\t{ \"specversion\" : \"1.0\" ,\r\n \"id\":\"1\", \"source\":\"/s\",\"type\":\"T\" , \"data\" : { \"a\" : 1 } } \n",
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","time":"2018-04-05 17:31:00.5+02:00"}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","time":"yesterday"}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","time":5}"#,
    #"{}"#,
    #"{"specversion":"0.3","id":"","source":"/s","type":"T"}"#,
  ]

  /// What the direct reader must leave to `JSONDecoder`: an escape or a fraction in an
  /// attribute, nesting in one, a repeated key, a surrogate escape, bytes that are not JSON.
  static let uncommon: [String] = [
    #"{"specversion":"1.0","id":"a\"b","source":"/s","type":"T"}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","n":1.5}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","n":1e3}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","n":-0}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","n":9223372036854775808}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","n":{"a":1}}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","n":[1]}"#,
    #"{"specversion":"1.0","id":"1","id":"2","source":"/s","type":"T"}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","data":1,"data":2}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","data":{"a":01}}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","data":{"a":1,}}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T","data":{"a":tru}}"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T"} x"#,
    #"{"specversion":"1.0","id":"1","source":"/s","type":"T",}"#,
    #"[{"specversion":"1.0","id":"1","source":"/s","type":"T"}]"#,
    "{\"specversion\":\"1.0\",\"id\":\"1\u{1}\",\"source\":\"/s\",\"type\":\"T\"}",
    "\u{FEFF}{\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"/s\",\"type\":\"T\"}",
    "",
  ]

  /// Events as this package writes them.
  static func written() throws -> [Data] {
    try (0..<20).map { index in
      var envelope = try EventEnvelope(
        Tick(source: "s-\(index)", count: index), source: "/listings-service",
        time: Date(timeIntervalSinceReferenceDate: 785_000_000 + Double(index)))
      envelope.subject = index.isMultiple(of: 2) ? "listing-\(index)" : nil
      envelope.metadata = [
        "traceparent": .string("00-\(index)"), "retries": .integer(index), "replayed": .boolean(index > 9),
      ]
      return try envelope.cloudEventJSON()
    }
  }

  @Test func theCommonShapeIsReadDirectlyAndAsJSONDecoderReadsIt() throws {
    for text in Self.common {
      let json = Data(text.utf8)
      let direct = try #require(CloudEventJSONReader.read(json), "not read directly: \(text)")
      #expect(direct == (try CloudEventJSONReader.readWithJSONDecoder(json)), "\(text)")
    }
    for json in try Self.written() {
      #expect(CloudEventJSONReader.read(json) != nil, "\(String(decoding: json, as: UTF8.self))")
    }
  }

  @Test func whatItIsNotSureOfIsLeftToJSONDecoder() {
    var invalidUTF8 = Data(#"{"specversion":"1.0","id":"1","source":"/s","type":"T","data":""#.utf8)
    invalidUTF8 += [0xC3, 0x28, UInt8(ascii: "\""), UInt8(ascii: "}")]
    for json in Self.uncommon.map({ Data($0.utf8) }) + [invalidUTF8] {
      #expect(CloudEventJSONReader.read(json) == nil, "\(String(decoding: json, as: UTF8.self))")
    }
  }

  /// Random edits of every document above: wherever the direct reader still answers, it must
  /// give what `JSONDecoder` gives, and `JSONDecoder` must read it too.
  @Test func onEditedDocumentsItAnswersOnlyAsJSONDecoderDoes() throws {
    var random = SplitMix64(state: 0xC10D_E7E7)
    var answered = 0
    var tried = 0
    let documents = (Self.common + Self.uncommon).map { Data($0.utf8) } + (try Self.written())
    for document in documents where !document.isEmpty {
      for _ in 0..<300 {
        var bytes = [UInt8](document)
        JSONEdits.edit(&bytes, using: &random)
        let json = Data(bytes)
        tried += 1
        guard let direct = CloudEventJSONReader.read(json) else { continue }
        answered += 1
        let decoded = try? CloudEventJSONReader.readWithJSONDecoder(json)
        #expect(direct == decoded, "\(String(decoding: json, as: UTF8.self))")
      }
    }
    // The edits leave many documents readable: the comparison above is not empty.
    #expect(answered > tried / 20, "answered \(answered) of \(tried)")
  }

  @Test func nullDataFollowedByWhitespaceIsNoData() throws {
    for text in [
      #"{"specversion":"1.0","id":"1","source":"/s","type":"T","data":null}"#,
      #"{"specversion":"1.0","id":"1","source":"/s","type":"T","data":null }"#,
      "{\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"/s\",\"type\":\"T\",\"data\":null\n\t}",
    ] {
      #expect(try EventEnvelope(cloudEventJSON: Data(text.utf8)).payload.isEmpty, "\(text)")
    }
  }

  @Test func attributeNamesAreMatchedByTheirBytes() {
    let defined: [(String, CloudEventContext.Name)] = [
      ("specversion", .specversion), ("id", .id), ("source", .source), ("type", .type), ("time", .time),
      ("subject", .subject), ("datacontenttype", .datacontenttype), ("dataschema", .dataschema),
      (EventEnvelope.cloudEventVersionAttribute, .eventversion), ("data", .data), ("data_base64", .dataBase64),
    ]
    for (text, name) in defined { #expect(CloudEventContext.Name(text) == name, "\(text)") }
    for text in ["", "i", "ids", "Type", "tim", "datacontenttypes", "data_base65", "comexampleextension1"] {
      #expect(CloudEventContext.Name(text) == .extension(text), "\(text)")
    }
  }

  @Test func anEnvelopeReadEitherWayIsTheSame() throws {
    // Written with an escape in the id, so that JSONDecoder reads it; and without.
    for id in ["plain-id", "quoted \"id\""] {
      let envelope = try EventEnvelope(Tick(source: "s", count: 1), id: id, source: "/s")
      let json = try envelope.cloudEventJSON()
      #expect(try EventEnvelope(cloudEventJSON: json) == envelope)
      #expect((CloudEventJSONReader.read(json) == nil) == id.contains("\""))
    }
  }

  /// What reading a batch gives: its envelopes, or the first error's description.
  enum Outcome: Equatable {
    case envelopes([EventEnvelope])
    case error(String)
  }

  /// What ``CloudEventJSONReader/readBatch(_:)`` gives; nil when it leaves the batch to the
  /// reading element by element.
  static func inOnePass(_ json: Data) -> Outcome? {
    do {
      return try CloudEventJSONReader.readBatch(json).map(Outcome.envelopes)
    } catch {
      return .error("\(error)")
    }
  }

  /// What a batch's elements give read one by one with `JSONDecoder`; nil when `json` is not an
  /// array or an element read before the first error is not a JSON object.
  static func elementByElement(_ json: Data) -> Outcome? {
    guard let elements = JSONObjectScanner.elements(ofArray: json) else { return nil }
    var envelopes: [EventEnvelope] = []
    for (index, element) in elements.enumerated() {
      guard let members = try? CloudEventJSONReader.readWithJSONDecoder(element) else { return nil }
      do {
        envelopes.append(try EventEnvelope(cloudEventMembers: members))
      } catch {
        return .error("\(EventEnvelope.batchError(error, element: index))")
      }
    }
    return .envelopes(envelopes)
  }

  /// `documents` as one JSON array, with whitespace around each element.
  static func batch(_ documents: [String]) -> Data {
    Data(("[" + documents.map { " \($0)\n" }.joined(separator: ",") + "] ").utf8)
  }

  @Test func aBatchIsReadInOnePassAsItsElementsAreOneByOne() throws {
    let written = try Self.written().map { String(decoding: $0, as: UTF8.self) }
    // `common` ends with four events that are no envelope: their batches fail at the first.
    for documents in [Self.common, written, Self.common + written, written + Self.common, [], [Self.common[0]]] {
      let json = Self.batch(documents)
      let direct = try #require(Self.inOnePass(json), "not read directly: \(documents)")
      if case .envelopes(let envelopes) = direct { #expect(envelopes.count == documents.count) }
      #expect(direct == Self.elementByElement(json))
    }
    let failed = Self.inOnePass(Self.batch(written + Self.common))
    #expect(failed == .error("element 35 of the batch: the CloudEvent 1 has a time that is not RFC 3339: yesterday"))
    // Values that repeat from event to event are taken again only where they are equal.
    let sources = ["/a", "/b", "/b", "/a", "/é", "/a", "/ab", "/a"]
    let varied = sources.enumerated().map { index, source in
      #"{"specversion":"1.0","id":"\#(index)","source":"\#(source)","type":"T\#(index % 2)","datacontenttype":"\#(index == 3 ? "text/plain" : "application/json")","data":"x"}"#
    }
    let read = try #require(try CloudEventJSONReader.readBatch(Self.batch(varied)))
    #expect(read.map { $0.source ?? "" } == sources)
    #expect(read.map(\.name) == sources.indices.map { "T\($0 % 2)" })
    #expect(read.map(\.dataContentType) == sources.indices.map { $0 == 3 ? "text/plain" : nil })
    // One element of another shape: the whole batch is left to the reading element by element,
    // which still reads every element.
    let escaped = #"{"specversion":"1.0","id":"a\"b","source":"/s","type":"T"}"#
    let mixed = Self.batch([written[0], escaped, written[1]])
    #expect(Self.inOnePass(mixed) == nil)
    // Nor may an error before such an element be the one-pass reader's: the element-by-element
    // reading decides which error the batch gives.
    #expect(Self.inOnePass(Self.batch([#"{}"#, escaped])) == nil)
    #expect(
      try EventEnvelope.envelopes(cloudEventBatchJSON: mixed).map(\.id) == [
        try EventEnvelope(cloudEventJSON: Data(written[0].utf8)).id, "a\"b",
        try EventEnvelope(cloudEventJSON: Data(written[1].utf8)).id,
      ])
    for notABatch in ["", "{}", "[", "[{}", "[{},]", "[{}] x", "[] []", "[1]", "[[]]"] {
      #expect(Self.inOnePass(Data(notABatch.utf8)) == nil, "\(notABatch)")
    }
  }

  @Test("Data sliced from the batch is the data a copy gives")
  func dataSharingTheBatchIsTheSame() throws {
    let written = try Self.written().map { String(decoding: $0, as: UTF8.self) }
    // A batch that is itself a slice, as a request body may be, so offsets are not indices.
    let padded = Data("xx".utf8) + Self.batch(Self.common.prefix(4) + written)
    let json = padded[padded.index(padded.startIndex, offsetBy: 2)...]
    let copied = try EventEnvelope.envelopes(cloudEventBatchJSON: json)
    let shared = try EventEnvelope.envelopes(cloudEventBatchJSON: json, sharingStorage: true)
    #expect(shared == copied)
    #expect(shared.count == 4 + written.count)
    #expect(shared.map { Array($0.payload) } == copied.map { Array($0.payload) })
    // What the common shape does not cover is read element by element, copied, and the same.
    let escaped = #"{"specversion":"1.0","id":"a\"b","source":"/s","type":"T","data":{"k":1}}"#
    let mixed = Self.batch([written[0], escaped])
    #expect(
      try EventEnvelope.envelopes(cloudEventBatchJSON: mixed, sharingStorage: true)
        == EventEnvelope.envelopes(cloudEventBatchJSON: mixed))
  }

  /// Random edits of batches: wherever the one-pass reader still answers, it gives what reading
  /// each element with `JSONDecoder` gives.
  @Test func onEditedBatchesItAnswersOnlyAsTheElementsReadOneByOneDo() throws {
    var random = SplitMix64(state: 0xBA7C_4E57)
    let written = try Self.written().map { String(decoding: $0, as: UTF8.self) }
    var answered = 0
    var tried = 0
    for _ in 0..<3_000 {
      let documents = (0..<Int.random(in: 1...3, using: &random)).map { _ in
        (Self.common + written).randomElement(using: &random) ?? ""
      }
      var bytes = [UInt8](Self.batch(documents))
      JSONEdits.edit(&bytes, repeatingRuns: false, using: &random)
      let json = Data(bytes)
      tried += 1
      guard let direct = Self.inOnePass(json) else { continue }
      answered += 1
      #expect(direct == Self.elementByElement(json), "\(String(decoding: json, as: UTF8.self))")
    }
    #expect(answered > tried / 20, "answered \(answered) of \(tried)")
  }

  @Test func nullIsAbsentAndARepeatedNameIsLeftToJSONDecoder() throws {
    let withNulls = Data(
      #"{"specversion":"1.0","id":"1","source":"/s","type":"T","subject":null,"data_base64":null,"x":null}"#.utf8)
    let read = try #require(CloudEventJSONReader.read(withNulls))
    #expect(read.context.subject == nil && read.dataBase64 == nil && read.context.extensions.isEmpty)
    for repeated in [
      #"{"specversion":"1.0","id":null,"id":"1","source":"/s","type":"T"}"#,
      #"{"specversion":"1.0","id":"1","source":"/s","type":"T","x":1,"x":null}"#,
      #"{"specversion":"1.0","id":"1","source":"/s","type":"T","x":null,"x":1}"#,
      #"{"specversion":"1.0","id":"1","source":"/s","type":"T","x":null,"x":null}"#,
      #"{"specversion":"1.0","id":"1","source":"/s","type":"T","subject":null,"subject":null}"#,
      #"{"specversion":"1.0","id":"1","source":"/s","type":"T","data_base64":"AA==","data_base64":null}"#,
      #"{"specversion":"1.0","id":"1","source":"/s","type":"T","data_base64":null,"data_base64":"AA=="}"#,
      #"{"specversion":"1.0","id":"1","source":"/s","type":"T","eventversion":2,"eventversion":3}"#,
      #"{"specversion":"1.0","id":"1","source":"/s","type":"T","time":"2018-04-05T17:31:00Z","time":null}"#,
      #"{"specversion":"1.0","id":"1","source":"/s","type":"T","time":"2018-04-05T17:31:00Z","time":"2019-01-01T00:00:00Z"}"#,
      #"{"specversion":"1.0","id":"1","source":"/s","type":"T","time":null,"time":"2018-04-05T17:31:00Z"}"#,
      #"{"specversion":"1.0","id":"1","source":"/s","type":"T","time":"yesterday","time":null}"#,
    ] {
      #expect(CloudEventJSONReader.read(Data(repeated.utf8)) == nil, "\(repeated)")
    }
  }

  @Test func dataBase64ThatIsNoStringIsRefused() {
    for value in ["{}", "[1]", "1.5", "7", "true"] {
      let json = Data(#"{"specversion":"1.0","id":"1","source":"/s","type":"T","data_base64":\#(value)}"#.utf8)
      #expect(throws: EventLogError.malformed("the CloudEvent's data_base64 is not base64"), "\(value)") {
        try EventEnvelope(cloudEventJSON: json)
      }
    }
  }

  /// The first byte from `start` on that a string scan must look at, one byte at a time.
  private static func firstSpecialByte(_ bytes: [UInt8], from start: Int) -> Int {
    bytes[start...].firstIndex { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || $0 >= 0x80 } ?? bytes.count
  }

  @Test func aStringScanStopsAtTheFirstByteToLookAtInEveryPlaceOfAWord() {
    // The scan tests eight bytes at once. Every byte it must stop at, at every offset of a word
    // and in the bytes after the last whole word, after bytes next to each in value (`!` and `#`
    // beside the quote, `[` and `]` beside the backslash, space above the control characters,
    // DEL below 0x80), with another byte to stop at after it: the lowest must win.
    let stops: [UInt8] = [0x22, 0x5C, 0x00, 0x01, 0x1F, 0x0A, 0x80, 0xC3, 0xFF]
    let others: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x41]
    for length in 1...26 {
      for position in 0..<length {
        for stop in stops {
          for other in others {
            var bytes = [UInt8](repeating: other, count: length)
            bytes[position] = stop
            if position + 1 < length { bytes[position + 1] = stops[(position + Int(stop)) % stops.count] }
            for start in [0, position / 2, position] {
              let found = bytes.withUnsafeBytes { JSONScanner.firstSpecialByte(in: $0, from: start) }
              #expect(found == position, "\(bytes) from \(start)")
            }
            bytes[position] = other
            if position + 1 < length { bytes[position + 1] = other }
            let none = bytes.withUnsafeBytes { JSONScanner.firstSpecialByte(in: $0, from: 0) }
            #expect(none == length, "\(bytes)")
          }
        }
      }
    }
    var random = SplitMix64(state: 0x5EED_0B7E)
    for _ in 0..<20_000 {
      let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in
        // Mostly plain ASCII, so that words without a byte to stop at are common.
        Int.random(in: 0..<8, using: &random) == 0
          ? UInt8.random(in: 0...255, using: &random) : UInt8.random(in: 0x20...0x7E, using: &random)
      }
      let start = Int.random(in: 0...bytes.count, using: &random)
      let found = bytes.withUnsafeBytes { JSONScanner.firstSpecialByte(in: $0, from: start) }
      #expect(found == Self.firstSpecialByte(bytes, from: start), "\(bytes) from \(start)")
    }
  }
}
