import Foundation
import Testing
import TypedEvents

@Suite("JSONValue")
struct JSONValueTests {
  private func roundTrip(_ text: String) throws -> String {
    let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    return String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
  }

  @Test(
    "numbers read back as written",
    arguments: [
      "9223372036854775807", "-9223372036854775808", "12345678901234567890.123456789", "0.1", "-2.5",
      "1.7976931348623157e+308", "5e-324",
    ])
  func numbersAreExact(_ text: String) throws {
    let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    let written = try roundTrip(text)
    // The same number: for a Double, the same bits; otherwise the same decimal.
    switch value {
    case .double(let double): #expect(Double(written) == double)
    default: #expect(Decimal(string: written) == Decimal(string: text))
    }
    #expect(try JSONValue(jsonText: value.description) == value)
  }

  @Test func kindsOfNumber() throws {
    #expect(try JSONValue(jsonText: "9223372036854775807") == .integer(.max))
    #expect(
      try JSONValue(jsonText: "12345678901234567890.123456789").decimalValue
        == Decimal(string: "12345678901234567890.123456789"))
    #expect(try JSONValue(jsonText: "1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
  }

  @Test func everyKindRoundTripsThroughJSONAndUserInfo() throws {
    let value: JSONValue = [
      "null": nil, "bool": true, "int": 3, "text": "a \"quoted\"\nline", "list": [1, "two", [false]],
      "object": ["nested": ["deep": 1.5]],
    ]
    let json = try JSONEncoder().encode(value)
    #expect(try JSONDecoder().decode(JSONValue.self, from: json) == value)
    #expect(try JSONValue(propertyListValue: value.propertyListValue) == value)
    let list = try PropertyListSerialization.data(
      fromPropertyList: ["v": value.propertyListValue], format: .binary, options: 0)
    let read = try #require(try PropertyListSerialization.propertyList(from: list, format: nil) as? [String: Any])
    #expect(try JSONValue(propertyListValue: read["v"] as Any) == value)
  }

  @Test func accessors() {
    let value: JSONValue = ["attempts": 3, "tags": ["a", "b"], "ok": true, "ratio": 0.5]
    #expect(value["attempts"]?.int64Value == 3)
    #expect(value["tags"]?[1]?.stringValue == "b")
    #expect(value["tags"]?[2] == nil)
    #expect(value["ok"]?.boolValue == true)
    #expect(value["ratio"]?.doubleValue == 0.5)
    #expect(value["missing"] == nil)
    #expect(JSONValue.null.isNull)
    #expect(JSONValue.decimal(Decimal(string: "2.50") ?? 0).int64Value == nil)
    #expect(JSONValue.decimal(Decimal(40)).int64Value == 40)
  }

  @Test func notJSONTextInUserInfoIsAnError() {
    #expect(throws: UserInfoDecodingError.self) { try JSONValue(propertyListValue: "{not json") }
    #expect(throws: UserInfoDecodingError.self) { try JSONValue(propertyListValue: 3) }
  }
}
