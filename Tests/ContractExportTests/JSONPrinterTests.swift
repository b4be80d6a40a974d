import ContractExport
import Foundation
import Testing

@Suite("Contract export: ordered JSON")
struct JSONPrinterTests {
  @Test func objectsKeepTheOrderTheirKeysWereSetIn() {
    var object = JSONObject()
    object["zeta"] = 1
    object["alpha"] = 2
    object["zeta"] = 3
    #expect(object.keys == ["zeta", "alpha"])
    #expect(object["zeta"] == 3)
    object["zeta"] = nil
    #expect(object.keys == ["alpha"])
    let literal: JSONValue = ["b": 1, "a": 2]
    #expect(literal.objectValue?.keys == ["b", "a"])
  }

  @Test func prettyPrintingUsesTwoSpacesAndEndsWithANewline() {
    let value: JSONValue = ["a": [1, true, .null], "b": [:], "c": [], "d": ["e": "f"]]
    #expect(
      value.prettyPrinted == """
        {
          "a": [
            1,
            true,
            null
          ],
          "b": {},
          "c": [],
          "d": {
            "e": "f"
          }
        }

        """)
  }

  @Test func stringsEscapeOnlyWhatJSONRequires() throws {
    let text = "say \"hi\"\\ \n\r\t\u{08}\u{0C}\u{01}\u{1F} é 🎉 / \u{7F}"
    let printed = JSONValue.string(text).prettyPrinted
    #expect(printed == "\"say \\\"hi\\\"\\\\ \\n\\r\\t\\b\\f\\u0001\\u001f é 🎉 / \u{7F}\"\n")
    let decoded = try JSONSerialization.jsonObject(with: Data(printed.utf8), options: .fragmentsAllowed)
    #expect(decoded as? String == text)
  }

  @Test func numbersPrintExactly() {
    #expect(JSONValue.number(JSONNumber(UInt64.max)).prettyPrinted == "18446744073709551615\n")
    #expect(JSONValue.number(JSONNumber(Int64.min)).prettyPrinted == "-9223372036854775808\n")
    for valid in ["0", "-0", "120.5", "1e-3", "1E+20", "-0.000", "340282366920938463463374607431768211455"] {
      #expect(JSONNumber(text: valid)?.text == valid)
    }
    for invalid in ["", "-", ".5", "5.", "+1", "01", "1e", "1e+", "0x10", "inf", "NaN", "1 ", "1.2.3"] {
      #expect(JSONNumber(text: invalid) == nil, "\(invalid) is no JSON number")
    }
  }
}
