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

  func run() throws {
    let report = try Linter.lint(inputs)
    Output.print(report.diagnostics + TargetFolders.warnings(forSchemas: report.schemaFiles))
    guard !report.hasErrors else {
      let errors = report.diagnostics.filter { $0.severity == .error }.count
      Output.error(
        "\(errors) error\(errors == 1 ? "" : "s") in \(report.fileCount) schema file\(report.fileCount == 1 ? "" : "s")"
      )
      throw ExitCode(1)
    }
    print(
      "eventgen: \(report.fileCount) schema file\(report.fileCount == 1 ? "" : "s") OK, \(report.eventCount) event\(report.eventCount == 1 ? "" : "s")"
    )
  }
}
