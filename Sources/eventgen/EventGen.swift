import ArgumentParser
import EventCodegen
import EventGenDriver
import EventSchema
import Foundation

/// `eventgen`: generates typed Swift events from YAML event schemas.
@main
struct EventGen: ParsableCommand {
  /// The package's release, which `eventgen init` puts in the dependency it prints.
  static let packageVersion = "0.1.0"

  static let configuration = CommandConfiguration(
    commandName: "eventgen",
    abstract: "Generate typed Swift events from YAML event schemas.",
    discussion: """
      Exit status: 0 on success, 1 when a schema has errors (or generated sources are stale), \
      2 on usage or I/O errors.

      Example:
        eventgen generate Schemas --output Sources/AppEvents/Generated
      """,
    version:
      "eventgen \(packageVersion), generating code for TypedEvents.GeneratedCodeVersion_\(SwiftSourceRenderer.generatedCodeVersion)",
    subcommands: [
      Init.self, Generate.self, Check.self, Lint.self, Compat.self, AsyncAPI.self, JSONSchema.self, OpenAPI.self,
    ]
  )

  /// Exit codes: argument-parser's usage errors map to 2, schema errors to 1.
  static func main() {
    suggestACommandForAnUnknownOne()
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch let code as ExitCode {
      Foundation.exit(code.rawValue)
    } catch let error as InputError {
      FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
      Foundation.exit(2)
    } catch {
      let code = exitCode(for: error)
      guard code != .success else { exit(withError: error) }  // --help and --version print and exit 0.
      FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
      Foundation.exit(2)
    }
  }

  /// An unknown first word, such as `generat`, exits 2 naming the closest command; argument
  /// parser would only call it an unexpected argument.
  static func suggestACommandForAnUnknownOne() {
    guard let word = CommandLine.arguments.dropFirst().first, !word.hasPrefix("-") else { return }
    let names = configuration.subcommands.map { $0._commandName } + ["help"]
    guard !names.contains(word) else { return }
    let hint = Suggestions.closest(to: word, among: names).map { " Did you mean '\($0)'?" } ?? ""
    FileHandle.standardError.write(
      Data(
        "Error: Unknown command '\(word)'.\(hint)\nUsage: \(usageString())\n  See 'eventgen --help' for more information.\n"
          .utf8))
    Foundation.exit(2)
  }
}
