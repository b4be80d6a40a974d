import Foundation
import TestSupport
import Testing

@testable import TypedEvents

@Suite("JSON strings written in place")
struct JSONStringWritingTests {
  /// Characters that a JSON string writes as they are, escaped short (`\n`, `\"`), escaped as
  /// `\u00XX`, or in several UTF-8 bytes.
  private static let alphabet: [Character] = [
    "a", "Z", "7", " ", "/", "\"", "\\", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{01}", "\u{1F}",
    "\u{7F}", "\u{85}", "é", "€", "😀", "e\u{301}",
  ]

  @Test func writingInPlaceGivesTheBytesAppendingGivesWithinTheBoundAndJSONReadsTheText() throws {
    var random = SplitMix64(state: 0x5772_1E55)
    // Short texts (a small string's, held in place) and long ones (stored), the empty one too.
    for _ in 0..<2_000 {
      let length = Int.random(in: 0...40, using: &random)
      let text = String((0..<length).map { _ in Self.alphabet.randomElement(using: &random) ?? "a" })
      var appended: [UInt8] = []
      EventEnvelope.appendJSONString(text, to: &appended)
      let bound = EventEnvelope.jsonStringBound(text)
      let written = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
        count = buffer.baseAddress.map { EventEnvelope.writeJSONString(text, to: $0) } ?? 0
      }
      #expect(written == appended, "\(text.debugDescription)")
      #expect(written.count <= bound)
      #expect(try JSONDecoder().decode(String.self, from: Data(written)) == text)
    }
  }

  @Test func theBoundHoldsForTheTextThatNeedsTheMostRoom() {
    // Every byte a control character: six bytes each, the most any text takes.
    let text = String(repeating: "\u{01}", count: 20)
    let written = [UInt8](unsafeUninitializedCapacity: EventEnvelope.jsonStringBound(text)) { buffer, count in
      count = buffer.baseAddress.map { EventEnvelope.writeJSONString(text, to: $0) } ?? 0
    }
    #expect(written.count == EventEnvelope.jsonStringBound(text))
    #expect(String(decoding: written, as: UTF8.self) == "\"" + String(repeating: "\\u0001", count: 20) + "\"")
  }
}
