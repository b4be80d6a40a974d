@_spi(Generated) import EdgeCaseEvents
import Foundation
@_spi(Generated) import SampleEvents
import TestSupport
import Testing
@_spi(Generated) import TypedEvents

/// The exported contract (the checked-in `eventgen json-schema` and `eventgen asyncapi`
/// documents of the samples and the edge cases, which `ContractExportTests` keep current) as
/// programs nobody here wrote read it (`Scripts/peers/contract_peer.py`):
///
/// - Python's `jsonschema` (draft 2020-12) accepts every payload the generated `Codable` writes,
///   and agrees with the Swift decoder on changed payloads: removed keys, values of each JSON
///   type, integers beyond their width, a string no frozen enum declares.
/// - A consumer that asyncapi-python's code generator makes from the AsyncAPI document reads
///   CloudEvents that Swift wrote into its pydantic models, and Swift reads back, as the same
///   events, what that consumer writes from its models.
@Suite("Peers: the exported contract in Python", .enabled(if: Peers.python != nil, Peers.pythonMissing))
struct ContractPeerTests {
  /// A contract document pair and the generated types it describes.
  struct Contract: CustomTestStringConvertible, Sendable {
    var name: String
    var catalog: EventCatalog
    var testDescription: String { name }

    var schemaPath: String {
      Peers.root.appendingPathComponent("Tests/ContractExportTests/Golden/\(name).schema.json").path
    }
    var asyncAPIPath: String {
      Peers.root.appendingPathComponent("Tests/ContractExportTests/Golden/\(name).asyncapi.json").path
    }
    /// The schema folder the golden documents were exported from.
    var schemas: String
  }

  static let contracts = [
    Contract(
      name: "Samples", catalog: SampleEvents.GeneratedEvents.catalog,
      schemas: Peers.root.appendingPathComponent("Schemas").path),
    Contract(
      name: "EdgeCases", catalog: EdgeCaseEvents.GeneratedEvents.catalog,
      schemas: Peers.root.appendingPathComponent("Tests/EdgeCaseEvents/Schemas").path),
  ]

  /// Random events per event type whose payloads the schema judges.
  static let payloadsPerType = 1_000
  /// Random events per event type that cross to the generated consumer and back.
  static let eventsPerType = 100

  /// `count` random events of `type` that JSON can carry (no infinities), each with its payload.
  static func samples<E: Event>(_ type: E.Type, count: Int, seed: UInt64) throws -> [(event: E, payload: Data)] {
    let codable = try #require(E.self as? any FieldCodable.Type, "\(E.self) is not FieldCodable")
    let sampler = Sampler(seed: seed ^ UInt64(truncatingIfNeeded: String(describing: E.self).hashValueStable))
    var samples: [(E, Data)] = []
    while samples.count < count {
      let event: E = try #require(try sampler.event(codable) as? E)
      if !sampler.madeNonFinite { samples.append((event, try JSONEncoder().encode(event))) }
    }
    return samples
  }

  // MARK: - The payload schemas and the Swift decoder agree

  struct Judgement {
    var valid: Bool
    var definition: String
    var change: String
    var payload: Data
  }

  @Test("every payload validates, and jsonschema and the Swift decoder agree on changed ones", arguments: contracts)
  func payloadSchemasAgreeWithTheDecoder(_ contract: Contract) async throws {
    var input = ""
    var types: [String: any Event.Type] = [:]
    for name in contract.catalog.eventNames {
      let type = try #require(contract.catalog.type(named: name))
      let definition = String(describing: type)
      types[definition] = type
      for (_, payload) in try Self.samples(type, count: Self.payloadsPerType, seed: 0xC0_47AC7) {
        input += #"{"def":"\#(definition)","payload":"# + String(decoding: payload, as: UTF8.self) + "}\n"
      }
    }
    let python = try #require(Peers.python)
    let judgements = try await Peers.lines(
      of: "contract_peer.py", ["agree", contract.schemaPath], input: input, through: python
    )
    .map { line -> Judgement in
      let parts = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
      guard parts.count == 4 else { throw PeerFailure(description: "not a judgement: \(line.prefix(300))") }
      return Judgement(
        valid: parts[0] == "valid", definition: String(parts[1]), change: String(parts[2]), payload: Data(parts[3].utf8)
      )
    }

    let originals = judgements.filter { $0.change == "original" }
    #expect(originals.count == Self.payloadsPerType * types.count)
    let refused = originals.filter { !$0.valid }
    #expect(
      refused.isEmpty,
      "the schema refuses \(refused.count) payloads the generated Codable wrote, such as \(refused.prefix(3).map { "\($0.definition): \(String(decoding: $0.payload, as: UTF8.self).prefix(500))" })"
    )

    var disagreements: [String] = []
    var verdicts = (valid: 0, invalid: 0)
    for judgement in judgements where judgement.change != "original" {
      let type = try #require(types[judgement.definition])
      let decodes = Self.decodes(type, judgement.payload)
      if judgement.valid { verdicts.valid += 1 } else { verdicts.invalid += 1 }
      if decodes != judgement.valid {
        disagreements.append(
          "\(judgement.definition), \(judgement.change): schema \(judgement.valid ? "accepts" : "refuses"), "
            + "decoder \(decodes ? "accepts" : "refuses")")
      }
    }
    // Both verdicts occur, so agreement is not the same answer given to everything.
    #expect(verdicts.valid > 50 && verdicts.invalid > 50, "\(verdicts)")
    #expect(
      disagreements.isEmpty,
      "\(disagreements.count) disagreements:\n\(disagreements.prefix(20).joined(separator: "\n"))")
  }

  @Test("PyYAML, a YAML 1.1 reader, reads the YAML export as the JSON one", arguments: contracts)
  func theYAMLExportReadsAsTheJSON(_ contract: Contract) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("yaml-export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let yaml = folder.appendingPathComponent("contract.asyncapi.yaml").path
    let export = try await runChildProcess(try eventgen(), ["asyncapi", contract.schemas, "--output", yaml])
    try #require(export.status == 0, "\(export.errors)")
    let python = try #require(Peers.python)
    let answer = try await Peers.lines(
      of: "contract_peer.py", ["yaml-equals", yaml, contract.asyncAPIPath], input: "", through: python)
    #expect(answer == ["equal"])
  }

  static func decodes<E: Event>(_ type: E.Type, _ payload: Data) -> Bool {
    (try? JSONDecoder().decode(E.self, from: payload)) != nil
  }

  // MARK: - A consumer generated from the AsyncAPI document

  @Test(
    "a Python consumer generated from the AsyncAPI document reads what Swift writes, and Swift reads it back",
    arguments: contracts)
  func aGeneratedPythonConsumerReadsAndWritesTheSameEvents(_ contract: Contract) async throws {
    var input = ""
    var checks: [(EventEnvelope) throws -> Bool] = []
    for name in contract.catalog.eventNames {
      let type = try #require(contract.catalog.type(named: name))
      try Self.addEvents(type, to: &input, checks: &checks, catalog: contract.catalog)
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("contract-consumer-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let python = try #require(Peers.python)
    let written = try await Peers.lines(
      of: "contract_peer.py", ["consume", contract.asyncAPIPath, folder.path], input: input, through: python)

    try #require(written.count == checks.count, "the consumer wrote \(written.count) events of \(checks.count)")
    var differing: [String] = []
    for (line, check) in zip(written, checks) {
      let envelope = try EventEnvelope(cloudEventJSON: Data(line.utf8))
      #expect(envelope.source == "/python-consumer")
      if try !check(envelope) { differing.append(String(line.prefix(500))) }
    }
    #expect(
      differing.isEmpty,
      "\(differing.count) events came back changed from the consumer, such as:\n\(differing.prefix(5).joined(separator: "\n"))"
    )
  }

  /// Adds random events of `type` to `input` as structured CloudEvents, with a check that an
  /// envelope holds the same event.
  static func addEvents<E: Event>(
    _ type: E.Type, to input: inout String, checks: inout [(EventEnvelope) throws -> Bool], catalog: EventCatalog
  ) throws {
    for (event, _) in try samples(type, count: eventsPerType, seed: 0xC0_45E7) {
      let envelope = try EventEnvelope(event, source: "/swift-tests")
      input += String(decoding: try envelope.cloudEventJSON(), as: UTF8.self) + "\n"
      checks.append { carried in
        let decoded = try carried.decode(using: catalog, acceptingNewerVersions: true) as? E
        return carried.id == envelope.id && carried.name == envelope.name && decoded == event
      }
    }
  }
}

extension String {
  /// A hash that is the same in every run (`hashValue` is seeded per process).
  fileprivate var hashValueStable: Int {
    utf8.reduce(5381) { ($0 << 5) &+ $0 &+ Int($1) }
  }
}
