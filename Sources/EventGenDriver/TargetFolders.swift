import EventSchema
import Foundation

/// Finds event schemas that SwiftPM will never hand to the build-tool plugin.
///
/// SwiftPM builds a target, and runs its plugins, only when the target's folder holds a Swift
/// source file; a folder of schemas alone is skipped with a warning about where sources belong,
/// and nothing is generated. SwiftPM cannot report this itself (the plugin never runs), so
/// `lint`, `generate`, `check` and the command plugin do.
///
/// A target folder is recognised by SwiftPM's convention: a folder directly inside `Sources/` or
/// `Tests/` of a folder that holds a `Package.swift`. Targets with a custom `path:` are not seen.
public enum TargetFolders {
  /// One warning per target folder that holds schemas from `schemaFiles` but no Swift file,
  /// located at its first schema.
  public static func warnings(forSchemas schemaFiles: [String], fileManager: FileManager = .default) -> [Diagnostic] {
    var firstSchema: [String: String] = [:]
    for schema in schemaFiles.sorted() {
      guard let target = targetFolder(of: schema, fileManager: fileManager), firstSchema[target] == nil else {
        continue
      }
      firstSchema[target] = schema
    }
    return firstSchema.keys.sorted().compactMap { target in
      guard let schema = firstSchema[target], !holdsSwiftFile(target, fileManager: fileManager) else { return nil }
      let folder = displayPath(target)
      let name = URL(fileURLWithPath: target).lastPathComponent
      return Diagnostic(
        .warning, at: SourceLocation(file: schema, line: 1, column: 1),
        "target folder `\(folder)` holds event schemas but no Swift file, so SwiftPM skips the target and the build-tool "
          + "plugin never runs; add a Swift file to it, such as `\(folder)/\(name).swift` holding `import TypedEvents` "
          + "(`eventgen init` writes one)")
    }
  }

  /// The target folder that contains `path`, if `path` is inside one.
  static func targetFolder(of path: String, fileManager: FileManager) -> String? {
    var folder = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
    while folder.pathComponents.count > 2 {
      let parent = folder.deletingLastPathComponent()
      if ["Sources", "Tests"].contains(parent.lastPathComponent),
        fileManager.fileExists(atPath: parent.deletingLastPathComponent().appendingPathComponent("Package.swift").path)
      {
        return folder.path
      }
      folder = parent
    }
    return nil
  }

  /// Whether `folder` or a folder inside it holds a `.swift` file, as SwiftPM counts sources
  /// (hidden folders are not searched).
  static func holdsSwiftFile(_ folder: String, fileManager: FileManager) -> Bool {
    guard
      let files = fileManager.enumerator(
        at: URL(fileURLWithPath: folder), includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
    else { return false }
    for case let file as URL in files where file.pathExtension == "swift" { return true }
    return false
  }

  /// `path` relative to the current folder when it is inside it, as a user typed it.
  public static func displayPath(_ path: String) -> String {
    let current = FileManager.default.currentDirectoryPath
    return path.hasPrefix(current + "/") ? String(path.dropFirst(current.count + 1)) : path
  }
}
