import ContractExport
import EventGenDriver
import Foundation
import TestSupport
import Testing

/// Writing and checking a document: the driver and the `asyncapi` and `json-schema` commands.
@Suite("Contract export: write and --check")
struct ContractOutputTests {
  let schema = "namespace: T\nevents:\n  Ping:\n    fields:\n      count: Int\n"

  func document(_ folder: TemporaryFolder, _ format: ContractFormat = .asyncAPI) throws -> [GeneratedFile] {
    try #require(try Pipeline.plan([folder.path + "/in"], renderer: ContractDocument(format: format)).files)
  }

  /// Whether writing `files` to `path` wrote anything.
  func write(_ files: [GeneratedFile], to path: String) throws -> Bool {
    try !OutputWriter.write(files, to: .file(path)).written.isEmpty
  }

  /// The one problem of checking `files` against `path`, or nil when it is current.
  func check(_ files: [GeneratedFile], against path: String) throws -> String? {
    let problems = try OutputWriter.check(files, against: .file(path))
    #expect(problems.count <= 1)
    return problems.first
  }

  /// Whether a diff adds the property of the field `note`.
  func addsTheNoteField(_ diff: String) -> Bool {
    diff.split(separator: "\n").contains { $0.hasPrefix("+ ") && $0.hasSuffix("\"note\": {") }
  }

  @Test func writesOnlyWhenTheBytesChange() throws {
    let folder = try TemporaryFolder()
    try folder.write("in/T.events.yaml", schema)
    let target = folder.path + "/out/deeper/t.asyncapi.json"
    #expect(try write(try document(folder), to: target))
    let past = Date(timeIntervalSince1970: 1_000_000)
    try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: target)
    #expect(try write(try document(folder), to: target) == false)
    let modified = try FileManager.default.attributesOfItem(atPath: target)[.modificationDate] as? Date
    #expect(modified == past)
    #expect(try check(try document(folder), against: target) == nil)
    // No temporary file is left beside it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/out/deeper") == ["t.asyncapi.json"])
  }

  @Test func checkShowsAUnifiedDiffOfAStaleDocument() throws {
    let folder = try TemporaryFolder()
    try folder.write("in/T.events.yaml", schema)
    let target = folder.path + "/t.json"
    let missing = try #require(try check(try document(folder), against: target))
    #expect(missing.hasPrefix("--- /dev/null\n+++ \(target)\n@@ -1,0 +1,"))
    _ = try write(try document(folder), to: target)
    try folder.write("in/T.events.yaml", schema + "      note: String?\n")
    let stale = try #require(try check(try document(folder), against: target))
    #expect(stale.hasPrefix("--- \(target)\n+++ \(target)\n@@ "))
    #expect(addsTheNoteField(stale))
    // Checking wrote nothing.
    #expect(try check(try document(folder), against: target) == stale)
  }

  @Test func aFileEventgenDidNotWriteIsNeverOverwritten() throws {
    let folder = try TemporaryFolder()
    try folder.write("in/T.events.yaml", schema)
    try folder.write("hand-written.json", "{\"asyncapi\": \"3.0.0\"}\n")
    let target = folder.path + "/hand-written.json"
    #expect(throws: InputError.self) { try write(try document(folder), to: target) }
    #expect(try folder.read("hand-written.json") == "{\"asyncapi\": \"3.0.0\"}\n")
    #expect(try check(try document(folder), against: target)?.contains("eventgen did not write it") == true)
    #expect(throws: InputError.self) { try write(try document(folder), to: folder.path) }
  }

  // MARK: The commands

  @Test(
    "the commands write, report current, and fail --check with a diff when stale", arguments: ContractFormat.allCases)
  func commandWritesAndChecks(_ format: ContractFormat) async throws {
    let folder = try TemporaryFolder()
    try folder.write("in/T.events.yaml", schema)
    let target = folder.path + "/contract.json"
    let arguments = [format.rawValue, folder.path + "/in", "--output", target]
    let written = try await runChildProcess(try eventgen(), arguments)
    #expect(written.status == 0, "\(written.errors)")
    #expect(written.output == "eventgen: 1 event → \(target): written\n")
    #expect(try folder.read("contract.json") == (try document(folder, format)).first?.contents)
    let current = try await runChildProcess(try eventgen(), arguments + ["--check"])
    #expect(current.status == 0)
    #expect(current.output == "eventgen: \(target) is current\n")

    try folder.write("in/T.events.yaml", schema + "      note: String?\n")
    let before = try folder.read("contract.json")
    let stale = try await runChildProcess(try eventgen(), arguments + ["--check"])
    #expect(stale.status == 1)
    #expect(stale.output.hasPrefix("--- \(target)\n+++ \(target)\n@@ "))
    #expect(addsTheNoteField(stale.output))
    #expect(
      stale.errors.contains("\(target) is stale; run: eventgen \(format.rawValue) \(folder.path)/in --output \(target)")
    )
    #expect(try folder.read("contract.json") == before)
    let rewritten = try await runChildProcess(try eventgen(), arguments)
    #expect(rewritten.output.hasSuffix(": written\n"))
    #expect(try await runChildProcess(try eventgen(), arguments).output.hasSuffix(": unchanged\n"))
  }

  @Test func aSchemaErrorExitsOneWithLocatedDiagnosticsAndWritesNothing() async throws {
    let folder = try TemporaryFolder()
    try folder.write("in/T.events.yaml", "events:\n  Ping:\n    fields:\n      count: Itn\n")
    let result = try await runChildProcess(
      try eventgen(), ["asyncapi", folder.path + "/in", "--output", folder.path + "/a.json"])
    #expect(result.status == 1)
    #expect(result.errors.contains("\(folder.path)/in/T.events.yaml:4:14: error: "))
    #expect(result.errors.contains("nothing was written"))
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/a.json"))
  }

  @Test func titleVersionAndConfigOptions() async throws {
    let folder = try TemporaryFolder()
    try folder.write("in/T.events.yaml", schema)
    try folder.write("eventgen-config.yaml", "schemas: [in]\n")
    let target = folder.path + "/a.json"
    let result = try await runChildProcess(
      try eventgen(),
      [
        "asyncapi", "--config", folder.path + "/eventgen-config.yaml", "--output", target, "--title", "Pings",
        "--version", "2.1.0",
      ])
    #expect(result.status == 0, "\(result.errors)")
    let text = try folder.read("a.json")
    #expect(text.contains("\"title\": \"Pings\",\n    \"version\": \"2.1.0\""))
    let usage = try await runChildProcess(try eventgen(), ["json-schema", "--output", target])
    #expect(usage.status == 2)
    #expect(usage.errors.contains("--config"))
  }
}
