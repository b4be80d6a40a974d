import Foundation
import Testing

@testable import EventSchema

/// `$ref`s read files inside one folder tree only: an absolute path, or a path that climbs out
/// of the root, is refused where it is written, and the file it names is never opened.
@Suite("$ref stays inside the root")
struct ReferenceRootTests {
  /// The paths a load asked `readFile` for.
  final class Opened: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: [String] = []
    func append(_ path: String) { lock.withLock { paths.append(path) } }
    var all: [String] { lock.withLock { paths } }
  }

  static func document(referring reference: String) -> String {
    """
    asyncapi: 3.0.0
    info: {title: T, version: 1.0.0}
    channels:
      liked:
        messages:
          commentLiked: {$ref: '\(reference)'}
    """
  }

  /// Loads `services/backend/asyncapi.yaml`, relative to the root `/app`, referring to
  /// `reference`; the files it can read are `files`, by path.
  func load(_ reference: String, root: ReferenceRoot?, files: [String: String] = [:]) -> (SchemaLoadResult, [String]) {
    let opened = Opened()
    let result = SchemaLoader.load(
      [SchemaSource(path: "/app/services/backend/asyncapi.yaml", text: Self.document(referring: reference))],
      readFile: { path in
        opened.append(path)
        guard let text = files[path] else { throw SchemaLoader.ReadFailure(description: "\(path): missing") }
        return Array(text.utf8)
      }, referenceRoot: root)
    return (result, opened.all)
  }

  static let message = "commentLiked:\n  payload: {type: object, properties: {id: {type: string}}}\n"

  @Test func aSiblingFolderInsideTheRootIsRead() throws {
    let (result, opened) = load(
      "../common/messages.yaml#/commentLiked", root: ReferenceRoot("/app"),
      files: ["/app/services/common/messages.yaml": Self.message])
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
    #expect(result.schema?.files.first?.events.map(\.name) == ["CommentLiked"])
    #expect(opened == ["/app/services/common/messages.yaml"])
  }

  @Test func aPathThatClimbsOutOfTheRootIsRefusedUnopened() {
    let (result, opened) = load(
      "../../../etc/passwd", root: ReferenceRoot("/app"), files: ["/etc/passwd": Self.message])
    #expect(
      result.diagnostics.map(\.description) == [
        "/app/services/backend/asyncapi.yaml:6:28: error: `$ref` to ../../../etc/passwd leaves /app, the folder whose files eventgen reads; move the file into it, or give --root a folder that holds both"
      ])
    #expect(opened.isEmpty)
  }

  @Test(arguments: [nil, ReferenceRoot("/")])
  func anAbsolutePathIsRefusedUnopenedWhateverTheRoot(root: ReferenceRoot?) {
    let (result, opened) = load("/etc/passwd", root: root, files: ["/etc/passwd": Self.message])
    #expect(
      result.diagnostics.map(\.description) == [
        "/app/services/backend/asyncapi.yaml:6:28: error: `$ref` to the absolute path /etc/passwd is not read: refer to a file by its path relative to this document"
      ])
    #expect(opened.isEmpty)
  }

  @Test func aRootIsAbsoluteAndNormalisedAndHoldsWhatIsBelowIt() {
    let root = ReferenceRoot("/app/./services/../")
    #expect(root.path == "/app")
    #expect(root.contains("/app/a.yaml"))
    #expect(root.contains("/app/x/../b.yaml"))
    #expect(!root.contains("/application/a.yaml"))
    #expect(!root.contains("/app/../etc/passwd"))
    #expect(ReferenceRoot(".").path == FileManager.default.currentDirectoryPath)
  }

  @Test func aMappedURLIsReadFromItsLocalCopy() throws {
    let root = ReferenceRoot("/app").mapping(["https://example.com/schemas/": "/app/vendor/schemas"])
    let (result, opened) = load(
      "https://example.com/schemas/messages.yaml#/commentLiked", root: root,
      files: ["/app/vendor/schemas/messages.yaml": Self.message])
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
    #expect(result.schema?.files.first?.events.map(\.name) == ["CommentLiked"])
    #expect(opened == ["/app/vendor/schemas/messages.yaml"])
  }

  @Test func anUnmappedURLSaysHowToMapIt() {
    let (result, opened) = load("https://example.com/schemas/messages.yaml#/commentLiked", root: ReferenceRoot("/app"))
    #expect(
      result.diagnostics.map(\.description) == [
        "/app/services/backend/asyncapi.yaml:6:28: error: `$ref` to https://example.com/schemas/messages.yaml is not fetched: a build does not touch the network; save a copy in a folder of the package and map the URL's prefix to it in eventgen-config.yaml (`references: {\"https://example.com/schemas/\": vendor/schemas}`), or refer to the copy by a relative path"
      ])
    #expect(opened.isEmpty)
  }

  @Test func aURLMappedOutOfTheRootIsRefusedUnopened() {
    let root = ReferenceRoot("/app").mapping(["https://example.com/": "/etc"])
    let (result, opened) = load("https://example.com/passwd", root: root, files: ["/etc/passwd": Self.message])
    #expect(result.diagnostics.first?.message.contains("leaves /app") == true)
    #expect(opened.isEmpty)
  }
}
