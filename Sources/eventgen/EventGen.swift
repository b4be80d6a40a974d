import ArgumentParser
import EventGenDriver
import Foundation

/// `eventgen`: generates typed Swift events from YAML event schemas.
@main
struct EventGen: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "eventgen",
    abstract: "Generate typed Swift events from YAML event schemas.",
    discussion: """
      Exit status: 0 on success, 1 when a schema has errors (or generated sources are stale), \
      2 on usage or I/O errors.
      """,
    version: "0.1.0",
    subcommands: [Init.self, Generate.self, Check.self, Lint.self, Compat.self, AsyncAPI.self, JSONSchema.self]
  )

  /// Exit codes: argument-parser's usage errors map to 2, schema errors to 1.
  static func main() {
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
}
