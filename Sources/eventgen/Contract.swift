import ArgumentParser
import ContractExport
import EventGenDriver
import Foundation

/// Options that `asyncapi` and `json-schema` share.
struct ContractOptions: ParsableArguments {
  @Argument(
    help:
      "Schema files or AsyncAPI documents, or folders that contain them (searched for *.events.yaml, *.asyncapi.yaml, .yml and .json)."
  )
  var inputs: [String] = []

  @Option(name: .shortAndLong, help: "The document to write.")
  var output: String

  @Option(help: "The document's title (default: the namespaces, then `events`).")
  var title: String?

  @Option(help: "An eventgen-config.yaml whose `schemas` to export when no inputs are given.")
  var config: String?

  @Flag(help: "Write nothing: print a diff and exit 1 when the document on disk is missing or differs.")
  var check = false

  /// Writes or checks the document in `format`; `extra` are the arguments that only this
  /// format takes, for the command that the stale message suggests.
  func run(_ format: ContractFormat, version: String? = nil, extra: [String] = []) throws {
    let inputs = try resolvedInputs()
    let plan = try ContractRun.plan(inputs, format: format, title: title, version: version)
    Output.print(plan.diagnostics)
    guard let document = plan.document else {
      let errors = plan.diagnostics.filter { $0.severity == .error }.count
      Output.error("\(errors) error\(errors == 1 ? "" : "s"); nothing was written")
      throw ExitCode(1)
    }
    guard check else {
      let written = try ContractRun.write(document, to: output)
      print("eventgen: \(plan.eventCount) events → \(output): \(written ? "written" : "unchanged")")
      return
    }
    guard let diff = try ContractRun.check(document, against: output) else {
      print("eventgen: \(output) is current")
      return
    }
    print(diff, terminator: "")
    let sources = self.inputs.isEmpty ? (config.map { ["--config", $0] } ?? []) : self.inputs
    let command =
      (["eventgen", format.rawValue] + sources + ["--output", output] + (title.map { ["--title", $0] } ?? []) + extra)
      .joined(separator: " ")
    Output.error("\(output) is stale; run: \(command)")
    throw ExitCode(1)
  }

  private func resolvedInputs() throws -> [String] {
    guard inputs.isEmpty else { return inputs }
    guard let config else {
      throw ValidationError("Give schema files or folders, or a --config that lists `schemas`.")
    }
    let (loaded, diagnostics) = try GeneratorConfig.load(config)
    Output.print(diagnostics)
    guard let loaded else { throw ExitCode(1) }
    guard !loaded.schemas.isEmpty else { throw ValidationError("\(config) lists no `schemas`.") }
    return loaded.schemas
  }
}

struct AsyncAPI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "asyncapi",
    abstract: "Export the schemas as an AsyncAPI 3.0.0 document (JSON): a channel per namespace, a message per event.",
    discussion: """
      The payload schemas say exactly what the generated Codable writes and reads. The file is \
      written atomically and only when it changes; a file eventgen did not write is never \
      overwritten. With --check nothing is written: a stale document prints a diff and exits 1.

      Example:
        eventgen asyncapi Schemas --output contract/events.asyncapi.json
      """
  )

  @OptionGroup var options: ContractOptions

  @Option(help: "The document's version (default: <highest schema version>.0.0).")
  var version: String?

  func run() throws {
    try options.run(.asyncAPI, version: version, extra: version.map { ["--version", $0] } ?? [])
  }
}

struct JSONSchema: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "json-schema",
    abstract:
      "Export the payload schemas as one JSON Schema (draft 2020-12) document, one $defs entry per event and type.",
    discussion: """
      An event's payload schema is {"$ref": "<file>#/$defs/<EventName>"}. Written and checked \
      as asyncapi is.

      Example:
        eventgen json-schema Schemas --output contract/events.schema.json
      """
  )

  @OptionGroup var options: ContractOptions

  func run() throws {
    try options.run(.jsonSchema)
  }
}
