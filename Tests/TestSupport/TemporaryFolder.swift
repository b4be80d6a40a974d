import Foundation

/// A fresh temporary folder, removed when the test ends.
public final class TemporaryFolder {
  /// The folder.
  public let url: URL
  /// The folder's path.
  public var path: String { url.path }

  /// Creates an empty folder under the temporary directory.
  public init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("typedevents-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// Writes `text` to the file `name` in the folder, creating folders on its path.
  public func write(_ name: String, _ text: String) throws {
    let target = url.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: target)
  }

  /// The text of the file `name` in the folder.
  public func read(_ name: String) throws -> String {
    String(decoding: try Data(contentsOf: url.appendingPathComponent(name)), as: UTF8.self)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }
}
