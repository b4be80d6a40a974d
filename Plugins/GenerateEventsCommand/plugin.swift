import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-events [--target T …] [--check]`:
/// regenerates checked-in sources, or with `--check` reports stale ones and fails without writing.
/// `generate-events --init NAME` starts a target of events in `Sources/NAME` (`eventgen init`).
/// `generate-events --asyncapi PATH [--json-schema PATH] [--target T] [--check]` exports the
/// contract of the one target with events (or the one named) with `eventgen asyncapi` and
/// `eventgen json-schema`, to paths relative to the package; `--check` verifies it instead.
///
/// A target's sources are checked in when its folder has a `Generated/` folder, or when it is
/// named with `--target` (which creates that folder). Other targets with schemas are left to
/// the build-tool plugin: a command plugin cannot see which plugins a target lists, and
/// generating a build-plugin target's Swift into its folder would declare everything twice.
///
/// With an `eventgen-config.yaml`, the config says where the schemas are and where output goes
/// (a target whose output folder is not `Generated/` is named with `--target`); without one,
/// the target's own `*.events.yaml` files are generated into `Generated/`.
@main
struct GenerateEventsCommand: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let requested = extractor.extractOption(named: "target")
    let check = extractor.extractFlag(named: "check") > 0
    let starts = extractor.extractOption(named: "init")
    let contract = [
      ("asyncapi", extractor.extractOption(named: "asyncapi")),
      ("json-schema", extractor.extractOption(named: "json-schema")),
    ].compactMap { verb, paths in paths.last.map { (verb: verb, path: $0) } }
    guard extractor.remainingArguments.isEmpty else {
      throw CommandError(
        "unexpected arguments: \(extractor.remainingArguments.joined(separator: " ")); use [--target NAME …] [--check], --asyncapi PATH [--json-schema PATH], or --init NAME"
      )
    }
    let tool = try context.tool(named: "eventgen")
    if !contract.isEmpty {
      try exportContract(context.package, tool: tool, documents: contract, targets: requested, check: check)
      return
    }
    if !starts.isEmpty {
      for name in starts {
        let folder = context.package.directoryURL.appending(path: "Sources").appending(path: name)
        guard try run(tool, ["init", folder.path]) else { throw CommandError("eventgen init \(name) failed") }
      }
      return
    }
    try warnAboutSkippedTargets(context.package, tool: tool)
    let targets = try requested.isEmpty ? context.package.targets : context.package.targets(named: requested)
    var ran = 0
    var failed: [String] = []
    for case let target as SourceModuleTarget in targets {
      let named = requested.contains(target.name)
      guard let arguments = invocation(for: target, check: check) else {
        if named {
          throw CommandError("target \(target.name) has no *.events.yaml files and no \(configName)")
        }
        continue
      }
      guard named || FileManager.default.fileExists(atPath: generatedFolder(of: target).path) else {
        print(
          "generate-events: skipping \(target.name): it has no Generated/ folder, so its schemas are left to the build-tool plugin (name it with --target to check its sources in)"
        )
        continue
      }
      ran += 1
      // `$ref`s of AsyncAPI documents are read inside the package only.
      if try !run(tool, arguments + ["--root", context.package.directoryURL.path]) { failed.append(target.name) }
    }
    guard ran > 0 else {
      throw CommandError(
        "no target has checked-in event sources: give one a Generated/ folder, or name it with --target")
    }
    guard failed.isEmpty else {
      throw CommandError(
        check
          ? "stale generated sources in \(failed.joined(separator: ", "))"
          : "generation failed for \(failed.joined(separator: ", "))")
    }
  }

  private let configName = "eventgen-config.yaml"

  /// Runs `eventgen`; whether it succeeded. Its output goes to the user.
  private func run(_ tool: PluginContext.Tool, _ arguments: [String]) throws -> Bool {
    let process = Process()
    process.executableURL = tool.url
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus == 0
  }

  /// SwiftPM skips a target folder that holds no Swift file, so the build-tool plugin never sees
  /// its schemas and no target lists them. `eventgen lint` on such a folder says so and names
  /// the fix (TargetFolders): run it on every folder of `Sources/` and `Tests/` with schemas
  /// that is not the folder of a target with Swift sources.
  private func warnAboutSkippedTargets(_ package: Package, tool: PluginContext.Tool) throws {
    let built = Set(
      package.targets.compactMap { $0 as? SourceModuleTarget }
        .filter { $0.sourceFiles.contains { $0.url.pathExtension == "swift" } }
        .map { $0.directoryURL.standardizedFileURL.path })
    for parent in ["Sources", "Tests"] {
      let folder = package.directoryURL.appending(path: parent)
      let children =
        (try? FileManager.default.contentsOfDirectory(
          at: folder, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])) ?? []
      for child in children.sorted(by: { $0.path < $1.path }) where !built.contains(child.standardizedFileURL.path) {
        let files = FileManager.default.enumerator(
          at: child, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        guard
          files?.contains(where: { ($0 as? URL).map { SchemaFileNames.isInput($0.lastPathComponent) } == true }) == true
        else { continue }
        _ = try run(tool, ["lint", child.path, "--root", package.directoryURL.path])
      }
    }
  }

  private func generatedFolder(of target: SourceModuleTarget) -> URL {
    target.directoryURL.appending(path: "Generated")
  }

  /// The `eventgen` arguments for `target`, or nil when it does not use events.
  private func invocation(for target: SourceModuleTarget, check: Bool) -> [String]? {
    guard let inputs = schemaInputs(of: target) else { return nil }
    let verb = check ? "check" : "generate"
    // Arguments win over the config's keys: with a config, the config alone decides.
    if inputs.first == "--config" { return [verb] + inputs }
    return [verb] + inputs + ["--output", generatedFolder(of: target).path]
  }

  /// Where `target`'s schemas are for eventgen: `--config` and its config, or the schema
  /// files; nil when it does not use events.
  private func schemaInputs(of target: SourceModuleTarget) -> [String]? {
    let config = target.directoryURL.appending(path: configName)
    if FileManager.default.fileExists(atPath: config.path) { return ["--config", config.path] }
    let schemas = target.sourceFiles.filter { SchemaFileNames.isInput($0.url.lastPathComponent) }.map(\.url.path)
      .sorted()
    return schemas.isEmpty ? nil : schemas
  }

  /// `eventgen asyncapi` and `eventgen json-schema` on the schemas of the one target with
  /// events among `names` (every target when empty): a contract is one schema set, and two
  /// targets may declare the same event names.
  private func exportContract(
    _ package: Package, tool: PluginContext.Tool, documents: [(verb: String, path: String)], targets names: [String],
    check: Bool
  ) throws {
    let candidates = try names.isEmpty ? package.targets : package.targets(named: names)
    let withEvents = candidates.compactMap { $0 as? SourceModuleTarget }.compactMap { target in
      schemaInputs(of: target).map { (name: target.name, inputs: $0) }
    }
    guard withEvents.count == 1, let target = withEvents.first else {
      throw CommandError(
        withEvents.isEmpty
          ? "no target has *.events.yaml files or an \(configName)"
          : "\(withEvents.map(\.name).joined(separator: ", ")) have events; name the one to export with --target")
    }
    for document in documents {
      let output =
        document.path.hasPrefix("/") ? document.path : package.directoryURL.appending(path: document.path).path
      let arguments =
        [document.verb] + target.inputs + ["--output", output, "--root", package.directoryURL.path]
        + (check ? ["--check"] : [])
      guard try run(tool, arguments) else {
        throw CommandError(
          check
            ? "the \(document.verb) document of \(target.name) is stale"
            : "exporting the \(document.verb) document of \(target.name) failed")
      }
    }
  }
}

struct CommandError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
