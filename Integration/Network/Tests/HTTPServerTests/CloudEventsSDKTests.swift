import BoardEvents
import Foundation
import TestSupport
import Testing
import TypedEvents
import TypedEventsHTTPServer

/// The peers' Python environment, which `Scripts/peers/setup` makes under the repository's
/// `.build/` (`.ci/run` runs it first), or `TYPEDEVENTS_PEER_PYTHON`.
enum PythonPeer {
  /// The repository's root: this file is in Integration/Network/Tests/HTTPServerTests.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let python: URL? = {
    let path =
      ProcessInfo.processInfo.environment["TYPEDEVENTS_PEER_PYTHON"]
      ?? root.appendingPathComponent(".build/peers-venv/bin/python").path
    return FileManager.default.isExecutableFile(atPath: path) ? URL(fileURLWithPath: path) : nil
  }()

  static let missing: Comment =
    "the peers' Python environment is missing: run Scripts/peers/setup from the repository's root (it pip-installs the CloudEvents SDK into .build/peers-venv)"

  /// Runs `Scripts/peers/<script>` with `arguments` and returns its standard output; throws with
  /// its standard error when it fails. The child is awaited, not waited for on a thread: the
  /// server it talks to runs in this process.
  static func run(_ script: String, _ arguments: [String]) async throws -> String {
    let python = try #require(python)
    let result = try await runChildProcess(
      python, [root.appendingPathComponent("Scripts/peers/\(script)").path] + arguments)
    guard result.status == 0 else {
      throw PeerFailure(description: "\(script) exited \(result.status): \(result.errors)")
    }
    return result.output
  }

  struct PeerFailure: Error, CustomStringConvertible {
    var description: String
  }
}

@Suite("The CloudEvents Python SDK as a client of the endpoint", .timeLimit(.minutes(1)))
struct CloudEventsSDKTests {
  @Test(
    "posts binary, structured and batch events, a retry appends nothing, and it reads them back as a page",
    .enabled(if: PythonPeer.python != nil, PythonPeer.missing))
  func theSDKPostsEveryModeAndReadsAPage() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      let output = try await PythonPeer.run("cloudevents_http_client.py", [url, "carol", NoteAdded.eventName, "b2"])
      let answer = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
      let posted = try #require(answer["posted"] as? [[String: Any]])
      #expect(posted.map { $0["mode"] as? String } == ["binary", "structured", "batch", "binary again"])
      #expect(posted.map { $0["status"] as? Int } == [201, 201, 201, 200])
      let retried = try #require((posted[3]["answer"] as? [String: Any])?["events"] as? [[String: Any]])
      #expect(retried.first?["duplicate"] as? Bool == true)

      // What the SDK sent is in the store once each, typed, with the SDK's ids.
      let stored = try log.read().envelopes
      let ids = [posted[0]["id"], posted[1]["id"]].compactMap { $0 as? String } + (posted[2]["id"] as? [String] ?? [])
      #expect(stored.map(\.id) == ids)
      #expect(stored.allSatisfy { $0.source == "/python-sdk" && $0.subject == "b2" })
      let notes = try stored.map { try #require(try $0.decode(using: GeneratedEvents.catalog) as? NoteAdded) }
      #expect(notes.map(\.text) == ["binary", "structured", "batch 0", "batch 1", "batch 2"])

      // The page, as the SDK read it.
      let page = try #require(answer["page"] as? [[String: Any]])
      #expect(page.map { $0["id"] as? String } == ids)
      #expect(page.allSatisfy { $0["type"] as? String == NoteAdded.eventName && $0["subject"] as? String == "b2" })
      #expect(page.map { ($0["data"] as? [String: Any])?["text"] as? String } == notes.map(\.text))
    }
  }
}
