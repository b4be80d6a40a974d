import ArgumentParser
import ContractExport
import EventGenDriver
import Foundation

/// Options that `asyncapi` and `json-schema` share.
struct ContractOptions: ParsableArguments {
  @Argument(help: Output.inputsHelp) var inputs: [String] = []

  @OptionGroup var reading: ReadingOptions

  @Option(name: .shortAndLong, help: "The document to write.")
  var output: String

  @Option(help: "The document's title (default: the namespaces, then `events`).")
  var title: String?

  @Option(help: "An eventgen-config.yaml whose `schemas` to export when no inputs are given.")
  var config: String?

  @Flag(help: "Write nothing: print a diff and exit 1 when the document on disk is missing or differs.")
  var check = false

  /// Writes or checks the document that `renderer` renders; `extra` are the options that only
  /// this format takes, for the command that the stale message suggests.
  func run(_ renderer: ContractDocument, extra: [(name: String, value: String?)] = []) throws {
    // The config names the schemas when no inputs are given, and the URLs read from local copies.
    let fileConfig = try Output.config(config)
    let inputs = self.inputs.isEmpty ? try fileConfig.inputs([]) : self.inputs
    let plan = try Pipeline.plan(
      inputs, renderer: renderer, referenceRoot: reading.referenceRoot.mapping(fileConfig.references),
      warningsAreErrors: reading.strict, typedFormats: fileConfig.typedFormats, names: fileConfig.names)
    let files = try Output.files(of: plan)
    guard check else {
      let summary = try OutputWriter.write(files, to: .file(output))
      print(
        "eventgen: \(Wording.count(plan.eventCount, "event")) → \(output): \(summary.written.isEmpty ? "unchanged" : "written")"
      )
      return
    }
    let problems = try OutputWriter.check(files, against: .file(output))
    guard !problems.isEmpty else {
      print("eventgen: \(output) is current")
      return
    }
    print(problems.joined(separator: "\n"), terminator: "")
    let command = Wording.rerun(
      renderer.format.rawValue, inputs: self.inputs, config: config, output: output,
      options: [("title", title), ("root", reading.root)] + extra)
    Output.error("\(output) is stale; run: \(command)")
    throw ExitCode(1)
  }
}

struct AsyncAPI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "asyncapi",
    abstract:
      "Export the schemas as an AsyncAPI 3.0.0 document (YAML for an output ending in .yaml or .yml, else JSON): a channel per namespace, a message per event.",
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
    try options.run(
      ContractDocument(
        format: .asyncAPI, syntax: ContractSyntax(path: options.output), title: options.title, version: version),
      extra: [("version", version)])
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
    try options.run(
      ContractDocument(format: .jsonSchema, syntax: ContractSyntax(path: options.output), title: options.title))
  }
}

struct OpenAPI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "openapi",
    abstract:
      "Export the OpenAPI 3.1.0 description of the HTTP endpoint (TypedEventsHTTPServer's EventsEndpoint) that serves the events.",
    discussion: """
      GET reads a page or a stream of Server-Sent Events, HEAD checks, POST appends structured, \
      batch or binary CloudEvents; every refusal is a problem document. The payload schemas are \
      asyncapi's. Written and checked as asyncapi is.

      Example:
        eventgen openapi Schemas --output contract/events.openapi.json
      """
  )

  @OptionGroup var options: ContractOptions

  @Option(help: "The document's version (default: <highest schema version>.0.0).")
  var version: String?

  @Option(help: "The path the endpoint is mounted at.")
  var path = "/events"

  func run() throws {
    try options.run(
      ContractDocument(
        format: .openAPI, syntax: ContractSyntax(path: options.output), title: options.title, version: version,
        path: path),
      extra: [("version", version), ("path", path == "/events" ? nil : path)])
  }
}
