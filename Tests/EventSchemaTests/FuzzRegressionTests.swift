import EventSchema
import Foundation
import Testing

/// Inputs that made Scripts/fuzz fail, kept as files so that a new finding is one `cp` away.
///
/// Each is checked against the invariants the fuzzer checks: a run has a schema exactly when it
/// has no errors, and every diagnostic points into the file that was read. The exact diagnostics
/// of each finding are in BadSchemaCases.swift, under "Found by fuzzing".
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "FuzzRegressions")

  static let inputs: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted()
  }()

  @Test func theFolderHoldsTheFindings() {
    #expect(Self.inputs.count >= 2)
  }

  @Test("a fuzzer finding loads with located diagnostics", arguments: inputs)
  func finding(_ name: String) throws {
    let bytes = try Array(Data(contentsOf: Self.folder.appendingPathComponent(name)))
    let path = "fuzz.events.yaml"
    let result = SchemaLoader.load([SchemaSource(path: path, bytes: bytes)])
    #expect((result.schema == nil) == result.hasErrors)
    let lines = 1 + bytes.count { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
    for diagnostic in result.diagnostics {
      #expect(diagnostic.location.file == path, "\(diagnostic)")
      #expect((1...lines).contains(diagnostic.location.line) && diagnostic.location.column >= 1, "\(diagnostic)")
    }
  }
}
