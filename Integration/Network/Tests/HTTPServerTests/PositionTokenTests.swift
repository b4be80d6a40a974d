import Foundation
import Testing
import TypedEvents

@testable import TypedEventsHTTPServer

@Suite("Position tokens")
struct PositionTokenTests {
  /// What a token is documented to be: the position's JSON, as JSONEncoder writes it, in
  /// base64url without padding.
  private func documentedToken(_ position: some Encodable) throws -> String {
    try JSONEncoder().encode(position).base64EncodedString()
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
    for offset in offsets {
      let position = EventLog.Position(offset: offset)
      let token = try PositionToken.text(position)
      #expect(token == (try documentedToken(position)), "\(offset)")
      #expect(PositionToken.position(token, as: EventLog.Position.self) == position, "\(offset)")
    }
  }

  @Test func anotherStoresPositionIsWrittenWithJSONEncoderAndReadBack() throws {
    struct Other: Codable, Hashable { var page: Int; var row: String }
    let position = Other(page: 7, row: "a+b/c?")
    var bytes: [UInt8] = []
    try PositionToken.append(position, to: &bytes)
    let token = String(decoding: bytes, as: UTF8.self)
    // JSONEncoder does not promise an order of keys, so the JSON is compared decoded.
    var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
    let json = try #require(Data(base64Encoded: base64))
    #expect(try JSONDecoder().decode(Other.self, from: json) == position)
    #expect(!token.contains("=") && !token.contains("+") && !token.contains("/"))
    #expect(PositionToken.position(token, as: Other.self) == position)
  }
}
