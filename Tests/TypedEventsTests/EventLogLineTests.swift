import Foundation
import TestSupport
import Testing

@testable import TypedEvents

/// The line an `EventLog` writes for an envelope, written by hand, against the bytes
/// `JSONEncoder` wrote before: lines written by either compare and read alike.
@Suite("EventLog lines")
struct EventLogLineTests {
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
      let time = envelope.time.flatMap { EventTimestamp.string(from: $0) }
      let line = try EventLog.line(for: envelope)
      let encoded = try EventLog.encodedLine(for: envelope, time: time)
      #expect(
        line == encoded, "\(String(decoding: line, as: UTF8.self)) against \(String(decoding: encoded, as: UTF8.self))")
      if line != encoded { return }
      // And it reads back as the envelope it was.
      let read = try EventLog.envelope(from: line.dropLast())
      #expect(read.id == envelope.id && read.metadata == envelope.metadata && read.subject == envelope.subject)
    }
  }

  @Test func metadataKeysBeyondASCIIGoThroughJSONEncoderInItsOrder() throws {
    // `String` orders "é" (U+00E9) after "z", as its bytes do, but a decomposed "e\u{301}"
    // before "f": the line keeps `JSONEncoder`'s order whatever the keys.
    let envelope = EventEnvelope(
      id: "1", time: nil, name: "Test.Tick", version: 1,
      metadata: ["f": .boolean(true), "e\u{301}": .integer(1), "z": .string("z")], payload: Data("{}".utf8))
    #expect(try EventLog.line(for: envelope) == EventLog.encodedLine(for: envelope, time: nil))
  }
}
