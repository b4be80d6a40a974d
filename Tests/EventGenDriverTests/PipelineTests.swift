import EventCodegen
import EventGenDriver
import EventSchema
import Foundation
import TestSupport
import Testing

@Suite("Pipeline: front end, renderers, output writer")
struct GeneratorDriverTests {
  let schema = "namespace: T\nevents:\n  Ping:\n    fields:\n      count: Int\n"

  @Test func writesOneFilePerSchemaPlusTheCatalog() throws {
    let folder = try TemporaryFolder()
    try folder.write("in/A.events.yaml", schema)
    let plan = try Pipeline.plan([folder.path + "/in"], renderer: SwiftSources())
    let summary = try OutputWriter.write(try #require(plan.files), to: .folder(folder.path + "/out"))
    #expect(summary.written == ["A.events.swift"])
    let source = try folder.read("out/A.events.swift")
    #expect(source.contains("public struct Ping: TypedEvents.Event"))
    #expect(source.contains("init<Reader: TypedEvents.FieldReader>(fields reader: Reader)"))
    #expect(source.contains("public enum GeneratedEvents"))
  }

  @Test func unchangedFilesAreNotRewritten() throws {
    let folder = try TemporaryFolder()
    try folder.write("A.events.yaml", schema)
    let files = try #require(try Pipeline.plan([folder.path + "/A.events.yaml"], renderer: SwiftSources()).files)
    _ = try OutputWriter.write(files, to: .folder(folder.path + "/out"))
    let target = folder.path + "/out/A.events.swift"
    let past = Date(timeIntervalSince1970: 1_000_000)
    try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: target)
    let summary = try OutputWriter.write(files, to: .folder(folder.path + "/out"))
    #expect(summary.written.isEmpty)
    #expect(summary.unchanged == ["A.events.swift"])
    let modified = try FileManager.default.attributesOfItem(atPath: target)[.modificationDate] as? Date
    #expect(modified == past)
  }

  @Test func accessLevelsAreApplied() throws {
    let folder = try TemporaryFolder()
    try folder.write("A.events.yaml", schema)
    let levels: [(AccessLevel, String, String)] = [
      (.internal, "nonisolated struct Ping: TypedEvents.Event", "\n@_spi(Generated) import TypedEvents\n"),
      (
        .package, "nonisolated package struct Ping: TypedEvents.Event",
        "\n@_spi(Generated) package import TypedEvents\n"
      ),
      (.public, "nonisolated public struct Ping: TypedEvents.Event", "\n@_spi(Generated) public import TypedEvents\n"),
    ]
    for (level, declaration, runtimeImport) in levels {
      let files = try #require(
        try Pipeline.plan(
          [folder.path + "/A.events.yaml"], renderer: SwiftSources(options: GeneratorOptions(accessLevel: level))
        ).files)
      #expect(files[0].contents.contains(declaration))
      #expect(files[0].contents.contains(runtimeImport))
      if level != .public { #expect(!files.contains { $0.contents.contains("public ") }) }
    }
  }

  @Test func theConfigSetsTheNotificationMessageAndRefusesAnUnknownKind() throws {
    let folder = try TemporaryFolder()
    try folder.write("good/eventgen-config.yaml", "notification-message: async\nschemas: [../in]\n")
    let (config, diagnostics) = try GeneratorConfig.load(folder.path + "/good/eventgen-config.yaml")
    #expect(diagnostics.isEmpty)
    #expect(config?.notificationMessage == .async)
    #expect(config?.schemas == [folder.path + "/in"])

    try folder.write("bad/eventgen-config.yaml", "notification-message: sideways\n")
    let (bad, errors) = try GeneratorConfig.load(folder.path + "/bad/eventgen-config.yaml")
    #expect(bad == nil)
    #expect(
      errors.map(\.description) == [
        "\(folder.path)/bad/eventgen-config.yaml:1:23: error: `notification-message` is one of main-actor, async"
      ])
  }

  @Test func theConfigsReferencesReadRemoteSchemasFromVendoredCopies() throws {
    let folder = try TemporaryFolder()
    try folder.write(
      "target/eventgen-config.yaml",
      "schemas: [runs.asyncapi.yaml]\nreferences:\n  \"https://example.com/schemas/\": ../vendor/schemas\n")
    try folder.write(
      "target/runs.asyncapi.yaml",
      "asyncapi: 3.0.0\ninfo: {title: T, version: 1.0.0}\ncomponents:\n  messages:\n    RunStarted:\n"
        + "      payload: {$ref: 'https://example.com/schemas/run_start.json'}\n")
    try folder.write(
      "vendor/schemas/run_start.json", #"{"type": "object", "properties": {"run": {"type": "string"}}}"#)
    let (config, diagnostics) = try GeneratorConfig.load(folder.path + "/target/eventgen-config.yaml")
    #expect(diagnostics.isEmpty)
    let references = try #require(config?.references)
    #expect(references == ["https://example.com/schemas/": folder.path + "/vendor/schemas"])
    let plan = try Pipeline.plan(
      try #require(config).inputs([]), renderer: SwiftSources(),
      referenceRoot: ReferenceRoot(folder.path).mapping(references))
    #expect(plan.diagnostics.isEmpty, "\(plan.diagnostics.map(\.description))")
    #expect(try #require(plan.files).first?.contents.contains("public let run: Swift.String?") == true)
  }

  @Test func theConfigsTypedFormatsMakeFormattedStringsTheirSwiftTypes() throws {
    let folder = try TemporaryFolder()
    try folder.write("target/eventgen-config.yaml", "schemas: [ids.asyncapi.yaml]\ntyped-formats: [uuid]\n")
    try folder.write(
      "target/ids.asyncapi.yaml",
      "asyncapi: 3.0.0\ninfo: {title: T, version: 1.0.0}\ncomponents:\n  messages:\n    Seen:\n"
        + "      payload: {type: object, properties: {by: {type: string, format: uuid}, "
        + "at: {type: string, format: uri}}}\n")
    let (config, diagnostics) = try GeneratorConfig.load(folder.path + "/target/eventgen-config.yaml")
    #expect(diagnostics.isEmpty)
    let typed = try #require(config?.typedFormats)
    #expect(typed == [.uuid])
    let plan = try Pipeline.plan(try #require(config).inputs([]), renderer: SwiftSources(), typedFormats: typed)
    #expect(plan.diagnostics.isEmpty, "\(plan.diagnostics.map(\.description))")
    let swift = try #require(plan.files).first?.contents ?? ""
    #expect(swift.contains("public let by: Foundation.UUID?"))
    #expect(swift.contains("public let at: Swift.String?"))

    try folder.write("bad/eventgen-config.yaml", "typed-formats: [uuid, email]\n")
    let (bad, errors) = try GeneratorConfig.load(folder.path + "/bad/eventgen-config.yaml")
    #expect(bad == nil)
    #expect(
      errors.map(\.description) == [
        "\(folder.path)/bad/eventgen-config.yaml:1:23: error: `typed-formats` lists string formats read as Swift types: uuid, uri"
      ])
  }

  @Test func theConfigsNamesNameMessagesAndSchemasOfAContractNobodyEdits() throws {
    let folder = try TemporaryFolder()
    try folder.write(
      "target/eventgen-config.yaml",
      """
      schemas: [media.asyncapi.yaml]
      names:
        "#/components/schemas/Audio": AudioClip
        "#/components/messages/audio": AudioReceived
        "#/channels/calls/messages/hangUp": CallEnded
        "common.json#/definitions/Error": CommonError
        "#/components/schemas/Audoi": Misspelled

      """)
    try folder.write(
      "target/media.asyncapi.yaml",
      """
      asyncapi: 3.0.0
      info: {title: T, version: 1.0.0}
      channels:
        calls:
          messages:
            hangUp:
              payload: {type: object, properties: {error: {$ref: 'common.json#/definitions/Error'}}}
      components:
        messages:
          audio:
            payload: {type: object, properties: {clip: {$ref: '#/components/schemas/Audio'}}}
        schemas:
          Audio: {type: object, properties: {codec: {type: string}}}

      """)
    try folder.write("target/common.json", #"{"definitions": {"Error": {"type": "object", "properties": {}}}}"#)
    let (config, diagnostics) = try GeneratorConfig.load(folder.path + "/target/eventgen-config.yaml")
    #expect(diagnostics.isEmpty)
    let names = try #require(config?.names)
    #expect(names.map(\.name) == ["AudioClip", "AudioReceived", "CallEnded", "CommonError", "Misspelled"])
    let plan = try Pipeline.plan(
      try #require(config).inputs([]), renderer: SwiftSources(), referenceRoot: ReferenceRoot(folder.path),
      names: names)
    let swift = try #require(plan.files).first?.contents ?? ""
    for declaration in [
      "struct AudioClip:", "struct AudioReceived:", "struct CallEnded:", "struct CommonError:",
      "let clip: AudioClip?", "let error: CommonError?",
    ] {
      #expect(swift.contains(declaration), "\(declaration)")
    }
    // A key that names nothing is said where it is given; no other diagnostic (no rename note).
    #expect(
      plan.diagnostics.map(\.description) == [
        "\(folder.path)/target/eventgen-config.yaml:7:33: warning: `names` gives `Misspelled` to #/components/schemas/Audoi, which names no message or schema that becomes Swift in any document of the run; write it as a `$ref` from the document would be, such as `#/components/schemas/Name`"
      ])

    // A name given twice is an error at the config's line.
    try folder.write(
      "twice/eventgen-config.yaml",
      "schemas: [../target/media.asyncapi.yaml]\nnames:\n  \"#/components/schemas/Audio\": AudioReceived\n"
        + "  \"#/components/messages/audio\": AudioReceived\n")
    let (twice, _) = try GeneratorConfig.load(folder.path + "/twice/eventgen-config.yaml")
    let refused = try Pipeline.plan(
      try #require(twice).inputs([]), renderer: SwiftSources(), referenceRoot: ReferenceRoot(folder.path),
      names: try #require(twice?.names))
    #expect(refused.files == nil)
    #expect(
      refused.diagnostics.map(\.description).contains {
        $0.hasPrefix(
          "\(folder.path)/twice/eventgen-config.yaml:3:33: error: the name that `names` in eventgen-config.yaml "
            + "gives `AudioReceived` of schema `Audio` at ")
          && $0.hasSuffix("is taken: message `audio` at \(folder.path)/target/media.asyncapi.yaml:10:5 has it")
      }, "\(refused.diagnostics.map(\.description))")

    try folder.write("bad/eventgen-config.yaml", "names:\n  Audio: AudioClip\n")
    let (bad, errors) = try GeneratorConfig.load(folder.path + "/bad/eventgen-config.yaml")
    #expect(bad == nil)
    #expect(
      errors.map(\.description) == [
        "\(folder.path)/bad/eventgen-config.yaml:2:3: error: each key of `names` is written as a `$ref` from the document would be, with a JSON pointer: `#/components/schemas/Audio`"
      ])
  }

  @Test func theNotificationMessageOptionMakesEventsTypedMessages() throws {
    let folder = try TemporaryFolder()
    try folder.write("A.events.yaml", schema)
    for (kind, conformance) in [(NotificationMessage.mainActor, "MainActorMessage"), (.async, "AsyncMessage")] {
      let options = GeneratorOptions(notificationMessage: kind)
      let files = try #require(
        try Pipeline.plan([folder.path + "/A.events.yaml"], renderer: SwiftSources(options: options)).files)
      let extensions = files[0].contents
      #expect(
        extensions.contains("#if compiler(>=6.2)\n@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)\n"))
      #expect(extensions.contains("nonisolated extension Ping: Foundation.NotificationCenter.\(conformance) {"))
      #expect(
        extensions.contains("public import Foundation\n"), "makeMessage(_:) names Notification in a public signature")
    }
    let plain = try #require(try Pipeline.plan([folder.path + "/A.events.yaml"], renderer: SwiftSources()).files)
    #expect(!plain[0].contents.contains("NotificationCenter"))
  }

  @Test func theSecondFileOfAnOlderEventgenIsReportedAndRemoved() throws {
    let folder = try TemporaryFolder()
    try folder.write("A.events.yaml", schema)
    let old = "// Generated by eventgen from A.events.yaml. Do not edit: change the schema and generate again.\n"
    try folder.write("out/A.events+Extensions.swift", old)
    let files = try #require(try Pipeline.plan([folder.path + "/A.events.yaml"], renderer: SwiftSources()).files)
    let problems = try OutputWriter.check(files, against: .folder(folder.path + "/out"))
    #expect(
      problems.contains(
        "\(folder.path)/out/A.events+Extensions.swift: generated earlier, but nothing generates it now (its schema is gone, or an older eventgen wrote it); generate again to remove it\n"
      ))
    let summary = try OutputWriter.write(files, to: .folder(folder.path + "/out"))
    #expect(summary.removed == ["A.events+Extensions.swift"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/out") == ["A.events.swift"])
  }

  @Test func staleGeneratedFilesAreRemovedButForeignFilesStopTheRun() throws {
    let folder = try TemporaryFolder()
    try folder.write("A.events.yaml", schema)
    try folder.write("B.events.yaml", schema.replacingOccurrences(of: "Ping", with: "Pong"))
    let both = try #require(try Pipeline.plan([folder.path], renderer: SwiftSources()).files)
    _ = try OutputWriter.write(both, to: .folder(folder.path + "/out"))
    try FileManager.default.removeItem(atPath: folder.path + "/B.events.yaml")
    let one = try #require(try Pipeline.plan([folder.path + "/A.events.yaml"], renderer: SwiftSources()).files)
    let summary = try OutputWriter.write(one, to: .folder(folder.path + "/out"))
    #expect(summary.removed == ["B.events.swift"])

    try folder.write("out/Mine.swift", "struct Mine {}\n")
    #expect(throws: InputError.self) { try OutputWriter.write(one, to: .folder(folder.path + "/out")) }
    _ = try OutputWriter.write(one, to: .folder(folder.path + "/out"), force: true)
    #expect(try folder.read("out/Mine.swift") == "struct Mine {}\n")
  }

  @Test func checkReportsADiffAndWritesNothing() throws {
    let folder = try TemporaryFolder()
    try folder.write("A.events.yaml", schema)
    let files = try #require(try Pipeline.plan([folder.path + "/A.events.yaml"], renderer: SwiftSources()).files)
    #expect(try OutputWriter.check(files, against: .folder(folder.path + "/out")).count == 1)
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/out"))
    _ = try OutputWriter.write(files, to: .folder(folder.path + "/out"))
    #expect(try OutputWriter.check(files, against: .folder(folder.path + "/out")).isEmpty)

    try folder.write("A.events.yaml", schema + "      label: String\n")
    let changed = try #require(try Pipeline.plan([folder.path + "/A.events.yaml"], renderer: SwiftSources()).files)
    let problems = try OutputWriter.check(changed, against: .folder(folder.path + "/out"))
    #expect(problems.count == 1, "the schema's one file changed")
    let diff = try #require(problems.first)
    #expect(diff.hasPrefix("--- \(folder.path)/out/A.events.swift\n+++ \(folder.path)/out/A.events.swift\n@@ "))
    #expect(diff.contains("\n+  public let label: Swift.String\n"))
  }

  @Test func schemaErrorsWriteNothing() throws {
    let folder = try TemporaryFolder()
    try folder.write("A.events.yaml", "events:\n  Ping:\n    fields:\n      count: Itn\n")
    let plan = try Pipeline.plan([folder.path], renderer: SwiftSources())
    #expect(plan.files == nil)
    #expect(
      plan.diagnostics.map(\.description) == [
        "\(folder.path)/A.events.yaml:4:14: error: unknown type `Itn`; did you mean `Int`?"
      ])
  }

  @Test func inputProblemsAreInputErrors() throws {
    let folder = try TemporaryFolder()
    #expect(throws: InputError("\(folder.path)/missing.events.yaml: no such file or directory")) {
      try Pipeline.plan([folder.path + "/missing.events.yaml"], renderer: SwiftSources())
    }
    #expect(throws: InputError.self) { try Pipeline.plan([folder.path], renderer: SwiftSources()) }
    // Two valid schemas whose Swift files would have one name.
    try folder.write("a/X.events.yaml", schema)
    try folder.write("b/X.events.yaml", "namespace: U\nevents:\n  Pong:\n    fields:\n      count: Int\n")
    #expect(
      throws: InputError(
        "\(folder.path)/b/X.events.yaml: generates X.events.swift, as \(folder.path)/a/X.events.yaml does; rename one of them"
      )
    ) { try Pipeline.plan([folder.path], renderer: SwiftSources()) }
  }
}
