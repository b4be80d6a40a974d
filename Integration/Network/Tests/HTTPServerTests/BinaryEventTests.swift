import AsyncHTTPClient
import BoardEvents
import Foundation
import NIOCore
import Testing
import TypedEvents
import TypedEventsHTTPClient
import TypedEventsHTTPServer

/// A board's snapshot: an image, bytes rather than JSON, as eventgen generates a binary frame.
struct BoardSnapshot: BinaryEvent {
  static var eventName: String { "board.Snapshot" }
  static var eventVersion: Int { 1 }
  static var dataContentType: String { "image/png" }
  var bytes: Data

  init(bytes: Data) { self.bytes = bytes }
  init(reading reader: UserInfoReader) throws(UserInfoDecodingError) {
    bytes = try reader.decode(Data.self, forKey: "payload")
  }
  func write(to writer: inout UserInfoWriter) { writer.encode(bytes, forKey: "payload") }
}

@Suite("The HTTP endpoint and binary events", .timeLimit(.minutes(2)))
struct BinaryEventTests {
  /// Bytes that are no UTF-8 and no JSON.
  static let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0xFE, 0x7B])

  @Test("A binary event POSTed in the binary mode, or as data_base64, is stored and served as its bytes")
  func binaryEventsAreTheirBytes() async throws {
    let log = try temporaryLog()
    let endpoint = EventsEndpoint(
      store: log, catalog: GeneratedEvents.catalog.merging(EventCatalog([BoardSnapshot.self])), access: boardAccess)
    try await withServer(endpoint) { url in
      var binary = request(
        url, method: .POST,
        headers: [
          ("Content-Type", "image/png"), ("ce-specversion", "1.0"), ("ce-id", "snap-1"), ("ce-source", "/tests"),
          ("ce-type", BoardSnapshot.eventName),
        ])
      binary.body = .bytes(ByteBuffer(bytes: Self.bytes))
      let posted = try await send(binary)
      #expect(posted.status == 201, "\(posted.body)")
      let structured = request(
        url, method: .POST, headers: [("Content-Type", "application/cloudevents+json")],
        body: #"""
          {"specversion":"1.0","id":"snap-2","source":"/tests","type":"board.Snapshot",
           "datacontenttype":"image/png","data_base64":"\#(Self.bytes.base64EncodedString())"}
          """#)
      #expect(try await send(structured).status == 201)
      // JSON data for a binary event is refused, as the request's fault.
      let json = request(
        url, method: .POST, headers: [("Content-Type", "application/cloudevents+json")],
        body: #"{"specversion":"1.0","id":"snap-3","source":"/tests","type":"board.Snapshot","data":"AAE="}"#)
      let refused = try await send(json)
      #expect(refused.status == 422 && refused.problem == "undecodable-data", "\(refused.body)")

      // A page serves them as data_base64 with their type.
      let page = try await send(request(url, headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      let events = try #require(try JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [[String: Any]])
      #expect(events.map { $0["id"] as? String } == ["snap-1", "snap-2"])
      for event in events {
        #expect(event["data_base64"] as? String == Self.bytes.base64EncodedString())
        #expect(event["datacontenttype"] as? String == "image/png" && event["data"] == nil)
      }
      // A stream serves them as data_base64 too: a client gets the bytes back.
      let client = EventsClient(
        url: try #require(URL(string: url)), catalog: EventCatalog([BoardSnapshot.self]),
        headers: { ["Authorization": "Bearer alice"] })
      var streamed: [BoardSnapshot?] = []
      for try await delivery in client.events(from: temporaryCheckpoint()) {
        streamed.append(delivery.event as? BoardSnapshot)
        if streamed.count == 2 { break }
      }
      #expect(streamed == Array(repeating: BoardSnapshot(bytes: Self.bytes), count: 2))
    }
    let stored = try log.read().envelopes
    #expect(stored.map(\.payload) == [Self.bytes, Self.bytes])
    let catalog = EventCatalog([BoardSnapshot.self])
    #expect(
      try stored.map { try $0.decode(using: catalog) as? BoardSnapshot }
        == Array(repeating: BoardSnapshot(bytes: Self.bytes), count: 2))
  }
}
