import ArgumentParser
import EventCodegen
import EventGenDriver
import Foundation

/// Options that `generate` and `check` share.
struct GenerationOptions: ParsableArguments {
  @Argument(
    help:
      "Schema files or AsyncAPI documents, or folders that contain them (searched for *.events.yaml, *.asyncapi.yaml, .yml and .json)."
  )
  var inputs: [String] = []

  @Option(name: .shortAndLong, help: "The folder for the generated Swift files.")
  var output: String?

  @Option(help: "The access level of generated declarations: public (default), package or internal.")
  var access: AccessLevel?

  @Option(
    help: ArgumentHelp(
      "Make every event one of Foundation's typed notifications: main-actor (NotificationCenter.MainActorMessage) or async (AsyncMessage).",
      valueName: "kind"))
  var notificationMessage: NotificationMessage?

  @Option(
    help:
      "An eventgen-config.yaml with `access`, `notification-message`, `schemas` and `output`; options given here win.")
  var config: String?

  /// Inputs, output and generator options, from the arguments and the config file.
  struct Resolved {
    var inputs: [String]
    var output: String
    var options: GeneratorOptions
  }

  func resolve() throws -> Resolved {
    var fileConfig = GeneratorConfig()
    if let config {
      let (loaded, diagnostics) = try GeneratorConfig.load(config)
      Output.print(diagnostics)
      guard let loaded else { throw ExitCode(1) }
      fileConfig = loaded
    }
    let inputs = self.inputs.isEmpty ? fileConfig.schemas : self.inputs
    guard !inputs.isEmpty else {
      throw ValidationError("Give schema files or folders, or a --config that lists `schemas`.")
    }
    guard let output = output ?? fileConfig.output else {
      throw ValidationError("Give --output, or a --config that sets `output`.")
    }
    return Resolved(
      inputs: inputs, output: output,
      options: GeneratorOptions(
        accessLevel: access ?? fileConfig.accessLevel ?? .public,
        notificationMessage: notificationMessage ?? fileConfig.notificationMessage))
  }

  /// The plan, or exit 1 after printing the schema errors.
  func plan(_ resolved: Resolved) throws -> Generator.Plan {
    let plan = try Generator.plan(resolved.inputs, options: resolved.options)
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
extension NotificationMessage: ExpressibleByArgument {}

struct Generate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Generate Swift from schema files: one file per schema, the first also holding the catalog.",
    discussion: """
      Files are written atomically (a temporary file, flushed, then renamed), so a killed run \
      leaves each file old or new, never half written; and only when their contents change, so \
      unchanged files keep their modification time. A file that an earlier run generated for a \
      schema that is gone is removed. Files eventgen did not write are never changed or removed: \
      they stop the run unless --force is given, and one named like a file to generate stops it \
      even then.

      Example:
        eventgen generate Schemas --output Sources/AppEvents/Generated
      """
  )

  @OptionGroup var options: GenerationOptions

  @Flag(help: "Write even though the output folder holds files eventgen did not generate.")
  var force = false

  func run() throws {
    let resolved = try options.resolve()
    let plan = try options.plan(resolved)
    let summary = try Generator.write(plan.files ?? [], to: resolved.output, force: force)
    // After writing: output generated into the target's own folder gives it its Swift files.
    Output.print(TargetFolders.warnings(forSchemas: plan.schemaFiles))
    var parts = ["\(summary.written.count) written", "\(summary.unchanged.count) unchanged"]
    if !summary.removed.isEmpty { parts.append("\(summary.removed.count) removed") }
    print("eventgen: \(plan.eventCount) events → \(resolved.output): \(parts.joined(separator: ", "))")
  }
}

struct Check: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Verify that generated sources are current; print a diff and exit 1 when stale.",
    discussion: """
      Writes nothing.

      Example:
        eventgen check Schemas --output Sources/AppEvents/Generated
      """
  )

  @OptionGroup var options: GenerationOptions

  func run() throws {
    let resolved = try options.resolve()
    let plan = try options.plan(resolved)
    let problems = try Generator.check(plan.files ?? [], against: resolved.output)
    Output.print(TargetFolders.warnings(forSchemas: plan.schemaFiles))
    guard problems.isEmpty else {
      print(problems.joined(separator: "\n"), terminator: "")
      let arguments = options.config.map { ["--config", $0] } ?? []
      let command =
        (["eventgen", "generate"] + options.inputs + (options.output.map { ["--output", $0] } ?? []) + arguments
        + (options.access.map { ["--access", $0.rawValue] } ?? [])
        + (options.notificationMessage.map { ["--notification-message", $0.rawValue] } ?? [])).joined(separator: " ")
      Output.error("\(problems.count) generated file\(problems.count == 1 ? " is" : "s are") stale; run: \(command)")
      throw ExitCode(1)
    }
    print("eventgen: \(plan.files?.count ?? 0) generated files in \(resolved.output) are current")
  }
}
