import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-events [--target T …] [--check]`:
/// regenerates checked-in sources, or with `--check` reports stale ones and fails without writing.
///
/// A target takes part when its folder holds `*.events.yaml` files (generated into its
/// `Generated/` folder) or an `eventgen-config.yaml` whose `schemas` and `output` say where.
@main
struct GenerateEventsCommand: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let requested = extractor.extractOption(named: "target")
    let check = extractor.extractFlag(named: "check") > 0
    guard extractor.remainingArguments.isEmpty else {
      throw CommandError("unexpected arguments: \(extractor.remainingArguments.joined(separator: " ")); use [--target NAME …] [--check]")
    }
    let targets = try requested.isEmpty ? context.package.targets : context.package.targets(named: requested)
    let tool = try context.tool(named: "eventgen")
    var ran = 0
    var failed: [String] = []
    for case let target as SourceModuleTarget in targets {
      guard let arguments = invocation(for: target, check: check) else {
        if requested.contains(target.name) {
          throw CommandError("target \(target.name) has no *.events.yaml files and no eventgen-config.yaml")
        }
        continue
      }
      ran += 1
      let process = Process()
      process.executableURL = tool.url
      process.arguments = arguments
      try process.run()
      process.waitUntilExit()
      if process.terminationStatus != 0 { failed.append(target.name) }
    }
    guard ran > 0 else { throw CommandError("no target has *.events.yaml files or an eventgen-config.yaml") }
    guard failed.isEmpty else {
      throw CommandError(check ? "stale generated sources in \(failed.joined(separator: ", "))" : "generation failed for \(failed.joined(separator: ", "))")
    }
  }

  /// The `eventgen` arguments for `target`, or nil when it does not use events.
  private func invocation(for target: SourceModuleTarget, check: Bool) -> [String]? {
    let verb = check ? "check" : "generate"
    let config = target.directoryURL.appending(path: "eventgen-config.yaml")
    if FileManager.default.fileExists(atPath: config.path) {
      return [verb, "--config", config.path]
    }
    let schemas = target.sourceFiles.filter { $0.url.lastPathComponent.hasSuffix(".events.yaml") }.map(\.url.path).sorted()
    guard !schemas.isEmpty else { return nil }
    return [verb] + schemas + ["--output", target.directoryURL.appending(path: "Generated").path]
  }
}

struct CommandError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
