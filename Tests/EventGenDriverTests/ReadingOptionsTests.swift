import Foundation
import TestSupport
import Testing

/// `--root`, the folder whose files AsyncAPI documents may name with `$ref`, and `--strict`.
@Suite("eventgen --root and --strict")
struct ReadingOptionsTests {
  @Test func theCommandLineReadsReferencesInsideItsRootOnly() async throws {
    let folder = try TemporaryFolder()
    try folder.write(
      "app/api/e.asyncapi.yaml",
      "asyncapi: 3.0.0\ninfo: {title: T, version: 1.0.0}\ncomponents:\n  messages:\n"
        + "    E: {payload: {$ref: '../../shared/schemas.yaml#/payload'}}\n")
    try folder.write("shared/schemas.yaml", "payload: {type: object, properties: {id: {type: string}}}\n")
    // Run from the app's folder, the default root, the shared file is outside: refused.
    let inside = try await runChildProcess(
      try eventgen(), ["lint", "api"], in: URL(fileURLWithPath: folder.path + "/app"))
    #expect(inside.status == 1)
    #expect(inside.errors.contains("api/e.asyncapi.yaml:5:25: error: `$ref` to ../../shared/schemas.yaml leaves "))
    // With a root that holds both, it is read.
    let widened = try await runChildProcess(
      try eventgen(), ["lint", "api", "--root", ".."], in: URL(fileURLWithPath: folder.path + "/app"))
    #expect(widened.status == 0, "\(widened.errors)")
    #expect(widened.output == "eventgen: 1 schema file OK, 1 event\n")
  }

  @Test func aSkippedMessageIsAWarningThatStrictMakesAnError() async throws {
    let folder = try TemporaryFolder()
    try folder.write(
      "e.asyncapi.yaml",
      "asyncapi: 2.6.0\ninfo: {title: T, version: 1.0.0}\ncomponents:\n  messages:\n"
        + "    Avro:\n      schemaFormat: application/vnd.apache.avro;version=1.9.0\n      payload: {type: record}\n"
        + "    Kept:\n      payload: {type: object, properties: {id: {type: string}}}\n")
    let here = URL(fileURLWithPath: folder.path)
    let warning =
      "e.asyncapi.yaml:6:21: warning: message `Avro` is skipped: its payload is in `application/vnd.apache.avro;version=1.9.0`"
    let lint = try await runChildProcess(try eventgen(), ["lint", "e.asyncapi.yaml"], in: here)
    #expect(lint.status == 0, "\(lint.errors)")
    #expect(lint.errors.contains(warning))
    #expect(lint.output == "eventgen: 1 schema file OK, 1 event\n")
    let generated = try await runChildProcess(
      try eventgen(), ["generate", "e.asyncapi.yaml", "--output", "out"], in: here)
    #expect(generated.status == 0, "\(generated.errors)")
    #expect(FileManager.default.fileExists(atPath: folder.path + "/out/e.asyncapi.swift"))

    let strict = try await runChildProcess(try eventgen(), ["lint", "--strict", "e.asyncapi.yaml"], in: here)
    #expect(strict.status == 1)
    #expect(strict.errors.contains(warning.replacingOccurrences(of: ": warning: ", with: ": error: ")))
    let refused = try await runChildProcess(
      try eventgen(), ["generate", "--strict", "e.asyncapi.yaml", "--output", "strict-out"], in: here)
    #expect(refused.status == 1)
    #expect(refused.errors.contains("nothing was written"))
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/strict-out"))
  }
}
