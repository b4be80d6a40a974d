import Foundation
import PackagePlugin

/// The build-tool plugin: a target that contains `*.events.yaml` files or AsyncAPI documents
/// (`*.asyncapi.yaml`, `.yml`, `.json`) and lists this plugin gets their generated Swift at
/// build time, nothing checked in.
///
/// Outputs are declared from the input paths alone (through `SchemaFileNames`, the same file the
/// `eventgen` tool compiles), and the tool is an input: a no-change build runs nothing, an edit
/// to a schema regenerates, and so does a new `eventgen`.
@main
struct EventGenPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let schemas = target.sourceFiles
      .filter { SchemaFileNames.isInput($0.url.lastPathComponent) }
      .map(\.url)
      .sorted { $0.path < $1.path }
    guard !schemas.isEmpty else { return [] }
    let config = target.directoryURL.appending(path: "eventgen-config.yaml")
    let hasConfig = FileManager.default.fileExists(atPath: config.path)
    return [
      try command(
        tool: context.tool(named: "eventgen"), schemas: schemas, config: hasConfig ? config : nil,
        output: context.pluginWorkDirectoryURL.appending(path: "GeneratedSources"), targetName: target.name,
        root: context.package.directoryURL)
    ]
  }

  /// `eventgen generate` of `schemas` into `output`; `$ref`s are read inside `root`, the package's
  /// (or the project's) folder.
  func command(
    tool: PluginContext.Tool, schemas: [URL], config: URL?, output: URL, targetName: String, root: URL
  ) -> Command {
    let outputs = schemas.map { output.appending(path: SchemaFileNames.swiftFileName(forSchemaAt: $0.path)) }
    var arguments = ["generate"] + schemas.map(\.path) + ["--output", output.path, "--root", root.path]
    if let config { arguments += ["--config", config.path] }
    return .buildCommand(
      displayName: "Generating events from \(schemas.count) schema\(schemas.count == 1 ? "" : "s") for \(targetName)",
      executable: tool.url,
      arguments: arguments,
      inputFiles: schemas + [tool.url] + (config.map { [$0] } ?? []),
      outputFiles: outputs)
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension EventGenPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
      let schemas = target.inputFiles
        .filter { SchemaFileNames.isInput($0.url.lastPathComponent) }
        .map(\.url)
        .sorted { $0.path < $1.path }
      guard !schemas.isEmpty else { return [] }
      let config = target.inputFiles.first { $0.url.lastPathComponent == "eventgen-config.yaml" }?.url
      return [
        try command(
          tool: context.tool(named: "eventgen"), schemas: schemas, config: config,
          output: context.pluginWorkDirectoryURL.appending(path: "GeneratedSources"), targetName: target.displayName,
          root: context.xcodeProject.directoryURL)
      ]
    }
  }
#endif
