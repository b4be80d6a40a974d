import Foundation
import SampleEvents
import Testing
import TypedEvents

/// The examples of the DocC article "Events across languages", as written there.
@Suite("Article: Events across languages")
struct EventsAcrossLanguagesArticleTests {
  @Test func theTimestampExample() {
    let date = Date(timeIntervalSinceReferenceDate: 785_000_000.123456)
    #expect(EventTimestamp.string(from: date) == "2025-11-16T15:33:20.123456Z")
  }

  @Test func theHTTPExample() throws {
    let sold = Fixtures.sold
    let envelope = try EventEnvelope(sold, source: "/listings-service", metadata: ["region": "eu", "retries": 0])
    let http = try envelope.cloudEventMessage(.http)
    #expect(http.headers["ce-type"] == "Listings.ListingSold")
    #expect(http.body == envelope.payload)
    let received = try EventEnvelope(cloudEventMessage: http)
    let event = try received.decode(using: GeneratedEvents.catalog) as? ListingSold
    #expect(event == sold)
    #expect(received.metadata["retries"] == "0")  // an Integer arrives as its text in a header
  }

  @Test func anOptionalThatIsNilLeavesItsKeyOut() throws {
    let json = try JSONEncoder().encode(ItemProvisioned(boxId: Fixtures.item.boxId, item: Fixtures.item.item))
    #expect(!String(decoding: json, as: UTF8.self).contains("barcode"))
  }
}
