import Foundation

/// The package root, found from this file's path.
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// `relative` to the package root.
public func path(_ relative: String) -> String {
  packageRoot.appendingPathComponent(relative).path
}

/// The eventgen that `swift test` built beside the test bundle.
public func eventgen() throws -> URL {
  let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  let binary = folder.appendingPathComponent("eventgen")
  guard FileManager.default.isExecutableFile(atPath: binary.path) else {
    throw MissingTool(description: "no eventgen beside \(CommandLine.arguments[0]); build it with `swift build`")
  }
  return binary
}

/// A tool a test runs is not where it should be.
public struct MissingTool: Error, CustomStringConvertible {
  public var description: String
}
