import Foundation
import Testing
import TypedEvents

@testable import TypedEventsHTTPServer

@Suite("Position tokens")
struct PositionTokenTests {
  /// What a token is documented to be: the position's JSON with `"store"` beside its members, in
  /// base64url without padding.
  private func documentedToken(_ json: String) -> String {
    Data(json.utf8).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  @Test func aFileLogPositionsTokenIsWrittenAsItsJSONInBase64URLAndReadBack() throws {
    // Every count of digits, on both sides of each power of ten, so that the JSON's length takes
    // every value modulo 3 (base64 groups), and both signs and both ends of `Int64`.
    var offsets: [Int64] = [0, Int64.max, Int64.min, Int64.min + 1]
    var power: Int64 = 1
    for _ in 0...18 {
      offsets += [power - 1, power, power + 1, -power, 1 - power]
      power = power.multipliedReportingOverflow(by: 10).partialValue
    }
    // No store, the log's identity (hex: the token's own writer), and one it cannot write so.
    for store in [nil, "cbf29ce484222325", "a", "x\"y", String(repeating: "f", count: 40)] {
      for offset in offsets {
        let position = EventLog.Position(offset: offset)
        let token = try PositionToken.text(position, store: store)
        var expected = #"{"offset":\#(offset)"#
        if let store {
          // As JSONEncoder writes a string: the quote escaped.
          expected += #","store":""# + store.replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        #expect(token == documentedToken(expected + "}"), "\(offset), \(store ?? "no store")")
        let read = try #require(PositionToken.position(token, as: EventLog.Position.self))
        #expect(read.position == position && read.store == store, "\(offset)")
      }
    }
  }

  @Test func anotherStoresPositionIsWrittenWithJSONEncoderAndReadBack() throws {
    struct Other: Codable, Hashable { var page: Int; var row: String }
    let position = Other(page: 7, row: "a+b/c?")
    for store in [nil, "5B0C8E4A-0000-4000-8000-000000000000"] {
      var bytes: [UInt8] = []
      try PositionToken.append(position, store: store, to: &bytes)
      let token = String(decoding: bytes, as: UTF8.self)
      // JSONEncoder does not promise an order of keys, so the JSON is compared decoded.
      var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
      base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
      let json = try #require(Data(base64Encoded: base64))
      #expect(try JSONDecoder().decode(Other.self, from: json) == position)
      let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
      #expect(object["store"] as? String == store)
      #expect(!token.contains("=") && !token.contains("+") && !token.contains("/"))
      let read = try #require(PositionToken.position(token, as: Other.self))
      #expect(read.position == position && read.store == store)
    }
  }

  @Test func aTokenWhoseJSONBreaksTheGrammarIsNone() {
    for json in [#"{"offset":1,"offset":2}"#, #"{"offset":1,}"#, #"{"offset":1,"store":"\ud800"}"#] {
      #expect(PositionToken.position(documentedToken(json), as: EventLog.Position.self) == nil, "\(json)")
    }
  }
}
