import Foundation
import Testing

@testable import TypedEvents

/// Media types compare as RFC 9110 says: by their essence, without parameters, in any case.
@Suite("Media types")
struct MediaTypeTests {
  @Test(arguments: [
    ("application/json", "application/json"),
    ("Application/CloudEvents-Batch+JSON; charset=utf-8", "application/cloudevents-batch+json"),
    (" \tapplication/cloudevents+json ;charset=UTF-8", "application/cloudevents+json"),
    ("text/plain;", "text/plain"),
    ("", ""),
    ("; application/json", ""),
  ])
  func theEssenceIsTheTypeBeforeItsParametersInLowerCase(value: String, essence: String) {
    #expect(MediaType.essence(of: value) == essence)
  }

  @Test func jsonTypesAreTheJSONTypeTextJSONAndPlusJSON() {
    for json in ["application/json", "APPLICATION/JSON", "text/json; charset=utf-8", "application/cloudevents+json"] {
      #expect(MediaType.isJSON(json), "\(json)")
      let envelope = EventEnvelope(id: "e", time: nil, name: "T", version: 1, dataContentType: json, payload: Data())
      #expect(envelope.hasJSONPayload)
    }
    for other in ["application/octet-stream", "text/plain", "", "; application/json", "application/jsonx"] {
      #expect(!MediaType.isJSON(other), "\(other)")
    }
    #expect(EventEnvelope(id: "e", time: nil, name: "T", version: 1, payload: Data()).hasJSONPayload)
  }
}
