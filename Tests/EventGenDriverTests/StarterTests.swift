import EventCodegen
import EventSchema
import Foundation
import TestSupport
import Testing

@testable import EventGenDriver

@Suite("eventgen init and target folders without Swift files")
struct StarterTests {
  @Test func initWritesASchemaThatLintsAndGeneratesCleanly() throws {
    let folder = try TemporaryFolder()
    let target = folder.path + "/Sources/ShopEvents"
    let files = Starter.files(inFolder: target)
    try Starter.write(files)
    #expect(
      files.map { URL(fileURLWithPath: $0.path).lastPathComponent } == [
        "ShopEvents.events.yaml", "ShopEvents.swift", "eventgen-config.yaml",
      ])
    for file in files {
      #expect(
        try folder.read("Sources/ShopEvents/" + URL(fileURLWithPath: file.path).lastPathComponent) == file.contents)
    }
    let report = try FrontEnd.load([target])
    #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
    #expect(report.eventCount == 3)
    let plan = try Pipeline.plan([target], renderer: SwiftSources())
    #expect(plan.files?.count == 1)
    let (config, diagnostics) = try GeneratorConfig.load(target + "/eventgen-config.yaml")
    #expect(diagnostics.isEmpty)
    #expect(config?.accessLevel == .public)
  }

  @Test func theStarterSchemaShowsEveryConstruct() {
    let schema = Starter.schema(namespace: "Shop")
    for construct in [
      "namespace:", "version:", "doc:", "types:", "wraps:", "enum:", "frozen:", "fields:", "external:", "events:",
      "subject:", "deprecated:", "default:", "key:", "type:", "groups:", "events: [", "cases:", "?", "[String]",
      "[String: Int]",
    ] {
      #expect(schema.contains(construct), "the starter schema has no example of \(construct)")
    }
  }

  @Test func initRefusesToOverwriteAndWritesNothing() throws {
    let folder = try TemporaryFolder()
    try folder.write("Sources/ShopEvents/ShopEvents.swift", "// mine\n")
    let files = Starter.files(inFolder: folder.path + "/Sources/ShopEvents")
    #expect(throws: InputError.self) { try Starter.write(files) }
    #expect(try folder.read("Sources/ShopEvents/ShopEvents.swift") == "// mine\n")
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/Sources/ShopEvents")
    #expect(left == ["ShopEvents.swift"])
  }

  @Test func packageLinesNameTheTargetAndThePlugin() {
    let lines = Starter.packageLines(forFolder: "Sources/ShopEvents/", version: "1.2.3")
    #expect(lines.dependency == #".package(url: "https://github.com/typedevents/TypedEvents", from: "1.2.3"),"#)
    #expect(lines.target.contains(#"name: "ShopEvents""#))
    #expect(lines.target.contains(#".plugin(name: "EventGenPlugin", package: "TypedEvents")"#))
  }

  @Test func warnsAboutATargetFolderWithSchemasAndNoSwiftFile() throws {
    let folder = try TemporaryFolder()
    try folder.write("Package.swift", "// swift-tools-version: 6.1\n")
    try folder.write("Sources/Gen/B.events.yaml", "events:\n")
    try folder.write("Sources/Gen/Nested/A.events.yaml", "events:\n")
    try folder.write("Tests/Fixtures/C.events.yaml", "events:\n")
    let schemas = ["Sources/Gen/B.events.yaml", "Sources/Gen/Nested/A.events.yaml", "Tests/Fixtures/C.events.yaml"].map
    { folder.path + "/" + $0 }
    let warnings = TargetFolders.warnings(forSchemas: schemas)
    // One per target folder, at its first schema.
    #expect(
      warnings.map(\.location.file) == [
        folder.path + "/Sources/Gen/B.events.yaml", folder.path + "/Tests/Fixtures/C.events.yaml",
      ])
    #expect(warnings.allSatisfy { $0.severity == .warning && $0.location.line == 1 && $0.location.column == 1 })
    #expect(
      warnings.first?.message.contains("holds event schemas but no Swift file, so SwiftPM skips the target") == true)
    #expect(warnings.first?.message.contains("Gen/Gen.swift` holding `import TypedEvents`") == true)

    // A Swift file anywhere in the target folder is enough; a hidden one is not (SwiftPM skips it).
    try folder.write("Sources/Gen/.hidden/X.swift", "")
    #expect(TargetFolders.warnings(forSchemas: schemas).count == 2)
    try folder.write("Sources/Gen/Nested/Gen.swift", "import TypedEvents\n")
    #expect(
      TargetFolders.warnings(forSchemas: schemas).map(\.location.file) == [
        folder.path + "/Tests/Fixtures/C.events.yaml"
      ])
  }

  @Test func schemasOutsideATargetFolderAreNotWarnedAbout() throws {
    let folder = try TemporaryFolder()
    try folder.write("Schemas/A.events.yaml", "events:\n")
    try folder.write("Sources/Gen/B.events.yaml", "events:\n")  // no Package.swift: not a package
    #expect(
      TargetFolders.warnings(forSchemas: [
        folder.path + "/Schemas/A.events.yaml", folder.path + "/Sources/Gen/B.events.yaml",
      ]).isEmpty)
    try folder.write("Package.swift", "")
    try folder.write("Schemas/B.events.yaml", "events:\n")
    #expect(TargetFolders.warnings(forSchemas: [folder.path + "/Schemas/B.events.yaml"]).isEmpty)
  }

  /// Runs the eventgen binary in `folder`; its exit status and standard error.
  private func eventgen(_ arguments: [String], in folder: String) async throws -> (status: Int32, errors: String) {
    let run = try await runEventgen(arguments, in: folder)
    return (run.status, run.errors)
  }

  @Test func lintGenerateAndCheckWarnAndGenerateLooksAfterWriting() async throws {
    let folder = try TemporaryFolder()
    try folder.write("Package.swift", "// swift-tools-version: 6.1\n")
    try folder.write("Sources/Gen/A.events.yaml", "events:\n  Ping:\n    fields:\n      count: Int\n")
    let warning =
      "Sources/Gen/A.events.yaml:1:1: warning: target folder `Sources/Gen` holds event schemas but no Swift file"
    for arguments in [
      ["lint", "Sources/Gen"], ["generate", "Sources/Gen", "--output", "Out"],
      ["check", "Sources/Gen", "--output", "Out"],
    ] {
      let run = try await eventgen(arguments, in: folder.path)
      #expect(run.status == 0, "\(arguments): \(run.errors)")
      #expect(run.errors.contains(warning), "eventgen \(arguments.joined(separator: " ")) did not warn: \(run.errors)")
    }
    // Generated into the target's own folder, the output is the Swift file the target needed.
    let checkedIn = try await eventgen(
      ["generate", "Sources/Gen", "--output", "Sources/Gen/Generated"], in: folder.path)
    #expect(checkedIn.status == 0)
    #expect(!checkedIn.errors.contains("warning:"), "\(checkedIn.errors)")
  }
}
