import ArgumentParser
import EventGenDriver
import EventSchema
import SchemaEvolution

extension CompatibilityMode: ExpressibleByArgument {}

struct Compat: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Report the changes between two versions of a schema set that break older or newer apps.",
    discussion: """
      backward (the default): apps on the new schema must read what the old one wrote. \
      forward: apps on the old schema must read what the new one writes. full: both. \
      none: only the version rule. Whatever the mode, a file with a breaking change must raise \
      its `version`, and no file may lower it. Exit status 1 when anything breaks.

      Example:
        eventgen compat released/Schemas Schemas --mode full
      """
  )

  @Argument(help: "The old schemas: a schema file, an AsyncAPI document, or a folder that contains them.")
  var old: String

  @Argument(help: "The new schemas: a schema file, an AsyncAPI document, or a folder that contains them.")
  var new: String

  @Option(help: "Which readers must keep working: backward, forward, full or none.")
  var mode: CompatibilityMode = .backward

  @Flag(help: "Also print the changes that break nothing in this mode, as notes.")
  var verbose = false

  @OptionGroup var reading: ReadingOptions

  func run() throws {
    let report = try CompatibilityRun.check(
      old: [old], new: [new], mode: mode, referenceRoot: reading.referenceRoot, warningsAreErrors: reading.strict)
    Output.print(verbose ? report.diagnostics : report.diagnostics.filter { $0.severity != .note })
    let errors = report.diagnostics.filter { $0.severity == .error }.count
    let safe = report.diagnostics.filter { $0.severity == .note }.count
    guard errors == 0 else {
      Output.error(
        "\(Wording.count(errors, "error")) (\(mode.rawValue) compatibility), \(Wording.count(safe, "other change"))")
      throw ExitCode(1)
    }
    print("eventgen: compatible (\(mode.rawValue)): \(Wording.count(safe, "change")), none breaking")
  }
}
