import ArgumentParser
import EventCodegen
import EventGenDriver
import Foundation

/// Options that `generate` and `check` share.
struct GenerationOptions: ParsableArguments {
  @Argument(help: "Schema files or folders that contain them (searched for *.events.yaml).")
  var inputs: [String]

  @Option(name: .shortAndLong, help: "The folder for the generated Swift files.")
  var output: String

  @Option(help: "The access level of generated declarations: public, package or internal.")
  var access: AccessLevel = .public

  var generatorOptions: GeneratorOptions { GeneratorOptions(accessLevel: access) }

  /// The plan, or exit 1 after printing the schema errors.
  func plan() throws -> Generator.Plan {
    let plan = try Generator.plan(inputs, options: generatorOptions)
    Output.print(plan.diagnostics)
    guard plan.files != nil else {
      let errors = plan.diagnostics.filter { $0.severity == .error }.count
      Output.error("\(errors) error\(errors == 1 ? "" : "s"); nothing was written")
      throw ExitCode(1)
    }
    return plan
  }
}

extension AccessLevel: ExpressibleByArgument {}

struct Generate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Generate Swift from schema files: one file per schema, plus the event catalog.",
    discussion: """
      Files are written atomically and only when their contents change. A file that an earlier \
      run generated for a schema that is gone is removed; files eventgen did not write are never \
      touched, and stop the run unless --force is given.
      """
  )

  @OptionGroup var options: GenerationOptions

  @Flag(help: "Write even though the output folder holds files eventgen did not generate.")
  var force = false

  func run() throws {
    let plan = try options.plan()
    let files = plan.files ?? []
    let summary = try Generator.write(files, to: options.output, force: force)
    var parts = ["\(summary.written.count) written", "\(summary.unchanged.count) unchanged"]
    if !summary.removed.isEmpty { parts.append("\(summary.removed.count) removed") }
    print("eventgen: \(plan.eventCount) events → \(options.output): \(parts.joined(separator: ", "))")
  }
}

struct Check: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Verify that generated sources are current; print a diff and exit 1 when stale.",
    discussion: "Writes nothing."
  )

  @OptionGroup var options: GenerationOptions

  func run() throws {
    let plan = try options.plan()
    let problems = try Generator.check(plan.files ?? [], against: options.output)
    guard problems.isEmpty else {
      print(problems.joined(separator: "\n"), terminator: "")
      let command = (["eventgen", "generate"] + options.inputs + ["--output", options.output]
        + (options.access == .public ? [] : ["--access", options.access.rawValue])).joined(separator: " ")
      Output.error("\(problems.count) generated file\(problems.count == 1 ? " is" : "s are") stale; run: \(command)")
      throw ExitCode(1)
    }
    print("eventgen: \(plan.files?.count ?? 0) generated files in \(options.output) are current")
  }
}
