import Foundation
import Testing

@testable import TypedEvents

@Suite("Appending once by CloudEvents source and id")
struct IdempotentAppendTests {
  func temporaryLog() -> EventLog {
    EventLog(url: FileManager.default.temporaryDirectory.appendingPathComponent("once-\(UUID().uuidString).jsonl"))
  }

  func tick(_ id: String, _ count: Int = 1, source: String = "/a") throws -> EventEnvelope {
    try EventEnvelope(Tick(count: count), id: id, source: source)
  }

  @Test("A retried append stores nothing and answers the first positions")
  func aRetryStoresNothing() async throws {
    let log = temporaryLog()
    let first = try await log.appendOnce([try tick("1"), try tick("2")])
    #expect(first.map(\.wasStored) == [false, false])
    // The same pairs again, one with other content: what came first stays.
    let again = try await log.appendOnce([try tick("2", 99), try tick("1"), try tick("3")])
    #expect(again.map(\.wasStored) == [true, true, false])
    #expect(again[0].position == first[1].position)
    #expect(again[1].position == first[0].position)
    #expect(try log.read().envelopes.map(\.id) == ["1", "2", "3"])
    #expect(try log.read().envelopes[1].payload == (try tick("2")).payload)
  }

  @Test("Envelopes a caller validated are stored as validated ones are, and answered alike")
  func validatedEnvelopesAppendAlike() async throws {
    let checked = temporaryLog()
    let trusted = temporaryLog()
    let batch = [try tick("1"), try tick("2", 2, source: "/b"), try tick("1")]
    let answers = try await checked.appendOnce(batch)
    #expect(try await trusted.appendOnce(validated: batch) == answers)
    #expect(try Data(contentsOf: trusted.url) == Data(contentsOf: checked.url))
  }

  #if DEBUG
    @Test("A debug build stops at an envelope said to be validated that validate() refuses")
    func unvalidatedEnvelopeStopsADebugBuild() async {
      // An upper-case extension name, which no CloudEvents reader takes: a caller whose own
      // checks fell short of validate() is caught by its tests, not by its readers.
      await #expect(processExitsWith: .failure) {
        let log = EventLog(
          url: FileManager.default.temporaryDirectory.appendingPathComponent("once-\(UUID().uuidString).jsonl"))
        var envelope = try EventEnvelope(Tick(count: 1), id: "1", source: "/a")
        envelope.metadata["Region"] = .string("eu")
        _ = try await log.appendOnce(validated: [envelope])
      }
    }
  #endif

  @Test("The identity is source and id: the same id from another source is another event")
  func sourceAndIDTogether() async throws {
    let log = temporaryLog()
    let answers = try await log.appendOnce([
      try tick("1", source: "/a"), try tick("1", source: "/b"), try tick("1", source: "/a"),
    ])
    #expect(answers.map(\.wasStored) == [false, false, true])
    #expect(answers[2].position == answers[0].position)
    #expect(try log.read().envelopes.map(\.source) == ["/a", "/b"])
    // Compared as bytes, as PostgreSQL and other languages compare them: `é` in NFC and in NFD
    // are two ids, though Swift's `==` takes them for one.
    let nfc = try tick("caf\u{E9}", source: "/a")
    let nfd = try tick("cafe\u{301}", source: "/a")
    #expect(nfc.id == nfd.id)
    let normalized = try await log.appendOnce([nfc, nfd, nfd])
    #expect(normalized.map(\.wasStored) == [false, false, true])
    #expect(normalized[0].position != normalized[1].position)
  }

  @Test("Envelopes another writer appended count: the log reads what it has not indexed yet")
  func otherWritersCount() async throws {
    let log = temporaryLog()
    _ = try await log.appendOnce([try tick("1")])
    try await EventLog(url: log.url).append(try tick("2"))
    let answers = try await log.appendOnce([try tick("2"), try tick("3")])
    #expect(answers.map(\.wasStored) == [true, false])
    #expect(try log.read().envelopes.map(\.id) == ["1", "2", "3"])
  }

  @Test("The end position: reading after it gives only what is appended later")
  func endPosition() async throws {
    let log = temporaryLog()
    #expect(try await log.endPosition() == .start)
    _ = try await log.appendOnce((1...3).map { try tick("\($0)") })
    let end = try await log.endPosition()
    #expect(end == (try log.read(after: nil).next))
    _ = try await log.appendOnce([try tick("4")])
    #expect(try await log.read(after: end, limit: 10).envelopes.map(\.envelope.id) == ["4"])
  }

  @Test("A stored envelope's position is where reading after it goes on with the next one")
  func positionsResumeAfterTheEnvelope() async throws {
    let log = temporaryLog()
    let answers = try await log.appendOnce((1...4).map { try tick("\($0)") })
    let batch = try await log.read(after: nil, limit: 10)
    #expect(batch.envelopes.map(\.position) == answers.map(\.position))
    for (index, stored) in batch.envelopes.enumerated() {
      let rest = try await log.read(after: stored.position, limit: 10)
      #expect(rest.envelopes.map(\.envelope.id) == Array(batch.envelopes.map(\.envelope.id).dropFirst(index + 1)))
    }
  }

  @Test("Every append but one of envelopes said to be validated checks each, and appends none of a refused call")
  func everyOtherAppendValidates() async throws {
    let log = temporaryLog()
    _ = try await log.appendOnce([try tick("1")])
    var twoLines = try tick("4")
    twoLines.payload = Data("{\n}".utf8)
    var spread = try tick("5")
    spread.payload = Data("[1,\n2]".utf8)
    var noName = try tick("6")
    noName.name = ""
    var noID = try tick("7")
    noID.id = ""
    var upperCase = try tick("8")
    upperCase.metadata["Region"] = .string("eu")
    for refused in [twoLines, spread, noName, noID, upperCase] {
      await #expect(throws: EventLogError.self, "\(refused.id)") {
        try await log.appendOnce([try tick("9"), refused])
      }
      #expect(throws: EventLogError.self, "\(refused.id)") {
        try log.append(contentsOf: [try tick("9"), refused])
      }
    }
    // A payload that begins like an object but is no JSON, refused saying where.
    var broken = try tick("10")
    broken.payload = Data(#"{"count":"#.utf8)
    let notJSON = EventLogError.malformed(
      "the payload of \(broken.name) 10 is not JSON at line 1, column 10 (byte 9): "
        + "the JSON text ends where a value or a closing bracket must come")
    await #expect(throws: notJSON) {
      try await log.appendOnce([broken])
    }
    #expect(throws: notJSON) {
      try log.append(contentsOf: [broken])
    }
    #expect(try log.read().envelopes.map(\.id) == ["1"])
  }
}
