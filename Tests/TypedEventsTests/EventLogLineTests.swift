import Foundation
import TestSupport
import Testing

@testable import TypedEvents

/// The line an `EventLog` writes for an envelope, written by hand, against the bytes
/// `JSONEncoder` wrote before: lines written by either compare and read alike.
@Suite("EventLog lines")
struct EventLogLineTests {
  /// The line as the log wrote it with `JSONEncoder`, before it wrote lines by hand.
  static func encodedLine(for envelope: EventEnvelope) throws -> Data {
    let header = EventLog.Header(
      id: envelope.id, source: envelope.source, metadata: envelope.metadata.isEmpty ? nil : envelope.metadata,
      name: envelope.name, subject: envelope.subject, time: envelope.time.flatMap { EventTimestamp.string(from: $0) },
      version: envelope.version, datacontenttype: envelope.dataContentType, dataschema: envelope.dataSchema)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var line = try encoder.encode(header)
    line.removeLast()
    line.append(contentsOf: Array(",\"payload\":".utf8))
    line.append(envelope.storedPayload)
    line.append(contentsOf: Array("}\n".utf8))
    return line
  }

  /// Text that exercises every escape: quotes, backslashes, slashes (not escaped), each control
  /// character, DEL and U+2028 (neither escaped), and text beyond ASCII.
  static let pieces: [String] =
    [
      "a", "Zz9", "\"", "\\", "/", "\u{7F}", "\u{2028}", "é", "🎉", "e\u{301}", " ", "box-1",
    ] + (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }

  static func text(_ random: inout SplitMix64, allowEmpty: Bool = true) -> String {
    let count = Int.random(in: (allowEmpty ? 0 : 1)...6, using: &random)
    return (0..<count).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
  }

  static func envelope(_ random: inout SplitMix64) -> EventEnvelope {
    var metadata: [String: EventAttributeValue] = [:]
    for _ in 0..<Int.random(in: 0...3, using: &random) {
      let key = ["traceparent", "tenant", "a1", "zz", "partitionkey"].randomElement(using: &random) ?? "k"
      switch Int.random(in: 0...2, using: &random) {
      case 0: metadata[key] = .string(text(&random))
      case 1: metadata[key] = .integer(Int.random(in: -5_000_000_000...5_000_000_000, using: &random))
      default: metadata[key] = .boolean(Bool.random(using: &random))
      }
    }
    func optional(_ value: String) -> String? { Bool.random(using: &random) ? value : nil }
    return EventEnvelope(
      id: text(&random, allowEmpty: false), source: optional(text(&random)),
      time: Bool.random(using: &random)
        ? Date(timeIntervalSince1970: Double(Int.random(in: 0...2_000_000_000, using: &random)) + 0.125) : nil,
      name: "Test." + text(&random, allowEmpty: false), version: Int.random(in: -3...1_000_000, using: &random),
      subject: optional(text(&random)), dataContentType: optional("application/json"),
      dataSchema: optional("https://example.com/" + text(&random)), metadata: metadata,
      payload: Data(#"{"n":1,"s":"x"}"#.utf8))
  }

  @Test func aLineHasTheBytesJSONEncoderWroteForThousandsOfEnvelopes() throws {
    var random = SplitMix64(state: 0x5EED_11E5)
    for _ in 0..<3_000 {
      let envelope = Self.envelope(&random)
      let line = try EventLog.line(for: envelope)
      let encoded = try Self.encodedLine(for: envelope)
      #expect(
        line == encoded, "\(String(decoding: line, as: UTF8.self)) against \(String(decoding: encoded, as: UTF8.self))")
      if line != encoded { return }
      // And it reads back as the envelope it was.
      let read = try EventLog.envelope(from: line.dropLast())
      #expect(read.id == envelope.id && read.metadata == envelope.metadata && read.subject == envelope.subject)
    }
  }

  @Test func metadataKeysSortByTheirBytesAsJSONEncoderSortsThem() throws {
    // Keys that only `append(_:metadata:)` lets in, unvalidated: beyond ASCII (a decomposed
    // one too), upper case, and digits that a numeric order would put elsewhere.
    let envelope = EventEnvelope(
      id: "1", time: nil, name: "Test.Tick", version: 1,
      metadata: [
        "f": .boolean(true), "e\u{301}": .integer(1), "ü": .string("ü"), "z": .string("z"), "k9": .integer(9),
        "k10": .integer(10), "K": .boolean(false),
      ], payload: Data("{}".utf8))
    let line = try EventLog.line(for: envelope)
    #expect(line == (try Self.encodedLine(for: envelope)), "\(String(decoding: line, as: UTF8.self))")
  }
}
