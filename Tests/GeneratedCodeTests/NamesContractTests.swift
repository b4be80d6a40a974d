import BackendEvents
import Foundation
import Testing
import TypedEvents

/// The Swift generated from `Tests/BackendEvents/Contract/names.asyncapi.yaml`, whose messages
/// and schemas want names that are taken, kept by Swift or by generated code: each got another
/// by the rule of the article "Schema format" (section "Names"), and their JSON is the
/// contract's, through the catalog and `userInfo`.
@Suite("Names that collide in a contract")
struct NamesContractTests {
  /// Decodes `json` as `E`, through the catalog by its wire name unless another event has that
  /// name too, and checks that it writes the same JSON back and survives `userInfo`.
  private func roundTrip<E: TypedEvents.Event>(_ json: String, as type: E.Type, throughCatalog: Bool = true) throws -> E
  {
    let event: E
    if throughCatalog {
      let envelope = EventEnvelope(id: "1", time: nil, name: E.eventName, version: 1, payload: Data(json.utf8))
      let decoded = try envelope.decode(using: GeneratedEvents.catalog)
      event = try #require(decoded as? E, "\(Swift.type(of: decoded))")
    } else {
      event = try JSONDecoder().decode(E.self, from: Data(json.utf8))
    }
    let written = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
    #expect(try JSONValue(jsonText: written) == (try JSONValue(jsonText: json)), "\(written)")
    #expect(try E(userInfo: event.userInfo) == event)
    return event
  }

  @Test func eachRenamedTypeCarriesItsJSON() throws {
    let audio = try roundTrip(
      #"{"clip": {"codec": "opus", "seconds": 1.5}, "value": {"amount": 3}, "at": {"day": "monday"}}"#,
      as: Audio.self)
    // The schema `Audio` of media.json beside the event `Audio`; `Value` and `Date` as the
    // generated code and the schema language keep those names.
    let clip: MediaAudio = audio.clip
    let value: ValueSchema? = audio.value
    let day: DateSchema? = audio.at
    #expect(clip.codec == "opus" && value?.amount == 3 && day?.day == "monday")
    // Two files' `Error`: the first met keeps the name, the other takes its file's.
    let failed: Error? = try roundTrip(#"{"error": {"code": 7, "message": "no"}}"#, as: Failed.self).error
    #expect(failed?.code == 7)
    // Both channels' messages are `failed` on the wire: the catalog knows the first by it.
    let billing: BillingError? = try roundTrip(
      #"{"error": {"invoice": "A-1"}}"#, as: BillingFailed.self, throughCatalog: false
    ).error
    #expect(billing?.invoice == "A-1")
    // A keyword's message, and names chosen with `x-eventgen-name`.
    #expect(try roundTrip(#"{"kind": "k"}"#, as: TypeEvent.self).kind == "k")
    let remark: Remark? = try roundTrip(#"{"note": {"text": "hi"}}"#, as: Retitled.self).note
    #expect(remark?.text == "hi")
    // Wire names stay the document's.
    #expect(TypeEvent.eventName == "Type" && Retitled.eventName == "renamed" && BillingFailed.eventName == "failed")
  }
}
