@_spi(Generated) import EdgeCaseEvents
import Foundation
@_spi(Generated) import SampleEvents
import Testing
@_spi(Generated) import TypedEvents

extension SampleEvents.Status: KnownCases {}
extension EdgeCaseEvents.Weekday: KnownCases {}

extension GeoPoint: Sampled {
  static func sample(_ sampler: Sampler) -> GeoPoint {
    GeoPoint(latitude: sampler.double(), longitude: sampler.double())
  }
}

/// Every generated event type of the samples and the edge-case schemas, by wire name.
let allGeneratedEvents = SampleEvents.GeneratedEvents.catalog.merging(EdgeCaseEvents.GeneratedEvents.catalog)

/// Random values of every generated event type survive userInfo → binary property list →
/// userInfo, JSON, and an envelope (as logs and stores carry events), unchanged.
///
/// "Unchanged" is checked twice: with the generated `==`, and byte for byte on a canonical JSON
/// form (sorted keys), which `==` alone would miss for strings that differ only in Unicode
/// normalization, or for -0.0 against 0.0.
///
/// `PROPERTY_CASES` sets the cases per event type (1,000 by default, to keep `swift test` quick;
/// .ci/run runs 4,000) and `PROPERTY_SEED` the seed (hexadecimal);
/// a failure names both, and the case, to reproduce it.
@Suite("Generated events: property-based round trips")
struct PropertyRoundTripTests {
  static let cases = ProcessInfo.processInfo.environment["PROPERTY_CASES"].flatMap(Int.init) ?? 1_000
  static let seed = ProcessInfo.processInfo.environment["PROPERTY_SEED"].flatMap { UInt64($0, radix: 16) } ?? 0x7E57_ED

  /// Canonical JSON: sorted keys, infinities (and NaN) as strings so that every value has a form.
  static func canonicalEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    return encoder
  }

  static func canonicalDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    return decoder
  }

  @Test func everyGeneratedEventTypeIsCovered() {
    // The samples' four scenarios and the edge cases; a new event type joins automatically.
    #expect(allGeneratedEvents.count >= 20)
    #expect(allGeneratedEvents.eventNames.contains("DeepNesting"))
  }

  @Test("random events survive userInfo → binary plist → userInfo, and JSON", arguments: allGeneratedEvents.eventNames)
  func roundTrips(_ name: String) throws {
    let type = try #require(allGeneratedEvents.type(named: name))
    let seed = Self.seed ^ UInt64(truncatingIfNeeded: name.utf8.reduce(5381) { ($0 << 5) &+ $0 &+ Int($1) })
    let summary = try check(type, seed: seed)
    #expect(summary.cases == Self.cases)
    #expect(
      summary.failure == nil,
      """
      \(name), case \(summary.cases - 1); reproduce with PROPERTY_SEED=\(String(Self.seed, radix: 16)) \
      PROPERTY_CASES=\(summary.cases) swift test --filter PropertyRoundTripTests
      \(summary.failure ?? "")
      """)
  }

  struct Summary {
    var cases = 0
    var nonFinite = 0
    var failure: String?
  }

  private func check<E: Event>(_ type: E.Type, seed: UInt64) throws -> Summary {
    let codable = try #require(E.self as? any FieldCodable.Type, "\(E.self) is not FieldCodable")
    let sampler = Sampler(seed: seed)
    let canonical = Self.canonicalEncoder()
    let decoder = Self.canonicalDecoder()
    let plainEncoder = JSONEncoder()
    var summary = Summary()
    for index in 0..<Self.cases {
      summary.cases += 1
      let event: E = try #require(try sampler.event(codable) as? E)
      let expected = try canonical.encode(event)
      func fail(_ what: String) -> Summary {
        var failed = summary
        failed.failure = "case \(index): \(what)\n  event: \(String(decoding: expected, as: UTF8.self).prefix(2_000))"
        return failed
      }

      let viaPropertyList = try throughPropertyList(event)
      guard viaPropertyList == event, try canonical.encode(viaPropertyList) == expected else {
        return fail(
          "changed by userInfo → binary plist → userInfo:\n  became \(String(decoding: try canonical.encode(viaPropertyList), as: UTF8.self).prefix(2_000))"
        )
      }

      let viaJSON = try decoder.decode(E.self, from: expected)
      guard viaJSON == event, try canonical.encode(viaJSON) == expected else {
        return fail(
          "changed by JSON:\n  became \(String(decoding: try canonical.encode(viaJSON), as: UTF8.self).prefix(2_000))")
      }

      // JSON proper has no infinity: the default encoder must refuse it rather than write a
      // number that reads back as something else.
      if sampler.madeNonFinite {
        summary.nonFinite += 1
        do {
          _ = try plainEncoder.encode(event)
          return fail("JSONEncoder wrote an infinity without a non-conforming-float strategy")
        } catch is EncodingError {
        }
      } else {
        guard try JSONDecoder().decode(E.self, from: try plainEncoder.encode(event)) == event else {
          return fail("changed by JSON with the default coders")
        }
        // Through an envelope, as a log or a store carries it, and CloudEvents in the structured
        // and both binary modes: exact, dates included.
        let envelope = try EventEnvelope(event, source: "/property-tests")
        for carried in [
          try EventEnvelope(cloudEventJSON: try envelope.cloudEventJSON()),
          try EventEnvelope(cloudEventMessage: try envelope.cloudEventMessage(.http)),
          try EventEnvelope(cloudEventMessage: try envelope.cloudEventMessage(.kafka)),
        ] {
          guard carried == envelope, try carried.decode(using: allGeneratedEvents) as? E == event else {
            return fail("changed by an envelope: \(String(decoding: envelope.payload, as: UTF8.self).prefix(2_000))")
          }
        }
      }
    }
    return summary
  }

  @Test func nanSurvivesUserInfoAndJSONWithAStrategy() throws {
    let sampler = Sampler(seed: Self.seed)
    for payload in [Double.nan, -Double.nan, Double(nan: 0x5EED, signaling: false)] {
      let base = try sampler.event(Everything.self)
      var info = base.userInfo
      info["double"] = payload
      info["float"] = Float(payload)
      let event = try Everything(userInfo: info)
      let back = try throughPropertyList(event)
      #expect(back.double.isNaN && back.float.isNaN)
      let viaJSON = try Self.canonicalDecoder().decode(Everything.self, from: try Self.canonicalEncoder().encode(event))
      #expect(viaJSON.double.isNaN && viaJSON.float.isNaN)
      // NaN is not equal to itself, so neither is an event that holds it.
      #expect(back != event)
      #expect(throws: EncodingError.self) { try JSONEncoder().encode(event) }
    }
  }
}
