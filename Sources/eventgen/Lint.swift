import ArgumentParser
import EventGenDriver
import Foundation

struct Lint: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Check schema files and report every error as path:line:column.",
    discussion: """
      Folders are searched recursively for *.events.yaml files and AsyncAPI documents \
      (*.asyncapi.yaml, .yml and .json).

      Example:
        eventgen lint Schemas
      """
  )

  @Argument(help: "Schema files or AsyncAPI documents, or folders that contain them.")
  var inputs: [String]

  @OptionGroup var reading: ReadingOptions

  func run() throws {
    let report = try FrontEnd.load(inputs, referenceRoot: reading.referenceRoot, warningsAreErrors: reading.strict)
    Output.print(report.diagnostics + TargetFolders.warnings(forSchemas: report.schemaFiles))
    let files = Wording.count(report.schemaFiles.count, "schema file")
    guard !report.hasErrors else {
      Output.error("\(Wording.count(report.errorCount, "error")) in \(files)")
      throw ExitCode(1)
    }
    print("eventgen: \(files) OK, \(Wording.count(report.eventCount, "event"))")
  }
}
