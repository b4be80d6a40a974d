import HTTPTypes
import Testing

@testable import TypedEventsHTTPServer

@Suite("A field's value, read by one walk over the fields")
struct HTTPFieldsValueTests {
  @Test("Gives what the subscript gives: nil, one value, or every value joined")
  func givesWhatTheSubscriptGives() throws {
    let custom = try #require(HTTPField.Name("ce-specversion"))
    let cases: [HTTPFields] = [
      [:],
      [.contentType: "application/json"],
      [.contentType: "application/json", .contentLength: "12"],
      HTTPFields([
        HTTPField(name: .accept, value: "text/plain"), HTTPField(name: .contentType, value: "a"),
        HTTPField(name: .accept, value: "*/*"), HTTPField(name: .accept, value: ""),
      ]),
      HTTPFields([HTTPField(name: .cookie, value: "a=1"), HTTPField(name: .cookie, value: "b=2")]),
      HTTPFields([HTTPField(name: custom, value: "1.0"), HTTPField(name: .authorization, value: "Bearer x")]),
    ]
    for fields in cases {
      for name in [HTTPField.Name.contentType, .contentLength, .accept, .cookie, .authorization, custom] {
        #expect(fields.value(of: name) == fields[name], "\(name) in \(fields)")
      }
    }
    // Names are matched as HTTP matches them, whatever their case.
    let upper = HTTPFields([HTTPField(name: try #require(HTTPField.Name("Content-Type")), value: "text/plain")])
    #expect(upper.value(of: .contentType) == "text/plain")
  }
}
