import ContractExport
import EventGenDriver
import Foundation
import TestSupport
import Testing

/// The exported documents of the samples and of the edge-case schemas are checked in under
/// `Tests/ContractExportTests/Golden/` and compared byte for byte; the samples' OpenAPI
/// description is the one the HTTP example serves, in `Sources/HTTPExample/openapi.json`.
/// Re-record them, as the generated Swift, by running eventgen (`Scripts/record-golden-files`
/// does it all):
///
///     swift run eventgen asyncapi Schemas --output Tests/ContractExportTests/Golden/Samples.asyncapi.json
///     swift run eventgen json-schema Schemas --output Tests/ContractExportTests/Golden/Samples.schema.json
///     swift run eventgen openapi Schemas --output Sources/HTTPExample/openapi.json
///
/// and the same for `Tests/EdgeCaseEvents/Schemas` into `EdgeCases.*.json`.
@Suite("Contract export: golden documents")
struct GoldenDocumentTests {
  struct Golden: CustomTestStringConvertible, Sendable {
    var schemas: String
    var format: ContractFormat
    var golden: String
    var testDescription: String { golden }
  }

  static let goldens: [Golden] = [
    Golden(schemas: "Schemas", format: .asyncAPI, golden: "Samples.asyncapi.json"),
    Golden(schemas: "Schemas", format: .jsonSchema, golden: "Samples.schema.json"),
    Golden(schemas: "Tests/EdgeCaseEvents/Schemas", format: .asyncAPI, golden: "EdgeCases.asyncapi.json"),
    Golden(schemas: "Tests/EdgeCaseEvents/Schemas", format: .jsonSchema, golden: "EdgeCases.schema.json"),
    Golden(schemas: "Schemas", format: .openAPI, golden: "Sources/HTTPExample/openapi.json"),
    Golden(schemas: "Tests/EdgeCaseEvents/Schemas", format: .openAPI, golden: "EdgeCases.openapi.json"),
  ]

  /// A name alone is in `Golden/`; a path is from the repository's root.
  static func goldenPath(_ name: String) -> String {
    path(name.contains("/") ? name : "Tests/ContractExportTests/Golden/" + name)
  }

  @Test("checked-in documents are current", arguments: goldens)
  func goldenDocumentIsCurrent(_ golden: Golden) throws {
    let plan = try Pipeline.plan([path(golden.schemas)], renderer: ContractDocument(format: golden.format))
    let stale = try OutputWriter.check(try #require(plan.files), against: .file(Self.goldenPath(golden.golden)))
    #expect(stale.isEmpty, "stale golden document; re-record with Scripts/record-golden-files:\n\(stale.joined())")
  }

  @Test("same schemas, same bytes", arguments: ContractFormat.allCases)
  func outputIsDeterministic(_ format: ContractFormat) throws {
    let first = try Pipeline.plan([path("Schemas")], renderer: ContractDocument(format: format)).files?.first?.contents
    let second = try Pipeline.plan([path("Schemas")], renderer: ContractDocument(format: format)).files?.first?.contents
    // The order of the arguments does not matter: files are sorted by name, as for generate.
    let files = ["Listings", "Chat", "Analytics", "Inventory"].map { path("Schemas/\($0).events.yaml") }
    let shuffled = try Pipeline.plan(files, renderer: ContractDocument(format: format)).files?.first?.contents
    #expect(first != nil)
    #expect(first == second)
    #expect(first == shuffled)
  }

  @Test func documentsArePrettyPrintedWithTwoSpacesAndEndWithANewline() throws {
    for golden in Self.goldens {
      let text = try String(contentsOfFile: Self.goldenPath(golden.golden), encoding: .utf8)
      #expect(text.hasPrefix("{\n  \""))
      #expect(text.hasSuffix("}\n") && !text.hasSuffix("\n\n"))
      #expect(!text.contains("\t"))
      for line in text.split(separator: "\n") {
        let indent = line.prefix { $0 == " " }.count
        #expect(indent % 2 == 0, "odd indentation in \(golden.golden): \(line)")
      }
    }
  }

  @Test func documentsParseAsJSON() throws {
    for golden in Self.goldens {
      let data = try Data(contentsOf: URL(fileURLWithPath: Self.goldenPath(golden.golden)))
      #expect(try JSONSerialization.jsonObject(with: data) is [String: Any])
    }
  }

  static let asyncAPISchema = path("../shared/asyncapi/json-schemas/asyncapi-3.0.0.json")

  /// Python with the jsonschema package, and the official AsyncAPI schema beside the checkout.
  static var validatorUnavailable: String? {
    guard FileManager.default.fileExists(atPath: asyncAPISchema) else {
      return "no AsyncAPI schema at ../shared/asyncapi/json-schemas"
    }
    let probe = try? runChildProcessBlocking(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import jsonschema"])
    return probe?.status == 0 ? nil : "python3 with the jsonschema package is not installed"
  }

  @Test(
    "the AsyncAPI documents validate against the official AsyncAPI 3.0.0 JSON Schema",
    .enabled(
      if: validatorUnavailable == nil, "needs python3 with jsonschema, and ../shared/asyncapi beside the checkout"))
  func asyncAPIDocumentsValidate() async throws {
    let documents = Self.goldens.filter { $0.format == .asyncAPI }.map { Self.goldenPath($0.golden) }
    let result = try await runChildProcess(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", path("Scripts/validate-asyncapi")] + documents)
    #expect(result.status == 0, "\(result.output)\(result.errors)")
    #expect(result.output.components(separatedBy: ": 0 errors").count == documents.count + 1, "\(result.output)")
  }

  /// The peers' Python (`Scripts/peers/setup`), with openapi-spec-validator.
  static let peerPython = path(".build/peers-venv/bin/python")

  @Test(
    "the OpenAPI documents are valid OpenAPI 3.1 to openapi-spec-validator",
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: peerPython),
      "needs the peers' Python environment: run Scripts/peers/setup (it pip-installs openapi-spec-validator)"))
  func openAPIDocumentsValidate() async throws {
    let documents = Self.goldens.filter { $0.format == .openAPI }.map { Self.goldenPath($0.golden) }
    let script = """
      import sys
      from openapi_spec_validator import validate
      from openapi_spec_validator.readers import read_from_filename
      for name in sys.argv[1:]:
          document, _ = read_from_filename(name)
          validate(document)
          print(name + ": valid")
      """
    let result = try await runChildProcess(URL(fileURLWithPath: Self.peerPython), ["-c", script] + documents)
    #expect(result.status == 0, "\(result.output)\(result.errors)")
    #expect(result.output.components(separatedBy: ": valid").count == documents.count + 1, "\(result.output)")
  }
}
