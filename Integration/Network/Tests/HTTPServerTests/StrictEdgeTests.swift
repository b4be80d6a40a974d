import AsyncHTTPClient
import BoardEvents
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Synchronization
import TestSupport
import Testing
import TypedEvents
import TypedEventsHTTPServer

/// The endpoint against clients that are not ours: every shape of body a peer's parser reads
/// otherwise than ours, or that no reader can be sent, is refused in every content mode with
/// its problem, and nothing of it is stored; what is answered 201 is served.
@Suite("The HTTP endpoint against clients that are not ours", .timeLimit(.minutes(2)))
struct StrictEdgeTests {
  /// A note's data with `tail` spliced in before its closing brace.
  static func data(_ tail: String = "") -> String {
    #"{"board":"b1","text":"t","author":"a"\#(tail)}"#
  }

  /// Data every mode must refuse, as bytes: what each breaks.
  static let badData: [(what: String, bytes: [UInt8])] = [
    ("a trailing comma", Array(data(",").utf8)),
    ("a key twice", Array(data(#","board":"b2""#).utf8)),
    ("a key twice, one escaped", Array(data(#","bo\u0061rd":"b2""#).utf8)),
    ("a key twice, deep", Array(data(#","x":{"y":1,"y":2}"#).utf8)),
    (
      "a raw line break in a string",
      Array(#"{"board":"b1","text":"a"#.utf8) + [0x0A] + Array(#"b","author":"a"}"#.utf8)
    ),
    ("a lone surrogate", Array(data(#","x":"\udc00""#).utf8)),
    ("a bad escape", Array(data(#","x":"\q""#).utf8)),
    ("a number beyond a double", Array(data(#","x":1e400"#).utf8)),
    ("a byte order mark", [0xEF, 0xBB, 0xBF] + Array(data().utf8)),
    ("UTF-16", Array(data().utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })),
    (
      "bytes that are not UTF-8",
      Array(#"{"board":"b1","text":""#.utf8) + [0xC0, 0xAF] + Array(#"","author":"a"}"#.utf8)
    ),
    (
      "nesting past the limit",
      Array(data(#","x":"# + String(repeating: "[", count: 300) + String(repeating: "]", count: 300)).utf8)
    ),
  ]

  /// The structured event of a note whose data is `data`, as bytes.
  static func structured(_ data: [UInt8], id: String = "bad", extra: String = "") -> [UInt8] {
    Array(
      #"{"specversion":"1.0","id":"\#(id)","source":"/tests","type":"\#(NoteAdded.eventName)","subject":"b1"\#(extra),"data":"#
        .utf8) + data + [UInt8(ascii: "}")]
  }

  @Test("Data a peer reads otherwise is refused in the binary, structured and batch modes; nothing is stored")
  func badDataInEveryMode() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      for (what, bytes) in Self.badData {
        let binary = rawRequest(
          url,
          headers: [
            ("Content-Type", "application/json"), ("ce-specversion", "1.0"), ("ce-id", "bad"), ("ce-source", "/tests"),
            ("ce-type", NoteAdded.eventName), ("ce-subject", "b1"),
          ], body: bytes)
        let structured = rawRequest(
          url, headers: [("Content-Type", "application/cloudevents+json")], body: Self.structured(bytes))
        let batch = rawRequest(
          url, headers: [("Content-Type", EventEnvelope.cloudEventBatchContentType)],
          body: Array("[\(noteJSON(id: "fine", board: "b1")),".utf8) + Self.structured(bytes) + [UInt8(ascii: "]")])
        for (mode, request) in [("binary", binary), ("structured", structured), ("batch", batch)] {
          let answer = try await send(request)
          #expect(answer.status == 400, "\(what), \(mode): \(answer.body)")
          #expect(answer.problem == "malformed-cloudevent", "\(what), \(mode): \(answer.body)")
          #expect(answer.headers.first(name: "Content-Type") == "application/problem+json")
        }
      }
      // The whole body, not only data: a trailing comma or a repeated attribute at the top.
      for body in [
        #"{"specversion":"1.0","id":"t","source":"/tests","type":"\#(NoteAdded.eventName)","subject":"b1","data":\#(Self.data()),}"#,
        #"{"specversion":"1.0","id":"t","source":"/tests","type":"\#(NoteAdded.eventName)","subject":"b1","subject":"b2","data":\#(Self.data())}"#,
        #"{"specversion":"1.0","id":"t","\u0069d":"u","source":"/tests","type":"\#(NoteAdded.eventName)","subject":"b1","data":\#(Self.data())}"#,
      ] {
        let answer = try await send(
          rawRequest(url, headers: [("Content-Type", "application/cloudevents+json")], body: Array(body.utf8)))
        #expect(answer.status == 400, "\(body): \(answer.body)")
        #expect(answer.problem == "malformed-cloudevent")
      }
      // A detail says where.
      let located = try await send(
        rawRequest(
          url, headers: [("Content-Type", "application/cloudevents+json")],
          body: Self.structured(Array(Self.data(",").utf8))))
      #expect((located.json["detail"] as? String)?.contains("line 1, column") == true, "\(located.body)")
    }
    #expect(try log.read().envelopes.isEmpty)
    #expect(try log.read().problems.isEmpty)
  }

  @Test("Attributes no CloudEvents reader or store takes get 400 in every mode; nothing is stored")
  func badAttributes() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      let data = Array(Self.data().utf8)
      // (what, structured members, binary headers)
      let cases: [(String, String, [(String, String)])] = [
        ("an extension name with _", #","trace_id":"x""#, [("ce-trace_id", "x")]),
        // (A header's name has no case: `ce-traceId` is the attribute `traceid`.)
        ("an extension name in upper case", #","traceId":"x""#, []),
        ("an extension name of 21 characters", #","abcdefghijklmnopqrstu":"x""#, [("ce-abcdefghijklmnopqrstu", "x")]),
        ("an Integer beyond 32 bits", #","count":4294967296"#, []),
        ("a NUL in an attribute", #","note":"a\u0000b""#, [("ce-note", "a%00b")]),
        ("a control character in an attribute", #","note":"a\u0085b""#, [("ce-note", "a%C2%85b")]),
        ("percent-encoding that is no hex", "", [("ce-note", "a%-0b")]),
      ]
      for (what, members, headers) in cases {
        if !members.isEmpty {
          let answer = try await send(
            rawRequest(
              url, headers: [("Content-Type", "application/cloudevents+json")],
              body: Self.structured(data, extra: members)))
          #expect(answer.status == 400, "\(what), structured: \(answer.body)")
          #expect(answer.problem == "malformed-cloudevent", "\(what), structured")
          let batch = try await send(
            rawRequest(
              url, headers: [("Content-Type", EventEnvelope.cloudEventBatchContentType)],
              body: [UInt8(ascii: "[")] + Self.structured(data, extra: members) + [UInt8(ascii: "]")]))
          #expect(batch.status == 400, "\(what), batch: \(batch.body)")
        }
        if !headers.isEmpty {
          let answer = try await send(
            rawRequest(
              url,
              headers: [
                ("Content-Type", "application/json"), ("ce-specversion", "1.0"), ("ce-id", "bad"),
                ("ce-source", "/tests"), ("ce-type", NoteAdded.eventName), ("ce-subject", "b1"),
              ] + headers, body: data))
          #expect(answer.status == 400, "\(what), binary: \(answer.body)")
          #expect(answer.problem == "malformed-cloudevent", "\(what), binary")
        }
      }
    }
    #expect(try log.read().envelopes.isEmpty)
  }

  /// A binary-mode request of a note: the required `ce-` headers, then `extra`.
  static func binaryHeaders(
    _ extra: [(String, String)] = [], contentType: String = "application/json"
  )
    -> [(String, String)]
  {
    [
      ("Content-Type", contentType), ("ce-specversion", "1.0"), ("ce-id", "bad"), ("ce-source", "/tests"),
      ("ce-type", NoteAdded.eventName), ("ce-subject", "b1"),
    ] + extra
  }

  @Test("Shapes a review of the edge found accepted, or answered 503, are 400 in each mode they can be written in")
  func shapesFromAReview() async throws {
    let log = try temporaryLog()
    let duplicate = Self.data(#","board":"b2""#)
    let json = "application/cloudevents+json"
    let depth = { (levels: Int) in
      Self.data(#","x":"# + String(repeating: "[", count: levels) + String(repeating: "]", count: levels))
    }
    // (what, content type, headers beyond it, body)
    let cases: [(String, [(String, String)], [UInt8])] = [
      // JSON data sent as bytes of another type is still read as JSON: the grammar checks it.
      (
        "JSON data sent as text/plain with a key twice", Self.binaryHeaders(contentType: "text/plain"),
        Array(duplicate.utf8)
      ),
      (
        "data_base64 without a content type holding a key twice", [("Content-Type", json)],
        Self.structured(Array(#""\#(Data(duplicate.utf8).base64EncodedString())""#.utf8)).replacing(
          Array(#","data":"#.utf8), with: Array(#","data_base64":"#.utf8))
      ),
      (
        "a JSON string of text/plain data holding a key twice", [("Content-Type", json)],
        Self.structured(
          Array(("\"" + duplicate.replacingOccurrences(of: "\"", with: "\\\"") + "\"").utf8),
          extra: #","datacontenttype":"text/plain""#)
      ),
      // Keys equal in NFC: Swift's JSONDecoder reads them as one, other languages as two.
      (
        "two keys equal in NFC (the Kelvin sign, escaped)", [("Content-Type", json)],
        Self.structured(Array(Self.data(#","xK":1,"x\u212A":2"#).utf8))
      ),
      (
        "two keys equal in NFC (é composed and not, raw)", [("Content-Type", json)],
        Self.structured(Array(Self.data(",\"caf\u{E9}\":1,\"cafe\u{301}\":2").utf8))
      ),
      // What PostgreSQL cannot hold, and what it would crash binding, is refused before.
      (
        "a time after the year 9999", [("Content-Type", json)],
        Self.structured(Array(Self.data().utf8), extra: #","time":"+300000-01-01T00:00:00Z""#)
      ),
      (
        "a time before the year 1", [("Content-Type", json)],
        Self.structured(Array(Self.data().utf8), extra: #","time":"0000-12-31T23:59:59Z""#)
      ),
      (
        "an id of 1,025 bytes", [("Content-Type", json)],
        Self.structured(Array(Self.data().utf8), id: String(repeating: "i", count: 1_025))
      ),
      (
        "an eventversion beyond 32 bits", [("Content-Type", json)],
        Self.structured(Array(Self.data().utf8), extra: #","eventversion":-3000000000"#)
      ),
      (
        "an eventversion beyond 32 bits, binary", Self.binaryHeaders([("ce-eventversion", "-3000000000")]),
        Array(Self.data().utf8)
      ),
      // What a reader would change: numbers written otherwise, a number for a String.
      (
        "an Integer written with a fraction", [("Content-Type", json)],
        Self.structured(Array(Self.data().utf8), extra: #","count":1.0"#)
      ),
      (
        "an Integer written with an exponent", [("Content-Type", json)],
        Self.structured(Array(Self.data().utf8), extra: #","count":1e2"#)
      ),
      (
        "a subject that is a number", [("Content-Type", json)],
        Array(
          #"{"specversion":"1.0","id":"n","source":"/tests","type":"\#(NoteAdded.eventName)","subject":5,"data":\#(Self.data())}"#
            .utf8)
      ),
      (
        "a dataschema that is a Boolean", [("Content-Type", json)],
        Self.structured(Array(Self.data().utf8), extra: #","dataschema":true"#)
      ),
      // Binary-mode headers: each once, the content type only as Content-Type, printable ASCII.
      ("ce-id twice", Self.binaryHeaders([("ce-id", "other")]), Array(Self.data().utf8)),
      ("Content-Type twice", Self.binaryHeaders([("Content-Type", "application/json")]), Array(Self.data().utf8)),
      (
        "ce-datacontenttype beside Content-Type", Self.binaryHeaders([("ce-datacontenttype", "text/plain")]),
        Array(Self.data().utf8)
      ),
      ("a header value beyond ASCII", Self.binaryHeaders([("ce-note", "caf\u{E9}")]), Array(Self.data().utf8)),
      // Data nests as deep in every mode: two levels under the limit, for a page of events.
      ("data 255 deep, binary", Self.binaryHeaders(), Array(depth(254).utf8)),
      ("data 255 deep, structured", [("Content-Type", json)], Self.structured(Array(depth(254).utf8))),
      (
        "data 255 deep, batch", [("Content-Type", EventEnvelope.cloudEventBatchContentType)],
        [UInt8(ascii: "[")] + Self.structured(Array(depth(254).utf8)) + [UInt8(ascii: "]")]
      ),
    ]
    try await withServer(boardEndpoint(log)) { url in
      for (what, headers, body) in cases {
        let answer = try await send(rawRequest(url, headers: headers, body: body))
        #expect(answer.status == 400, "\(what): \(answer.body)")
        #expect(answer.problem == "malformed-cloudevent", "\(what): \(answer.body)")
      }
      // The subject is compared as bytes: an NFD spelling of the data's NFC board is not it.
      let nfd = try await send(
        rawRequest(
          url, headers: [("Content-Type", json)],
          body: Array(
            #"{"specversion":"1.0","id":"d","source":"/tests","type":"\#(NoteAdded.eventName)","subject":"café","data":{"board":"café","text":"t","author":"a"}}"#
              .utf8)))
      #expect(nfd.status == 422 && nfd.problem == "subject-mismatch", "\(nfd.body)")
      // A token whose store is not a string is no token.
      let token = Data(#"{"offset":0,"store":5}"#.utf8).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
      let page = try await send(
        request(url + "?after=\(token)", headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      #expect(page.status == 400 && page.problem == "bad-position", "\(page.body)")
      #expect(try log.read().envelopes.isEmpty)

      // Data as deep as may be, in each mode, is taken and served in a page every reader takes.
      let deepest = depth(253)
      let taken: [(String, [(String, String)], [UInt8])] = [
        ("binary", Self.binaryHeaders().map { $0.0 == "ce-id" ? ("ce-id", "deep-1") : $0 }, Array(deepest.utf8)),
        ("structured", [("Content-Type", json)], Self.structured(Array(deepest.utf8), id: "deep-2")),
        (
          "batch", [("Content-Type", EventEnvelope.cloudEventBatchContentType)],
          [UInt8(ascii: "[")] + Self.structured(Array(deepest.utf8), id: "deep-3") + [UInt8(ascii: "]")]
        ),
      ]
      for (mode, headers, body) in taken {
        let answer = try await send(
          rawRequest(url, headers: headers, body: body))
        #expect(answer.status == 201, "\(mode): \(answer.body)")
      }
      // A time with an offset is kept as the instant it names, and served in UTC.
      let offset = try await send(
        rawRequest(
          url, headers: [("Content-Type", json)],
          body: Self.structured(
            Array(Self.data().utf8), id: "offset", extra: #","time":"2026-11-30T10:00:00.5+02:00""#)))
      #expect(offset.status == 201, "\(offset.body)")
      let served = try await send(request(url, headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      #expect(
        try EventEnvelope.envelopes(cloudEventBatchJSON: Data(served.body.utf8)).map(\.id)
          == ["deep-1", "deep-2", "deep-3", "offset"])
      #expect(served.body.contains(#""time":"2026-11-30T08:00:00.5Z""#), "\(served.body.suffix(400))")
    }
  }

  @Test("A UUID subject matches its data's in any case, and is stored and filtered as one")
  func uuidSubjects() async throws {
    let log = try temporaryLog()
    let box = UUID()
    let lower = box.uuidString.lowercased()
    try await withServer(boardEndpoint(log)) { url in
      let body =
        #"{"specversion":"1.0","id":"u1","source":"/tests","type":"\#(BoardRenamed.eventName)","subject":"\#(lower)","data":{"id":"\#(lower)","name":"n"}}"#
      let answer = try await send(
        request(url, method: .POST, headers: [("Content-Type", "application/cloudevents+json")], body: body))
      #expect(answer.status == 201, "\(answer.body)")
      for subject in [lower, box.uuidString] {
        let page = try await send(
          request(url + "?subject=\(subject)", headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
        #expect(try EventEnvelope.envelopes(cloudEventBatchJSON: Data(page.body.utf8)).map(\.id) == ["u1"])
      }
    }
    #expect(try log.read().envelopes.map(\.subject) == [box.uuidString])
  }

  @Test("A position from another store, from a replaced log, past the end or inside an event is 400, never a skip")
  func positionsKnowTheirStore() async throws {
    let log = try temporaryLog()
    let other = try temporaryLog()
    try await other.append(
      try EventEnvelope(NoteAdded(board: BoardID("b1"), text: "elsewhere", author: "a"), source: "/o"))
    let otherEnd = try #require(try await other.read(after: nil, limit: 10).envelopes.last?.position)
    let otherToken = documentedToken(otherEnd, store: try await other.storeIdentity())
    var oldStore: String?
    try await withServer(boardEndpoint(log)) { url in
      try await postNotes(url, ids: 1...3, board: "b1")
      let positions = try await log.read(after: nil, limit: 10).envelopes.map(\.position)
      let store = try await log.storeIdentity()
      let page = [("Accept", EventEnvelope.cloudEventBatchContentType)]
      let bad: [(String, String)] = [
        ("another store's token", otherToken),
        ("past the end", documentedToken(EventLog.Position(offset: positions[2].offset + 500), store: store)),
        ("inside an event", documentedToken(EventLog.Position(offset: positions[0].offset + 7), store: store)),
        ("inside an event, a token without a store", documentedToken(EventLog.Position(offset: 3), store: nil)),
        ("negative", documentedToken(EventLog.Position(offset: -1), store: store)),
      ]
      for (what, token) in bad {
        for headers in [
          page + [("Last-Event-ID", token)], [("Accept", "text/event-stream"), ("Last-Event-ID", token)],
        ] {
          let answer = try await send(request(url, headers: headers))
          #expect(answer.status == 400, "\(what): \(answer.body)")
          #expect(answer.problem == "bad-position", "\(what)")
        }
      }
      // An empty after is refused; an empty Last-Event-ID is none, and after is read then.
      let emptyAfter = try await send(request(url + "?after=", headers: page))
      #expect(emptyAfter.status == 400 && emptyAfter.problem == "bad-position", "\(emptyAfter.body)")
      let afterSecond = url + "?after=\(documentedToken(positions[1], store: store))"
      let emptyHeader = try await send(request(afterSecond, headers: page + [("Last-Event-ID", "")]))
      #expect(emptyHeader.status == 200, "\(emptyHeader.body)")
      #expect(try EventEnvelope.envelopes(cloudEventBatchJSON: Data(emptyHeader.body.utf8)).map(\.id) == ["note-3"])
      // A good one reads on.
      let good = try await send(request(url + "?after=\(documentedToken(positions[0], store: store))", headers: page))
      #expect(try EventEnvelope.envelopes(cloudEventBatchJSON: Data(good.body.utf8)).map(\.id) == ["note-2", "note-3"])
      oldStore = store
    }
    // The log replaced by another file, and the server started again on it: the old tokens are
    // from another store now, though their offset is a line's end in the new file too.
    try FileManager.default.removeItem(at: log.url)
    let replacement = EventLog(url: log.url)
    for index in 1...3 {
      try await replacement.append(
        try EventEnvelope(
          NoteAdded(board: BoardID("b1"), text: "hello", author: "tester"), id: "note-\(index)", source: "/tests"))
    }
    let boundary = try #require(try await replacement.read(after: nil, limit: 10).envelopes.first?.position)
    #expect(try await replacement.isPosition(boundary))
    let oldToken = documentedToken(boundary, store: oldStore)
    try await withServer(boardEndpoint(replacement)) { url in
      let replaced = try await send(
        request(url + "?after=\(oldToken)", headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      #expect(replaced.status == 400 && replaced.problem == "bad-position", "\(replaced.body)")
    }
  }

  @Test("A page holds at most its byte budget of data, and the next page goes on from where it ended")
  func pagesAreBoundedInBytes() async throws {
    let log = try temporaryLog()
    let endpoint = boardEndpoint(log) { $0.maximumPageBytes = 25_000 }
    try await withServer(endpoint) { url in
      try await postNotes(url, ids: 1...7, board: "b1", text: String(repeating: "x", count: 10_000))
      var after: String?
      var pages: [[String]] = []
      repeat {
        let answer = try await send(
          request(
            url + (after.map { "?after=\($0)" } ?? ""), headers: [("Accept", EventEnvelope.cloudEventBatchContentType)])
        )
        #expect(answer.status == 200)
        pages.append(try EventEnvelope.envelopes(cloudEventBatchJSON: Data(answer.body.utf8)).map(\.id))
        after = answer.headers.first(name: "Last-Event-ID")
      } while pages.last?.isEmpty == false && pages.count < 10
      #expect(pages == [["note-1", "note-2"], ["note-3", "note-4"], ["note-5", "note-6"], ["note-7"], []])
    }
  }

  @Test("A body that does not arrive within the timeout gets 408 and its connection closed")
  func slowBodies() async throws {
    let log = try temporaryLog()
    let endpoint = boardEndpoint(log) { $0.bodyReadTimeout = .milliseconds(500) }
    try await withServer(endpoint) { url in
      let port = try #require(URL(string: url)?.port)
      // Headers and half the body, then nothing: the answer comes without the rest.
      let answer = try await rawExchange(port: port, send: halfAPost(id: "slow"))
      #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer.prefix(200))")
      #expect(answer.lowercased().contains("connection: close"))
      #expect(answer.lowercased().contains("content-type: application/problem+json"))
      #expect(answer.contains("body-timeout"))
    }
    #expect(try log.read().envelopes.isEmpty)
  }

  @Test("A client that goes away in the middle of its body leaves nothing stored and no error in the log")
  func bodiesCutShort() async throws {
    let log = try temporaryLog()
    let lines = CapturedLines()
    let logger = Logger(label: "cut-short") { _ in CapturingLogHandler(lines: lines) }
    let endpoint = EventsEndpoint(
      store: log, catalog: GeneratedEvents.catalog, access: boardAccess, logger: logger)
    try await withServer(endpoint) { url in
      let port = try #require(URL(string: url)?.port)
      for _ in 0..<5 {
        let descriptor = try connectLoopback(port: port)
        let bytes = halfAPost(id: "cut")
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
      }
      // The server goes on: a whole POST after them is stored.
      try await postNotes(url, ids: 1...1, board: "b1")
      try await Task.sleep(for: .milliseconds(200))
    }
    #expect(try log.read().envelopes.map(\.id) == ["note-1"])
    let errors = lines.lines.withLock { $0.filter { $0.0 >= .error } }
    #expect(errors.isEmpty, "\(errors)")
  }

  @Test(
    "A principal holds at most maximumStreamsPerPrincipal streams: one more gets 429, another principal is not held back, and a closed stream frees its slot"
  )
  func streamsPerPrincipal() async throws {
    let log = try temporaryLog()
    var configuration = EventsEndpoint<EventLog, Reader>.Configuration()
    configuration.maximumStreamsPerPrincipal = 2
    let access = EventAccess<Reader>(
      authenticate: boardAccess.authenticate, authorize: boardAccess.authorize, streamOwner: { $0.name })
    let endpoint = EventsEndpoint(
      store: log, catalog: GeneratedEvents.catalog, access: access, configuration: configuration)
    try await withServer(endpoint) { url in
      let port = try #require(URL(string: url)?.port)
      let first = try await openRawStream(port: port, token: "alice")
      // A HEAD opens no stream, so it holds no slot: two of them leave the second slot free.
      for _ in 0..<2 {
        let head = try await send(request(url, method: .HEAD, headers: [("Accept", "text/event-stream")]))
        #expect(head.status == 200)
      }
      let second = try await openRawStream(port: port, token: "alice")
      #expect(first.head.hasPrefix("HTTP/1.1 200") && second.head.hasPrefix("HTTP/1.1 200"))
      let third = try await send(request(url, headers: [("Accept", "text/event-stream")]))
      #expect(third.status == 429)
      #expect(third.problem == "too-many-streams")
      #expect(third.headers["Content-Type"].first == "application/problem+json")
      // A HEAD answers what its GET would; a page is no stream, and is not counted.
      #expect(try await send(request(url, method: .HEAD, headers: [("Accept", "text/event-stream")])).status == 429)
      let page = try await send(request(url, headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      #expect(page.status == 200)
      let bobs = try await openRawStream(port: port, token: "bob")
      #expect(bobs.head.hasPrefix("HTTP/1.1 200"), "\(bobs.head)")

      // The server sees the closed connection, ends that stream, and frees its slot.
      close(first.descriptor)
      var again: (descriptor: Int32, head: String)?
      try await eventually("alice opens a stream again once one of hers is closed") {
        let attempt = try await openRawStream(port: port, token: "alice")
        guard attempt.head.hasPrefix("HTTP/1.1 200") else {
          close(attempt.descriptor)
          return false
        }
        again = attempt
        return true
      }
      for descriptor in [second.descriptor, bobs.descriptor, again?.descriptor].compactMap({ $0 }) {
        close(descriptor)
      }
    }
  }

  @Test("A header block of 200 KB is refused by the server's parser before the endpoint, and the server goes on")
  func hugeHeaders() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      let port = try #require(URL(string: url)?.port)
      let head =
        "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer alice\r\nX-Big: "
        + String(repeating: "a", count: 200_000) + "\r\n\r\n"
      let answer = try await rawExchange(port: port, send: Array(head.utf8))
      // The server answers and closes while the client may still be sending: then the client's
      // TCP sees a reset, and the answer may be lost with it.
      #expect(answer.isEmpty || answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(200))")
      #expect(!answer.contains("application/problem+json"))
      let after = try await send(request(url, headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      #expect(after.status == 200)
    }
  }

  @Test("Methods the path does not answer get 405 with Allow; HEAD answers a GET's headers without a body")
  func methods() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      // QUERY and PROPFIND stand for the registry's methods Hummingbird has no name for.
      for method in [HTTPMethod.PUT, .DELETE, .PATCH, .OPTIONS, .TRACE, .RAW(value: "QUERY"), .RAW(value: "PROPFIND")] {
        // A TRACE may carry no body.
        let answer = try await send(request(url, method: method, body: method == .TRACE ? nil : "{}"))
        #expect(answer.status == 405, "\(method)")
        #expect(answer.headers.first(name: "Allow") == "GET, HEAD, POST")
        #expect(answer.problem == "method-not-allowed")
      }
      // A method no registry names never reaches the endpoint: the server's HTTP parser refuses
      // it with a bare 400.
      let unnamed = try await send(request(url, method: .RAW(value: "BREW"), body: "{}"))
      #expect(unnamed.status == 400)
      #expect(unnamed.headers.first(name: "Content-Type") != "application/problem+json")
      let head = try await send(request(url, method: .HEAD, headers: [("Accept", "text/event-stream")]))
      #expect(head.status == 200)
      #expect(head.headers.first(name: "Content-Type") == "text/event-stream")
      #expect(head.body.isEmpty)
      let pageHead = try await send(
        request(url, method: .HEAD, headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      #expect(pageHead.status == 200)
      #expect(pageHead.body.isEmpty)
      let refused = try await send(request(url, method: .HEAD, token: nil))
      #expect(refused.status == 401)
    }
  }

  @Test("The OpenAPI description, when configured, is served to anyone at <path>/openapi.json, and only read")
  func description() async throws {
    let log = try temporaryLog()
    let document = Data(#"{"openapi":"3.1.0"}"#.utf8)
    try await withServer(boardEndpoint(log) { $0.openAPIDescription = document }) { url in
      let answer = try await send(request(url + "/openapi.json", token: nil))
      #expect(answer.status == 200)
      #expect(answer.headers.first(name: "Content-Type") == "application/vnd.oai.openapi+json")
      #expect(Data(answer.body.utf8) == document)
      let head = try await send(request(url + "/openapi.json", method: .HEAD, token: nil))
      #expect(head.status == 200)
      #expect(head.headers.first(name: "Content-Length") == "\(document.count)")
      #expect(head.body.isEmpty)
      for method in [HTTPMethod.POST, .PUT, .DELETE, .RAW(value: "QUERY")] {
        let refused = try await send(request(url + "/openapi.json", method: method, body: "{}"))
        #expect(refused.status == 405, "\(method)")
        #expect(refused.headers.first(name: "Allow") == "GET, HEAD")
        #expect(refused.problem == "method-not-allowed")
      }
    }
    try await withServer(boardEndpoint(log)) { url in
      let absent = try await send(request(url + "/openapi.json", token: nil))
      #expect(absent.status == 404)
    }
  }

  @Test("A query parameter the method does not read, or one given twice, is 400")
  func parameters() async throws {
    let log = try temporaryLog()
    let endpoint = boardEndpoint(log) { $0.accessQueryParameters = ["access_token"] }
    try await withServer(endpoint) { url in
      let page = [("Accept", EventEnvelope.cloudEventBatchContentType)]
      for (query, problem) in [
        ("?types=x", "unknown-parameter"), ("?limt=2", "unknown-parameter"), ("?limit=1&limit=2", "repeated-parameter"),
        ("?subject=a&subject=b", "repeated-parameter"), ("?limit=0", "bad-limit"), ("?limit=x", "bad-limit"),
      ] {
        let answer = try await send(request(url + query, headers: page))
        #expect(answer.status == 400, "\(query)")
        #expect(answer.problem == problem, "\(query): \(answer.body)")
      }
      // A stream reads no limit, yet one the description refuses is refused there too.
      let stream = try await send(request(url + "?limit=0", headers: [("Accept", "text/event-stream")]))
      #expect(stream.problem == "bad-limit")
      let post = try await send(
        request(
          url + "?limit=1", method: .POST, headers: [("Content-Type", "application/cloudevents+json")],
          body: noteJSON(id: "p", board: "b1")))
      #expect(post.problem == "unknown-parameter")
      for query in ["?access_token=x&limit=1", "?type=a&type=b"] {
        #expect(try await send(request(url + query, headers: page)).status == 200, "\(query)")
      }
    }
    #expect(try log.read().envelopes.isEmpty)
  }
}

/// A POST of raw bytes, which a `String` body cannot carry (UTF-16, bytes that are not UTF-8).
func rawRequest(_ url: String, token: String = "alice", headers: [(String, String)], body: [UInt8]) -> HTTPClientRequest
{
  var request = HTTPClientRequest(url: url)
  request.method = .POST
  request.headers.add(name: "Authorization", value: "Bearer \(token)")
  for (name, value) in headers { request.headers.add(name: name, value: value) }
  request.body = .bytes(ByteBuffer(bytes: body))
  return request
}

/// Sends `bytes` to 127.0.0.1:`port` over a plain socket, keeps the connection open without
/// sending more, and returns what the server answers until it closes the connection, or 30 s.
/// The socket is read on a thread of its own: a blocking read on the concurrency pool's would
/// hold one of its two threads, and starve the other tests.
func rawExchange(port: Int, send bytes: [UInt8]) async throws -> String {
  let descriptor = try connectLoopback(port: port)
  let answer = await withCheckedContinuation { (continuation: CheckedContinuation<[UInt8], Never>) in
    let thread = Thread {
      _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      var answer: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { break }
        answer += buffer[..<count]
      }
      close(descriptor)
      continuation.resume(returning: answer)
    }
    thread.start()
  }
  return String(decoding: answer, as: UTF8.self)
}

/// Opens a stream over a plain socket, as `token`, and reads its head (status line and headers);
/// the socket stays open for the caller to close. Read on a thread of its own, as
/// ``rawExchange(port:send:)`` does.
func openRawStream(port: Int, token: String) async throws -> (descriptor: Int32, head: String) {
  let descriptor = try connectLoopback(port: port)
  let request = Array(
    "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nAccept: text/event-stream\r\n\r\n"
      .utf8)
  let head = await withCheckedContinuation { (continuation: CheckedContinuation<[UInt8], Never>) in
    Thread {
      _ = request.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      var head: [UInt8] = []
      var byte: UInt8 = 0
      // A byte at a time, to stop at the end of the head and leave the body unread.
      while !head.suffix(4).elementsEqual("\r\n\r\n".utf8), read(descriptor, &byte, 1) == 1 {
        head.append(byte)
      }
      continuation.resume(returning: head)
    }.start()
  }
  return (descriptor, String(decoding: head, as: UTF8.self))
}

/// The head of a structured POST of note `id` as alice, and the first half of its body.
func halfAPost(id: String) -> [UInt8] {
  let body = Array(noteJSON(id: id, board: "b1").utf8)
  let head =
    "POST /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer alice\r\n"
    + "Content-Type: application/cloudevents+json\r\nContent-Length: \(body.count)\r\n\r\n"
  return Array(head.utf8) + body.prefix(body.count / 2)
}

/// The lines a ``CapturingLogHandler`` kept, with their levels.
final class CapturedLines: Sendable {
  let lines = Mutex<[(Logger.Level, String)]>([])
}

/// Keeps every line logged through it, with its level.
struct CapturingLogHandler: LogHandler {
  let lines: CapturedLines
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .trace

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    lines.lines.withLock { $0.append((event.level, "\(event.message)")) }
  }
}
