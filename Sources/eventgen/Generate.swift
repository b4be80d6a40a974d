import ArgumentParser
import EventCodegen
import EventGenDriver
import EventSchema
import Foundation

/// Options that `generate` and `check` share.
struct GenerationOptions: ParsableArguments {
  @Argument(help: Output.inputsHelp) var inputs: [String] = []

  @OptionGroup var reading: ReadingOptions

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
    /// The config's `references`.
    var references: [String: String]
    /// The config's `typed-formats`.
    var typedFormats: Set<TypedFormat>
    /// The config's `names`.
    var names: [ConfiguredName]
  }

  func resolve() throws -> Resolved {
    let fileConfig = try Output.config(config)
    return Resolved(
      inputs: try fileConfig.inputs(inputs), output: try fileConfig.output(output),
      options: fileConfig.generatorOptions(access: access, notificationMessage: notificationMessage),
      references: fileConfig.references, typedFormats: fileConfig.typedFormats, names: fileConfig.names)
  }

  /// The files to write, or exit 1 after printing the schema errors.
  func plan(_ resolved: Resolved) throws -> (plan: Pipeline.Plan, files: [GeneratedFile]) {
    let plan = try Pipeline.plan(
      resolved.inputs, renderer: SwiftSources(options: resolved.options),
      referenceRoot: reading.referenceRoot.mapping(resolved.references),
      warningsAreErrors: reading.strict, typedFormats: resolved.typedFormats, names: resolved.names)
    return (plan, try Output.files(of: plan))
  }

  /// What `check` suggests to bring stale sources up to date: `generate` with these arguments.
  var generateCommand: String {
    Wording.rerun(
      "generate", inputs: inputs, config: config, output: output,
      options: [
        ("access", access?.rawValue), ("notification-message", notificationMessage?.rawValue), ("root", reading.root),
      ])
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
    let (plan, files) = try options.plan(resolved)
    let summary = try OutputWriter.write(files, to: .folder(resolved.output), force: force)
    // After writing: output generated into the target's own folder gives it its Swift files.
    Output.print(TargetFolders.warnings(forSchemas: plan.inputs.schemaFiles))
    var parts = ["\(summary.written.count) written", "\(summary.unchanged.count) unchanged"]
    if !summary.removed.isEmpty { parts.append("\(summary.removed.count) removed") }
    print("eventgen: \(Wording.count(plan.eventCount, "event")) → \(resolved.output): \(parts.joined(separator: ", "))")
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
    let (plan, files) = try options.plan(resolved)
    let problems = try OutputWriter.check(files, against: .folder(resolved.output))
    Output.print(TargetFolders.warnings(forSchemas: plan.inputs.schemaFiles))
    guard problems.isEmpty else {
      print(problems.joined(separator: "\n"), terminator: "")
      Output.error(
        "\(Wording.count(problems.count, "generated file is", plural: "generated files are")) stale; run: \(options.generateCommand)"
      )
      throw ExitCode(1)
    }
    print(
      "eventgen: \(Wording.count(files.count, "generated file is", plural: "generated files are")) current in \(resolved.output)"
    )
  }
}
