import EventSchema
import Foundation
import Testing

/// `../shared/asyncapi/spec-examples`, beside the checkout, if it is there.
let specExamplesFolder: String? = {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let path = root.deletingLastPathComponent().appendingPathComponent("shared/asyncapi/spec-examples").path
  return FileManager.default.fileExists(atPath: path) ? path : nil
}()

/// The AsyncAPI specification's own examples (`../shared/asyncapi/spec-examples`, read there,
/// not copied): each generates events, or is refused with located errors that name what the
/// event model cannot hold. `Scripts/asyncapi-examples` compiles the Swift of those that
/// generate, warnings as errors.
@Suite(
  "AsyncAPI input: the specification's examples",
  .enabled(if: specExamplesFolder != nil, "needs ../shared/asyncapi/spec-examples beside the checkout"))
struct AsyncAPISpecExamplesTests {
  static var folder: String? { specExamplesFolder }

  /// What each example gives: its number of events, or the construct its first error names.
  static let expected: [String: Outcome] = [
    "adeo-kafka-request-reply-asyncapi.yml": .events(0),
    "anyof-asyncapi.yml": .events(1),
    "application-headers-asyncapi.yml": .events(1),
    "correlation-id-asyncapi.yml": .events(2),
    "gitter-streaming-asyncapi.yml": .events(2),  // `heartbeat`'s payload is a string
    "kraken-websocket-request-reply-message-filter-in-reply-asyncapi.yml": .events(8),
    "kraken-websocket-request-reply-multiple-channels-asyncapi.yml": .events(8),
    "mercure-asyncapi.yml": .events(1),
    "not-asyncapi.yml": .events(1),
    "oneof-asyncapi.yml": .events(5),
    "operation-security-asyncapi.yml": .events(1),
    "rpc-client-asyncapi.yml": .events(2),
    "rpc-server-asyncapi.yml": .events(2),
    "simple-asyncapi.yml": .events(1),
    "slack-rtm-asyncapi.yml": .events(48),
    "streetlights-kafka-asyncapi.yml": .events(3),
    "streetlights-mqtt-asyncapi.yml": .events(3),
    "streetlights-operation-security-asyncapi.yml": .events(3),
    "websocket-gemini-asyncapi.yml": .events(1),
    "social-media/backend/asyncapi.yaml": .events(4),
    "social-media/comments-service/asyncapi.yaml": .events(2),
    "social-media/frontend/asyncapi.yaml": .events(2),
    "social-media/notification-service/asyncapi.yaml": .events(1),
    "social-media/public-api/asyncapi.yaml": .events(1),
  ]

  enum Outcome: Equatable, CustomStringConvertible {
    case events(Int)
    case refused(String)

    var description: String {
      switch self {
      case .events(let count): "\(count) events"
      case .refused(let construct): "refused: \(construct)"
      }
    }
  }

  @Test func everyExampleIsListed() throws {
    let folder = try #require(Self.folder)
    let found = try FileManager.default.subpathsOfDirectory(atPath: folder)
      .filter { path in
        guard path.hasSuffix(".yml") || path.hasSuffix(".yaml") else { return false }
        let text = (try? String(contentsOfFile: folder + "/" + path, encoding: .utf8)) ?? ""
        return text.hasPrefix("asyncapi:")
      }
    #expect(Set(found) == Set(Self.expected.keys))
  }

  @Test("each example generates events or is refused with a located error", arguments: expected.keys.sorted())
  func example(_ name: String) throws {
    let folder = try #require(Self.folder)
    let path = folder + "/" + name
    let result = SchemaLoader.load([SchemaSource(path: path, text: try String(contentsOfFile: path, encoding: .utf8))])
    let outcome: Outcome
    if let schema = result.schema {
      outcome = .events(schema.allEvents.count)
    } else {
      let first = try #require(result.diagnostics.first { $0.severity == .error })
      // Located in the example, or in a file it refers to, at a real line and column.
      #expect(first.location.file.hasPrefix(folder + "/") && first.location.line > 0 && first.location.column > 0)
      let expected = Self.expected[name]
      if case .refused(let construct)? = expected, first.message.contains(construct) {
        outcome = expected ?? .refused(first.message)
      } else {
        outcome = .refused(first.message)
      }
    }
    #expect(outcome == Self.expected[name])
  }
}
