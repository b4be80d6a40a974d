import AsyncHTTPClient
import BoardEvents
import Foundation
import NIOHTTP1
import Testing
import TypedEvents
import TypedEventsHTTPServer

@Suite("The HTTP endpoint: appends, pages, streams and who may see what", .timeLimit(.minutes(2)))
struct EventsEndpointTests {
  @Test("An endpoint made without an access policy answers 401 to everything and appends nothing")
  func closedByDefault() async throws {
    let log = try temporaryLog()
    try await withServer(EventsEndpoint(store: log, catalog: GeneratedEvents.catalog)) { url in
      let note = noteJSON(id: "n1", board: "b1")
      for token in ["alice", nil] {
        let stream = try await send(request(url, token: token, headers: [("Accept", "text/event-stream")]))
        let page = try await send(
          request(url, token: token, headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
        let post = try await send(
          request(
            url, method: .POST, token: token, headers: [("Content-Type", "application/cloudevents+json")], body: note))
        for answer in [stream, page, post] {
          #expect(answer.status == 401)
          #expect(answer.headers.first(name: "WWW-Authenticate") == "Bearer")
          #expect(answer.problem == "unauthenticated")
          #expect(!answer.body.contains("b1"))
        }
      }
    }
    #expect(try log.read().envelopes.isEmpty)
  }

  @Test("POST in the binary, structured and batch modes appends once; a retry answers the same positions")
  func appendsInEveryModeOnce() async throws {
    let log = try temporaryLog()
    let endpoint = boardEndpoint(log)
    var first: [[String]] = []
    try await withServer(endpoint) { url in
      let structured = request(
        url, method: .POST, headers: [("Content-Type", "application/cloudevents+json; charset=utf-8")],
        body: noteJSON(id: "s1", board: "b1"))
      let binary = request(
        url, method: .POST,
        headers: [
          ("Content-Type", "application/json"), ("ce-specversion", "1.0"), ("ce-id", "bin-1"),
          ("ce-source", "/tests"), ("ce-type", NoteRemoved.eventName), ("ce-subject", "b2"),
        ],
        body: #"{"board": "b2", "index": 3}"#)
      // Pretty-printed data: its line breaks are whitespace, and the store keeps one line.
      let batch = request(
        url, method: .POST, headers: [("Content-Type", EventEnvelope.cloudEventBatchContentType)],
        body: "[\(noteJSON(id: "batch-1", board: "b1")),\n\(noteJSON(id: "batch-2", board: "b2"))\n]")
      for attempt in 0..<3 {
        var positions: [[String]] = []
        for request in [structured, binary, batch] {
          let answer = try await send(request)
          #expect(answer.status == (attempt == 0 ? 201 : 200), "\(answer.body)")
          let events = try #require(answer.json["events"] as? [[String: Any]])
          #expect(events.allSatisfy { ($0["duplicate"] as? Bool) == (attempt > 0) })
          positions.append(events.compactMap { $0["position"] as? String })
        }
        if attempt == 0 { first = positions } else { #expect(positions == first) }
      }
      #expect(first.map(\.count) == [1, 1, 2])
    }
    let stored = try log.read().envelopes
    #expect(stored.map(\.id) == ["s1", "bin-1", "batch-1", "batch-2"])
    // Each answer's position is the token of the event's place in the store: its position's
    // JSON with the store's identity, in base64url without padding.
    let store = try await log.storeIdentity()
    let tokens = try await log.read(after: nil, limit: 10).envelopes.map { documentedToken($0.position, store: store) }
    #expect(first.flatMap { $0 } == tokens)
    #expect(stored.map(\.subject) == ["b1", "b2", "b1", "b2"])
    let removed = try #require(try stored[1].decode(using: GeneratedEvents.catalog) as? NoteRemoved)
    #expect(removed == NoteRemoved(board: BoardID("b2"), index: 3))
  }

  @Test("Every bad request gets its documented problem, nothing is appended, and the server goes on")
  func badRequests() async throws {
    let log = try temporaryLog()
    let endpoint = boardEndpoint(log) { configuration in
      configuration.maximumBodySize = 64 << 10
      configuration.maximumBatchCount = 5
    }
    let structured = [("Content-Type", "application/cloudevents+json")]
    let batchType = [("Content-Type", EventEnvelope.cloudEventBatchContentType)]
    let good = noteJSON(id: "good", board: "b1")
    func without(_ key: String) -> String {
      var object = (try? JSONSerialization.jsonObject(with: Data(good.utf8))) as? [String: Any] ?? [:]
      object.removeValue(forKey: key)
      return String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self)
    }
    func binary(_ extra: [(String, String)], dropping: String? = nil) -> [(String, String)] {
      let base = [
        ("Content-Type", "application/json"), ("ce-specversion", "1.0"), ("ce-id", "b-1"), ("ce-source", "/tests"),
        ("ce-type", NoteAdded.eventName), ("ce-subject", "b1"),
      ]
      return base.filter { $0.0 != dropping } + extra
    }
    let note = #"{"board": "b1", "text": "t", "author": "a"}"#
    let unknown = good.replacingOccurrences(of: NoteAdded.eventName, with: "x").replacingOccurrences(
      of: "good", with: "g2")
    let many = "[" + (1...6).map { noteJSON(id: "many-\($0)", board: "b1") }.joined(separator: ",") + "]"
    let big = noteJSON(id: "big", board: "b1", text: String(repeating: "x", count: 70_000))
    // (what, method, token, headers, body, status, problem)
    typealias Case = (String, HTTPMethod, String?, [(String, String)], String?, Int, String)
    let cases: [Case] = [
      ("malformed JSON", .POST, "alice", structured, "{", 400, "malformed-cloudevent"),
      ("an array, structured", .POST, "alice", structured, "[\(good)]", 400, "malformed-cloudevent"),
      ("no specversion", .POST, "alice", structured, without("specversion"), 400, "malformed-cloudevent"),
      ("no id", .POST, "alice", structured, without("id"), 400, "malformed-cloudevent"),
      ("no source", .POST, "alice", structured, without("source"), 400, "malformed-cloudevent"),
      ("no type", .POST, "alice", structured, without("type"), 400, "malformed-cloudevent"),
      (
        "specversion 0.3", .POST, "alice", structured, good.replacingOccurrences(of: "\"1.0\"", with: "\"0.3\""), 400,
        "malformed-cloudevent"
      ),
      (
        "an unknown type", .POST, "alice", structured,
        good.replacingOccurrences(of: NoteAdded.eventName, with: "board.NoteMoved"), 422, "unknown-type"
      ),
      (
        "data without a required field", .POST, "alice", structured,
        good.replacingOccurrences(of: "\"author\":\"tester\",", with: ""), 422, "undecodable-data"
      ),
      (
        "data of the wrong type", .POST, "alice", structured,
        good.replacingOccurrences(of: "\"text\":\"hello\"", with: "\"text\":5"), 422, "undecodable-data"
      ),
      // The grammar checks all of the body, a key the type ignores too, before anything reads it.
      (
        "data with a bad escape in a key the type ignores", .POST, "alice", structured,
        good.replacingOccurrences(of: "\"author\":\"tester\",", with: #""author":"tester","x":"\q","#), 400,
        "malformed-cloudevent"
      ),
      (
        "data with a number beyond Double in a key the type ignores", .POST, "alice", structured,
        good.replacingOccurrences(of: "\"author\":\"tester\",", with: #""author":"tester","x":1e400,"#), 400,
        "malformed-cloudevent"
      ),
      (
        "a batch with a bad escape in one event's data", .POST, "alice", batchType,
        "[\(noteJSON(id: "fine", board: "b1")), "
          + good.replacingOccurrences(of: "\"author\":\"tester\",", with: #""author":"tester","x":"\q","#) + "]",
        400, "malformed-cloudevent"
      ),
      (
        "a subject that is not the data's", .POST, "alice", structured, noteJSON(id: "x", board: "b1", subject: "b2"),
        422, "subject-mismatch"
      ),
      ("no subject", .POST, "alice", structured, without("subject"), 422, "subject-mismatch"),
      ("text/plain", .POST, "alice", [("Content-Type", "text/plain")], good, 415, "unsupported-media-type"),
      ("no content type", .POST, "alice", [], good, 415, "unsupported-media-type"),
      (
        "JSON without ce- headers", .POST, "alice", [("Content-Type", "application/json")], note, 415,
        "unsupported-media-type"
      ),
      ("binary without ce-id", .POST, "alice", binary([], dropping: "ce-id"), note, 400, "malformed-cloudevent"),
      (
        "binary of an unknown type", .POST, "alice", binary([("ce-type", "board.NoteMoved")], dropping: "ce-type"),
        note,
        422, "unknown-type"
      ),
      ("binary data that is no JSON", .POST, "alice", binary([]), "board b1", 400, "malformed-cloudevent"),
      (
        "binary with bad percent-encoding", .POST, "alice", binary([("ce-source", "/te%zzsts")], dropping: "ce-source"),
        note, 400, "malformed-cloudevent"
      ),
      ("a batch that is no array", .POST, "alice", batchType, good, 400, "malformed-cloudevent"),
      ("an empty batch", .POST, "alice", batchType, "[]", 400, "empty-batch"),
      (
        "a batch with one unknown type", .POST, "alice", batchType,
        "[\(good), \(unknown)]", 422, "unknown-type"
      ),
      (
        "a batch with one malformed element", .POST, "alice", batchType, "[\(good), {\"id\": 1}]", 400,
        "malformed-cloudevent"
      ),
      (
        "a batch of more than 5", .POST, "alice", batchType,
        many, 413, "too-large"
      ),
      (
        "a body over 64 KiB", .POST, "alice", structured,
        big, 413, "too-large"
      ),
      ("no Authorization", .POST, nil, structured, good, 401, "unauthenticated"),
      ("an unknown token", .POST, "mallory", structured, good, 401, "unauthenticated"),
      ("an authenticator that throws", .GET, "broken", [], nil, 401, "unauthenticated"),
      ("a reader that may not append", .POST, "bob", structured, good, 403, "forbidden"),
      ("appending to another's board", .POST, "carol", structured, good, 403, "forbidden"),
      ("a bad Last-Event-ID", .GET, "alice", [("Last-Event-ID", "not-a-position")], nil, 400, "bad-position"),
      ("a bad after", .GET, "alice", [("Accept", EventEnvelope.cloudEventBatchContentType)], nil, 400, "bad-position"),
      ("limit 0", .GET, "alice", [("Accept", EventEnvelope.cloudEventBatchContentType)], nil, 400, "bad-limit"),
      ("Accept: application/xml", .GET, "alice", [("Accept", "application/xml")], nil, 406, "not-acceptable"),
      ("a stream weighed 0", .GET, "alice", [("Accept", "text/event-stream;q=0")], nil, 406, "not-acceptable"),
      ("a subject the reader may not read", .GET, "bob", [], nil, 403, "forbidden"),
    ]
    let queries = [
      "a bad after": "?after=%7B%7D", "limit 0": "?limit=0",
      "a subject the reader may not read": "?type=\(NoteAdded.eventName)&subject=b2",
    ]
    #expect(cases.count == 39, "EventsToEveryClient.md counts 39 bad requests: update it too")
    try await withServer(endpoint) { url in
      for (what, method, token, headers, body, status, problem) in cases {
        let answer = try await send(
          request(url + (queries[what] ?? ""), method: method, token: token, headers: headers, body: body))
        #expect(answer.status == status, "\(what): \(answer.body)")
        #expect(answer.problem == problem, "\(what): \(answer.body)")
        #expect(
          answer.headers.first(name: "Content-Type") == "application/problem+json", "\(what)")
        #expect((answer.json["detail"] as? String).map { !$0.isEmpty } == true, "\(what)")
        #expect(!answer.body.contains("secret-detail"), "\(what)")
        // A POST refused for one of its events names it: the second of the batches here, the
        // only one of a single event; a body that could not be read names none.
        let expectedEvent: Int? =
          method == .POST && (status == 403 || status == 422)
          ? (headers.first?.1 == EventEnvelope.cloudEventBatchContentType ? 1 : 0) : nil
        #expect(answer.json["event"] as? Int == expectedEvent, "\(what): \(answer.body)")
      }
      #expect(try log.read().envelopes.isEmpty, "a refused request appended")
      // The batch's bad event is named by its index.
      let named = try await send(
        request(
          url, method: .POST, headers: batchType, body: "[\(good), \(noteJSON(id: "y", board: "b1", subject: "b9"))]"))
      #expect(named.json["event"] as? Int == 1)
      // And the server goes on.
      let answer = try await send(request(url, method: .POST, headers: structured, body: good))
      #expect(answer.status == 201)
    }
    #expect(try log.read().envelopes.map(\.id) == ["good"])
  }

  @Test("A page is a CloudEvents batch, with the position of the next page in Last-Event-ID")
  func pages() async throws {
    let log = try temporaryLog()
    let endpoint = boardEndpoint(log) { configuration in
      configuration.maximumPageSize = 3
    }
    try await withServer(endpoint) { url in
      try await postNotes(url, ids: 1...5, board: "b1")
      var after: String?
      var pages: [[String]] = []
      for _ in 0..<4 {
        let query = "?limit=2" + (after.map { "&after=\($0)" } ?? "")
        let answer = try await send(
          request(url + query, headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
        #expect(answer.status == 200)
        #expect(answer.headers.first(name: "Content-Type") == EventEnvelope.cloudEventBatchContentType)
        let envelopes = try EventEnvelope.envelopes(cloudEventBatchJSON: Data(answer.body.utf8))
        pages.append(envelopes.map(\.id))
        after = answer.headers.first(name: "Last-Event-ID")
      }
      #expect(pages == [["note-1", "note-2"], ["note-3", "note-4"], ["note-5"], []])
      // A limit above the maximum page size is held to it.
      let capped = try await send(
        request(url + "?limit=5000", headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      #expect(
        try EventEnvelope.envelopes(cloudEventBatchJSON: Data(capped.body.utf8)).map(\.id) == [
          "note-1", "note-2", "note-3",
        ])
    }
  }

  @Test("A page of one subject holds its limit of that subject's events, however many others lie between")
  func pagesPassOverOtherSubjects() async throws {
    let log = try temporaryLog()
    // Nine notes about other boards between two about b7, appended from Swift.
    try appendNotes(to: log, everyTenthAbout: "b7", from: 7)
    try await withServer(boardEndpoint(log)) { url in
      let page = [("Accept", EventEnvelope.cloudEventBatchContentType)]
      let first = try await send(request(url + "?subject=b7&limit=3", headers: page))
      #expect(
        try EventEnvelope.envelopes(cloudEventBatchJSON: Data(first.body.utf8)).map(\.id) == ["n7", "n17", "n27"])
      let after = try #require(first.headers.first(name: "Last-Event-ID"))
      let second = try await send(request(url + "?subject=b7&limit=3&after=\(after)", headers: page))
      #expect(
        try EventEnvelope.envelopes(cloudEventBatchJSON: Data(second.body.utf8)).map(\.id) == ["n37", "n47", "n57"])
    }
  }

  /// Appends notes `n0`…`n59` to `log`: those whose index ends in `digit` about `board`, each
  /// of the others about a board of its own.
  func appendNotes(to log: EventLog, everyTenthAbout board: String, from digit: Int) throws {
    try log.append(
      contentsOf: try (0..<60).map { index in
        try EventEnvelope(
          NoteAdded(board: BoardID(index % 10 == digit ? board : "other-\(index)"), text: "\(index)", author: "a"),
          id: "n\(index)", source: "/tests")
      })
  }

  @Test("Pages and streams pass over in the store what the principal's read scope leaves out")
  func pagesPassOverWhatTheReadScopeLeavesOut() async throws {
    let log = try temporaryLog()
    // Nine notes about other boards between two about b1, appended from Swift.
    try appendNotes(to: log, everyTenthAbout: "b1", from: 1)
    // bob may read board b1 only, and says so to the store too.
    var access = boardAccess
    access.readScope = { reader in
      guard let boards = reader.boards, boards.count == 1, let board = boards.first else { return .all }
      return EventReadFilter(subject: board)
    }
    let endpoint = EventsEndpoint(store: log, catalog: GeneratedEvents.catalog, access: access)
    try await withServer(endpoint) { url in
      let page = [("Accept", EventEnvelope.cloudEventBatchContentType)]
      // A page of three holds three of bob's, however many others lie between.
      let first = try await send(request(url + "?limit=3", token: "bob", headers: page))
      #expect(
        try EventEnvelope.envelopes(cloudEventBatchJSON: Data(first.body.utf8)).map(\.id) == ["n1", "n11", "n21"])
      // A subject outside the scope, which bob may read nothing about: 403, no event.
      let other = try await send(request(url + "?subject=other-2", token: "bob", headers: page))
      #expect(other.status == 403)
      #expect(other.problem == "forbidden")
      // alice's scope is everything.
      let all = try await send(request(url + "?limit=3", token: "alice", headers: page))
      #expect(
        try EventEnvelope.envelopes(cloudEventBatchJSON: Data(all.body.utf8)).map(\.id) == ["n0", "n1", "n2"])
    }
  }

  @Test("An event without a source gets the default one; one that is no CloudEvent is left out of pages and streams")
  func eventsThatAreNoCloudEvents() async throws {
    let log = try temporaryLog()
    let endpoint = boardEndpoint(log) { configuration in
      configuration.defaultSource = "/board-service"
    }
    let note = NoteAdded(board: BoardID("b1"), text: "hello", author: "a")
    try await log.append(try EventEnvelope(note, id: "unsourced"))
    // CloudEvents allows lowercase letters and digits in an attribute's name, nothing else: a log
    // refuses such metadata now, but one written before it did may hold it.
    try await log.append(try EventEnvelope(note, id: "not-cloudevent", source: "/s", metadata: ["badkey": "x"]))
    let written = try String(contentsOf: log.url, encoding: .utf8)
    try written.replacingOccurrences(of: #""badkey""#, with: #""Bad-Key""#).write(
      to: log.url, atomically: false, encoding: .utf8)
    try await log.append(try EventEnvelope(note, id: "last", source: "/s"))
    try await withServer(endpoint) { url in
      let page = try await send(request(url, headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      #expect(page.status == 200)
      let envelopes = try EventEnvelope.envelopes(cloudEventBatchJSON: Data(page.body.utf8))
      #expect(envelopes.map(\.id) == ["unsourced", "last"])
      #expect(envelopes.map(\.source) == ["/board-service", "/s"])

      let (_, stream) = try await openStream(url)
      var reader = stream
      let frames = try await reader.events(2)
      #expect(frames.compactMap(\.note).count == 2)
      let ids = try frames.map { try EventEnvelope(cloudEventJSON: Data(try #require($0.data).utf8)).id }
      #expect(ids == ["unsourced", "last"])
    }
  }

  @Test("Streams answer 503 while the endpoint's service is not running; pages and appends work")
  func streamsNeedTheService() async throws {
    let log = try temporaryLog()
    let endpoint = boardEndpoint(log)
    try await withServer(endpoint, runningEndpoint: false) { url in
      let stream = try await send(request(url, headers: [("Accept", "text/event-stream")]))
      #expect(stream.status == 503)
      #expect(stream.problem == "feed-not-running")
      try await postNotes(url, ids: 1...2, board: "b1")
      let page = try await send(request(url, headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      #expect(try EventEnvelope.envelopes(cloudEventBatchJSON: Data(page.body.utf8)).count == 2)
    }
  }

  @Test("A stream delivers every event as it is appended, and resumes exactly after its Last-Event-ID")
  func streamsAndResumes() async throws {
    let log = try temporaryLog()
    let endpoint = boardEndpoint(log) { configuration in
      // A feed smaller than what a resumed stream missed: it reads the store, then joins the feed.
      configuration.feedCapacity = 8
      configuration.pollInterval = .milliseconds(100)
    }
    try await withServer(endpoint) { url in
      try await postNotes(url, ids: 1...10, board: "b1")
      var (_, reader) = try await openStream(url)
      let early = try await reader.events(10)
      try await postNotes(url, ids: 11...40, board: "b2")
      let late = try await reader.events(30)
      let frames = early + late
      #expect(
        frames.compactMap(\.note).map(\.board.rawValue) == Array(repeating: "b1", count: 10)
          + Array(repeating: "b2", count: 30))
      #expect(frames.allSatisfy { $0.event == NoteAdded.eventName })
      #expect(Set(frames.compactMap(\.id)).count == 40)
      let ids = frames.compactMap { $0.data.flatMap { try? EventEnvelope(cloudEventJSON: Data($0.utf8)) }?.id }
      #expect(ids == (1...40).map { "note-\($0)" })
      // Each id is its position's JSON with the store's identity, in base64url without padding.
      let positions = try await log.read(after: nil, limit: 100).envelopes.map(\.position)
      let store = try await log.storeIdentity()
      #expect(frames.compactMap(\.id) == positions.map { documentedToken($0, store: store) })
      // A token given out before tokens carried the store still resumes, where an event ends.
      var (_, legacy) = try await openStream(url, lastEventID: documentedToken(positions[38], store: nil))
      #expect(try await legacy.events(1).first?.id == documentedToken(positions[39], store: store))
      // Resumed after the 12th: the 13th to the 40th, read from the store, then new ones from the feed.
      var (_, resumed) = try await openStream(url, lastEventID: frames[11].id)
      let rest = try await resumed.events(28)
      try await postNotes(url, ids: 41...45, board: "b1")
      let newer = try await resumed.events(5)
      let resumedIDs = (rest + newer).compactMap {
        $0.data.flatMap { try? EventEnvelope(cloudEventJSON: Data($0.utf8)) }?.id
      }
      #expect(resumedIDs == (13...45).map { "note-\($0)" })
      // `?after=` does the same as the header; filters select a type and a subject.
      var (_, filtered) = try await openStream(
        url, query: "?after=\(frames[0].id ?? "")&type=\(NoteAdded.eventName)&subject=b1")
      let b1 = try await filtered.events(14)
      #expect(b1.compactMap(\.note).map(\.text).count == 14)
      #expect(b1.compactMap(\.note).allSatisfy { $0.board.rawValue == "b1" })
    }
  }

  @Test("A reader allowed one subject never receives another's event, in a stream or a page")
  func readersSeeTheirSubjectsOnly() async throws {
    let log = try temporaryLog()
    let endpoint = boardEndpoint(log)
    try await withServer(endpoint) { url in
      try await postNotes(url, ids: 1...6, board: "b2")
      try await postNotes(url, ids: 7...9, board: "b1")
      var (_, reader) = try await openStream(url, token: "bob")
      try await postNotes(url, ids: 10...20, board: "b2")
      try await postNotes(url, ids: 21...22, board: "b1")
      let frames = try await reader.events(5)
      #expect(frames.compactMap(\.note).map(\.board.rawValue) == Array(repeating: "b1", count: 5))
      let page = try await send(
        request(url + "?limit=100", token: "bob", headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      let envelopes = try EventEnvelope.envelopes(cloudEventBatchJSON: Data(page.body.utf8))
      #expect(envelopes.count == 5)
      #expect(
        envelopes.allSatisfy { $0.subject == "b1" && !String(decoding: $0.payload, as: UTF8.self).contains("b2") })
    }
  }

  @Test("A stream whose events are all filtered out moves its client's Last-Event-ID with its heartbeat")
  func heartbeatsCarryThePositionPastFilteredEvents() async throws {
    let log = try temporaryLog()
    let endpoint = boardEndpoint(log) { configuration in
      configuration.heartbeatInterval = .milliseconds(300)
      configuration.pollInterval = .milliseconds(100)
    }
    try await withServer(endpoint) { url in
      var (_, reader) = try await openStream(url, token: "bob")
      try await postNotes(url, ids: 1...5, board: "b2")
      // Where the store ends now, as a page for alice (who sees everything) says.
      let all = try await send(
        request(url, token: "alice", headers: [("Accept", EventEnvelope.cloudEventBatchContentType)]))
      let end = try #require(all.headers.first(name: "Last-Event-ID"))
      // The stream may pass the five in more than one step, each heartbeat naming where it is:
      // it reaches the end without sending bob a frame with data.
      var id: String?
      while id != end, let frame = try await reader.next() {
        #expect(frame.data == nil, "bob received an event of b2")
        if frame.comment == "heartbeat", let moved = frame.id { id = moved }
      }
      // Resumed from it: the b2 events are behind; the next b1 event is the first.
      let passed = try #require(id)
      #expect(passed == end)
      var (_, resumed) = try await openStream(url, token: "bob", lastEventID: passed)
      try await postNotes(url, ids: 6...6, board: "b1")
      let next = try await resumed.events(1)
      #expect(next.compactMap(\.note).map(\.board.rawValue) == ["b1"])
      let page = try await send(
        request(
          url, token: "alice",
          headers: [("Accept", EventEnvelope.cloudEventBatchContentType), ("Last-Event-ID", passed)]))
      #expect(try EventEnvelope.envelopes(cloudEventBatchJSON: Data(page.body.utf8)).map(\.id) == ["note-6"])
    }
  }

  @Test(
    "A stream without a position starts at the store's beginning, whether the store was empty when the feed started or not"
  )
  func aStreamWithoutAPositionStartsAtTheBeginning() async throws {
    // The stream starts the feed. On an empty store it joins the feed at once; with events
    // before, it reads the store first. Both see every event once, in order.
    let log = try temporaryLog()
    for (run, ids) in [(1, 1...5), (2, 6...10)] {
      let endpoint = boardEndpoint(log) { $0.pollInterval = .milliseconds(100) }
      try await withServer(endpoint) { url in
        var (_, reader) = try await openStream(url)
        try await postNotes(url, ids: ids, board: "b\(run)")
        let frames = try await reader.events(ids.upperBound)
        let received = frames.compactMap { $0.data.flatMap { try? EventEnvelope(cloudEventJSON: Data($0.utf8)) }?.id }
        #expect(received == (1...ids.upperBound).map { "note-\($0)" })
      }
    }
  }

  @Test("A quiet stream sends a heartbeat comment")
  func heartbeats() async throws {
    let log = try temporaryLog()
    let endpoint = boardEndpoint(log) { configuration in
      configuration.heartbeatInterval = .milliseconds(200)
      configuration.pollInterval = .milliseconds(100)
    }
    try await withServer(endpoint) { url in
      let start = ContinuousClock.now
      var (_, reader) = try await openStream(url)
      var comments: [String] = []
      while comments.count < 2, let frame = try await reader.next() {
        if let comment = frame.comment { comments.append(comment) }
      }
      #expect(comments == ["heartbeat", "heartbeat"])
      // At the interval set: the default's (15 s) would take 30 s. (A wide bound: the other
      // tests load the machine.)
      #expect(ContinuousClock.now - start < .seconds(15))
    }
  }
}
