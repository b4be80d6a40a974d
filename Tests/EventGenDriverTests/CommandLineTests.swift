import EventCodegen
import Foundation
import TestSupport
import Testing

/// Runs the eventgen binary in `folder`; its exit status, standard output and standard error.
func runEventgen(_ arguments: [String], in folder: String) async throws -> ChildProcessResult {
  try await runChildProcess(try eventgen(), arguments, in: URL(fileURLWithPath: folder))
}

/// `eventgen` as a user meets it: every command's help shows an example that works, the
/// version names the runtime contract the generated code needs, and a mistyped command or
/// option is answered with the closest one.
@Suite("eventgen on the command line")
struct CommandLineTests {
  static let commands = ["init", "generate", "check", "lint", "compat", "asyncapi", "json-schema", "openapi"]
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The example line under `Example:` in a help text.
  static func example(in help: String) -> String? {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    guard let index = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "Example:" }),
      index + 1 < lines.count
    else { return nil }
    return lines[index + 1].trimmingCharacters(in: .whitespaces)
  }

  @Test func everyCommandsHelpShowsAnExampleThatRuns() async throws {
    let folder = try TemporaryFolder()
    // What the examples name: the samples' schemas, and a released copy of them to compare with.
    for name in try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Schemas").path)
    where name.hasSuffix(".events.yaml") {
      let text = try String(contentsOf: Self.root.appendingPathComponent("Schemas/\(name)"), encoding: .utf8)
      try folder.write("Schemas/\(name)", text)
      try folder.write("released/Schemas/\(name)", text)
    }
    let rootHelp = try await runEventgen(["--help"], in: folder.path)
    #expect(Self.example(in: rootHelp.output)?.hasPrefix("eventgen ") == true, "\(rootHelp.output)")
    // In this order, each example leaves what the next one needs (generate before check).
    for command in Self.commands {
      let help = try await runEventgen([command, "--help"], in: folder.path)
      #expect(help.status == 0)
      let example = try #require(Self.example(in: help.output), "`eventgen \(command) --help` shows no example")
      let words = example.split(separator: " ").map(String.init)
      #expect(words.prefix(2) == ["eventgen", command])
      let run = try await runEventgen(Array(words.dropFirst()), in: folder.path)
      #expect(run.status == 0, "\(example): \(run.errors)")
      if command == "init" {
        // The dependency it prints names a release, not the --version text.
        #expect(
          run.output.range(of: #"from: "[0-9]+\.[0-9]+\.[0-9]+""#, options: .regularExpression) != nil,
          "\(run.output)")
      }
    }
  }

  @Test func theVersionNamesTheRuntimeContractOfTheGeneratedCode() async throws {
    let run = try await runEventgen(["--version"], in: FileManager.default.temporaryDirectory.path)
    let contract = "GeneratedCodeVersion_\(SwiftSourceRenderer.generatedCodeVersion)"
    #expect(run.status == 0)
    #expect(run.output.contains("TypedEvents.\(contract)"), "\(run.output)")
    // The runtime of this checkout declares exactly that protocol, so the two match.
    let runtime = try String(
      contentsOf: Self.root.appendingPathComponent("Sources/TypedEvents/Events/GeneratedCodeVersion.swift"),
      encoding: .utf8)
    #expect(runtime.contains("public protocol \(contract) {}"))
  }

  @Test func aMistypedCommandOrOptionSuggestsTheClosestOne() async throws {
    let folder = FileManager.default.temporaryDirectory.path
    let command = try await runEventgen(["generat", "Schemas"], in: folder)
    #expect(command.status == 2)
    #expect(
      command.errors.hasPrefix("Error: Unknown command 'generat'. Did you mean 'generate'?\n"), "\(command.errors)")
    let option = try await runEventgen(["generate", "Schemas", "--outptu", "Out"], in: folder)
    #expect(option.status == 2)
    #expect(option.errors.contains("Unknown option '--outptu'. Did you mean '--output'?"), "\(option.errors)")
  }
}
