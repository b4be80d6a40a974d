import Foundation
import TestSupport
import Testing

/// `--root`: the folder whose files AsyncAPI documents may name with `$ref`.
@Suite("eventgen --root")
struct RootOptionTests {
  @Test func theCommandLineReadsReferencesInsideItsRootOnly() throws {
    let folder = try TemporaryFolder()
    try folder.write(
      "app/api/e.asyncapi.yaml",
      "asyncapi: 3.0.0\ninfo: {title: T, version: 1.0.0}\ncomponents:\n  messages:\n"
        + "    E: {payload: {$ref: '../../shared/schemas.yaml#/payload'}}\n")
    try folder.write("shared/schemas.yaml", "payload: {type: object, properties: {id: {type: string}}}\n")
    // Run from the app's folder, the default root, the shared file is outside: refused.
    let inside = try runChildProcess(try eventgen(), ["lint", "api"], in: URL(fileURLWithPath: folder.path + "/app"))
    #expect(inside.status == 1)
    #expect(inside.errors.contains("api/e.asyncapi.yaml:5:25: error: `$ref` to ../../shared/schemas.yaml leaves "))
    // With a root that holds both, it is read.
    let widened = try runChildProcess(
      try eventgen(), ["lint", "api", "--root", ".."], in: URL(fileURLWithPath: folder.path + "/app"))
    #expect(widened.status == 0, "\(widened.errors)")
    #expect(widened.output == "eventgen: 1 schema file OK, 1 event\n")
  }
}
