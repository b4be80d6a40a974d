import AsyncHTTPClient
import BoardEvents
import Foundation
import Testing
import TypedEvents
import TypedEventsHTTPServer

@Suite("A client that stops reading", .timeLimit(.minutes(2)))
struct SlowClientTests {
  @Test("is cut off once the buffers between it and the server are full, and resumes without loss")
  func aStalledClientIsCutOffAndResumes() async throws {
    let log = try temporaryLog()
    let endpoint = boardEndpoint(log) { configuration in
      configuration.writeTimeout = .seconds(1)
      configuration.feedCapacity = 64
      configuration.pollInterval = .milliseconds(100)
    }
    // 6,000 events of about 4 KB: 24 MB, more than loopback's socket buffers and the HTTP
    // client's hold together.
    let count = 6_000
    let text = String(repeating: "n", count: 4_000)
    try await withServer(endpoint) { url in
      let (_, stalled) = try await openStream(url)
      for start in stride(from: 0, to: count, by: 500) {
        let envelopes = try (start..<start + 500).map { index in
          try EventEnvelope(
            NoteAdded(board: BoardID("b1"), text: text, author: "a"), id: "n\(index)", source: "/tests")
        }
        _ = try await log.appendOnce(envelopes)
      }
      // Longer than the server's lag in filling the buffers, plus the write timeout (1 s) and
      // the watchdog's tick (250 ms): reading before the cut-off would let the writes go on, and
      // the stream would never be cut. Wide, for a loaded machine.
      try await Task.sleep(for: .seconds(8))
      var reader = stalled
      var received: [String] = []
      var lastID: String?
      do {
        while let frame = try await reader.next() {
          if let data = frame.data, let envelope = try? EventEnvelope(cloudEventJSON: Data(data.utf8)) {
            received.append(envelope.id)
            lastID = frame.id
          }
        }
      } catch {
        // A connection closed mid-stream may end with an error: the stream is cut off either way.
      }
      #expect(received.count < count, "the stalled stream was not cut off")
      #expect(received == (0..<received.count).map { "n\($0)" })
      var (_, resumed) = try await openStream(url, lastEventID: lastID)
      let rest = try await resumed.events(count - received.count)
      let restIDs = rest.compactMap { $0.data.flatMap { try? EventEnvelope(cloudEventJSON: Data($0.utf8)) }?.id }
      #expect(received + restIDs == (0..<count).map { "n\($0)" })
    }
  }
}
