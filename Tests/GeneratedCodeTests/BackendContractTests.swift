import BackendEvents
import Foundation
import SampleEvents
import Testing
@_spi(Generated) import TypedEvents

extension BackendEvents.ListingStatus: KnownCases {}

/// The types generated from the backend's hand-written AsyncAPI document
/// (`Tests/BackendEvents/Contract/marketplace.asyncapi.yaml`) and those generated from
/// `Schemas/*.events.yaml` read each other's JSON: random events of either side, written as
/// JSON, read by the other side and written again, read back as the same events.
@Suite("A hand-written AsyncAPI contract and the samples read each other's JSON")
struct BackendContractTests {
  static let cases = 500

  /// Writes `event` as JSON, reads it as `Other`, writes that and reads it back.
  static func throughTheOtherSide<E: TypedEvents.Event, Other: TypedEvents.Event>(
    _ event: E, as other: Other.Type
  ) throws -> E {
    let theirs = try JSONDecoder().decode(Other.self, from: try JSONEncoder().encode(event))
    return try JSONDecoder().decode(E.self, from: try JSONEncoder().encode(theirs))
  }

  /// Random events of `E` that JSON can carry, checked through `Other`; the count checked.
  static func check<E: TypedEvents.Event, Other: TypedEvents.Event>(
    _ type: E.Type, through other: Other.Type, seed: UInt64
  ) throws -> Int {
    #expect(E.eventName == Other.eventName)
    let codable = try #require(E.self as? any FieldCodable.Type)
    let sampler = Sampler(seed: seed)
    var checked = 0
    for index in 0..<cases {
      let event: E = try #require(try sampler.event(codable) as? E)
      if sampler.madeNonFinite { continue }
      let back: E
      do {
        back = try throughTheOtherSide(event, as: other)
      } catch {
        Issue.record(
          "\(E.self) case \(index): \(error)\n\(String(decoding: try JSONEncoder().encode(event), as: UTF8.self))")
        return checked
      }
      #expect(back == event, "\(E.self) case \(index)")
      checked += 1
    }
    return checked
  }

  @Test func theSamplesJSONReadsAsTheContractsTypesAndBack() throws {
    var checked = 0
    checked += try Self.check(SampleEvents.ListingCreated.self, through: BackendEvents.ListingCreated.self, seed: 1)
    checked += try Self.check(SampleEvents.ListingUpdated.self, through: BackendEvents.ListingUpdated.self, seed: 2)
    checked += try Self.check(SampleEvents.ListingSold.self, through: BackendEvents.ListingSold.self, seed: 3)
    checked += try Self.check(SampleEvents.ListingArchived.self, through: BackendEvents.ListingArchived.self, seed: 4)
    checked += try Self.check(SampleEvents.BoxProvisioned.self, through: BackendEvents.BoxProvisioned.self, seed: 5)
    checked += try Self.check(SampleEvents.ItemProvisioned.self, through: BackendEvents.ItemProvisioned.self, seed: 6)
    checked += try Self.check(SampleEvents.ItemMoved.self, through: BackendEvents.ItemMoved.self, seed: 7)
    #expect(checked > 7 * Self.cases / 2)
  }

  @Test func theContractsJSONReadsAsTheSamplesTypesAndBack() throws {
    var checked = 0
    checked += try Self.check(BackendEvents.ListingCreated.self, through: SampleEvents.ListingCreated.self, seed: 11)
    checked += try Self.check(BackendEvents.ListingUpdated.self, through: SampleEvents.ListingUpdated.self, seed: 12)
    checked += try Self.check(BackendEvents.ListingSold.self, through: SampleEvents.ListingSold.self, seed: 13)
    checked += try Self.check(BackendEvents.ListingArchived.self, through: SampleEvents.ListingArchived.self, seed: 14)
    checked += try Self.check(BackendEvents.BoxProvisioned.self, through: SampleEvents.BoxProvisioned.self, seed: 15)
    checked += try Self.check(BackendEvents.ItemProvisioned.self, through: SampleEvents.ItemProvisioned.self, seed: 16)
    checked += try Self.check(BackendEvents.ItemMoved.self, through: SampleEvents.ItemMoved.self, seed: 17)
    #expect(checked > 7 * Self.cases / 2)
  }
}
