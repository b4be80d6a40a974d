import Foundation
import TestSupport
import Testing

@testable import TypedEvents

@Suite("Envelopes and the event log")
struct EventLogTests {
  let catalog = EventCatalog([Tick.self, Tock.self])

  func temporaryLog() -> EventLog {
    EventLog(url: FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString).jsonl"))
  }

  @Test func theCatalogFindsTypesByWireName() {
    #expect(catalog.type(named: "Test.Tick") == Tick.self)
    #expect(catalog.type(named: "Test.Nope") == nil)
    #expect(catalog.eventNames == ["Test.Tick", "Test.Tock"])
    #expect(EventCatalog([Tick.self]).merging(EventCatalog([Tock.self])).count == 2)
  }

  @Test func theCatalogFindsTypesByEveryNameTheyAccept() throws {
    let catalog = EventCatalog([Change.self, Tick.self, Notice.self])
    #expect(catalog.count == 3)
    #expect(catalog.type(named: "item.updated") == Change.self)
    // A type's own name wins over another type's listed one, whatever the order.
    #expect(catalog.type(named: "Test.Tick") == Tick.self)
    #expect(catalog.type(named: "gov.notice.sent") == Notice.self)
    #expect(catalog.type(named: "xgov.notice.sent") == nil)
    #expect(catalog.eventNames == ["Test.Tick", "gov.notice.received", "item.created", "item.updated"])
    // Merging keeps the patterns.
    #expect(EventCatalog([Tick.self]).merging(EventCatalog([Notice.self])).type(named: "gov.notice.x") == Notice.self)

    // The envelope keeps the type that came; the event decodes through the catalog.
    let json = #"{"specversion":"1.0","id":"1","source":"/gov","type":"gov.notice.sent","data":{"text":"t"}}"#
    let envelope = try EventEnvelope(cloudEventJSON: Data(json.utf8))
    #expect(try envelope.decode(using: catalog) as? Notice == Notice(text: "t"))
    #expect(envelope.name == "gov.notice.sent")

    // Published from Swift: its own name, or another it accepts when the app names one.
    #expect(try EventEnvelope(Notice(text: "t")).name == "gov.notice.received")
    #expect(try EventEnvelope(Notice(text: "t"), name: "gov.notice.sent").name == "gov.notice.sent")
    #expect(try EventEnvelope(Change(), name: "item.updated").name == "item.updated")
    #expect(throws: EventLogError.self) { try EventEnvelope(Notice(text: "t"), name: "other.notice") }
    #expect(throws: EventLogError.self) { try EventEnvelope(Tick(count: 1), name: "Test.Tock") }
  }

  @Test func anEnvelopeRoundTripsThroughTheCatalog() throws {
    let envelope = try EventEnvelope(Tick(count: 4))
    #expect(envelope.name == "Test.Tick")
    #expect(envelope.version == 1)
    #expect(try envelope.decode(using: catalog) as? Tick == Tick(count: 4))
    #expect(throws: EventLogError.unknownEvent("Test.Tick")) { try envelope.decode(using: EventCatalog([])) }
  }

  @Test func aLogReplaysIntoABusInOrder() throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    try log.append(Tick(count: 1))
    try log.append(Tock(source: "z"))
    try log.append(Tick(count: 2))
    let text = String(decoding: try Data(contentsOf: log.url), as: UTF8.self)
    #expect(text.split(separator: "\n").count == 3)
    #expect(text.contains(#""payload":{"count":1,"source":"a"}"#))

    let bus = RecordingEventBus()
    let report = try log.replay(into: bus, using: catalog)
    #expect(report.replayed == 3)
    #expect(report.problems.isEmpty)
    #expect(bus.publishedNames == ["Test.Tick", "Test.Tock", "Test.Tick"])
    #expect(bus.published(Tick.self).map(\.count) == [1, 2])
  }

  @Test func aTornLastLineIsReportedAndSkippedAndTheNextAppendStartsANewLine() throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    try log.append(Tick(count: 1))
    try log.append(Tick(count: 2))
    // A crash in the middle of writing the third line.
    let handle = try FileHandle(forWritingTo: log.url)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(#"{"id":"6F0D","name":"Test.Ti"#.utf8))
    try handle.close()

    var (envelopes, problems) = try log.read()
    #expect(envelopes.count == 2)
    #expect(problems.count == 1)
    #expect(problems.first?.line == 3)
    #expect(problems.first?.reason.hasPrefix("torn last line") == true)

    try log.append(Tick(count: 3))
    (envelopes, problems) = try log.read()
    #expect(try envelopes.map { try $0.decode(using: catalog) as? Tick }.map { $0?.count } == [1, 2, 3])
    #expect(problems.map(\.line) == [3])
  }

  @Test func anEventOfAnUnknownTypeIsReportedNotFatal() throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    try log.append(Tock())
    try log.append(Tick(count: 1))
    let bus = RecordingEventBus()
    let report = try log.replay(into: bus, using: EventCatalog([Tick.self]))
    #expect(report.replayed == 1)
    #expect(report.problems.map(\.line) == [1])
    #expect(report.problems.first?.reason.contains("no event type named Test.Tock") == true)
  }

  @Test func twoLogsOnOneFileAppendWithoutOverwritingEachOther() async throws {
    let first = temporaryLog()
    let second = EventLog(url: first.url)
    defer { try? FileManager.default.removeItem(at: first.url) }
    // Each EventLog has its own writer thread: only O_APPEND keeps their lines apart.
    await withTaskGroup(of: Void.self) { group in
      for log in [first, second] {
        group.addTask {
          for count in 0..<200 { _ = try? await log.append(Tick(count: count)) }  // failures show in the count
        }
      }
    }
    let (envelopes, problems) = try first.read()
    #expect(problems.isEmpty)
    #expect(envelopes.count == 400)
  }

  @Test func anEnvelopeCarriesTheSubjectAndMetadataThroughTheLog() throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    let time = Date(timeIntervalSinceReferenceDate: 785_000_000.1234567)
    let written = try log.append(Tick(source: "s-1", count: 7), time: time, metadata: ["trace": "abc", "service": "x"])
    #expect(written.subject == "s-1")
    let (envelopes, problems) = try log.read()
    #expect(problems.isEmpty)
    #expect(envelopes == [written])
    #expect(envelopes.first?.time == time)
    #expect(try envelopes.first?.decode(using: catalog) as? Tick == Tick(source: "s-1", count: 7))
  }

  @Test func anEnvelopeFromElsewhereComesBackWhole() throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    // A CloudEvent's id is any string, its time optional, its extensions typed.
    let foreign = EventEnvelope(
      id: "A234-1234-1234", source: "https://github.com/cloudevents/spec/pull", time: nil, name: "Test.Tick",
      version: 2, subject: "123", dataContentType: "application/json; charset=utf-8",
      dataSchema: "https://example.com/tick.json", metadata: ["retries": 3, "replayed": true, "region": "eu"],
      payload: Data(#"{"count":5,"source":"123"}"#.utf8))
    try log.append(foreign)
    let (envelopes, problems) = try log.read()
    #expect(problems.isEmpty)
    #expect(envelopes == [foreign])
    #expect(
      try envelopes.first?.decode(using: catalog, acceptingNewerVersions: true) as? Tick
        == Tick(source: "123", count: 5))
  }

  @Test func linesWrittenBeforeCloudEventsEnvelopesReadExactly() throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    // What the log wrote before: a UUID id, 17 digits of fraction, string metadata, no source.
    let line =
      #"{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","metadata":{"trace":"abc"},"name":"Test.Tick","#
      + #""time":"2025-11-16T15:33:20.12345671653747559Z","version":1,"payload":{"count":7}}"# + "\n"
    try Data(line.utf8).write(to: log.url)
    let (envelopes, problems) = try log.read()
    #expect(problems.isEmpty)
    let envelope = try #require(envelopes.first)
    #expect(envelope.id == UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")?.uuidString)
    #expect(envelope.time == Date(timeIntervalSinceReferenceDate: 785_000_000.1234567))
    #expect(envelope.metadata == ["trace": "abc"])
    #expect(envelope.source == nil)
  }

  @Test func thePayloadIsKeptByteForByte() throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    // Parsing and writing again would round both numbers to a Double's digits.
    let payload = Data(
      #"{"count":1,"source":"a","exact":0.1000000000000000055511151231257827,"huge":123456789012345678901234567890}"#
        .utf8)
    let envelope = EventEnvelope(id: UUID().uuidString, time: Date(), name: "Test.Tick", version: 1, payload: payload)
    try log.append(envelope)
    #expect(try log.read().envelopes.first?.payload == payload)
  }

  @Test(arguments: [
    ("{\n}", "more than one line"), ("{\"a\":1}\n{\"b\":2}", "more than one line"), ("[1,\n2]", "more than one line"),
    ("{\"a\":\r1}", "more than one line"),
    ("not json", "not JSON"), ("", "not JSON"), (#"{"a":1} trailing"#, "not JSON"),
  ])
  func anEnvelopeWhosePayloadIsNotOneLineOfJSONIsRefusedAndNothingIsWritten(payload: String, reason: String) throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    let good = try EventEnvelope(Tick(count: 1))
    let bad = EventEnvelope(
      id: UUID().uuidString, time: Date(), name: "Test.Tick", version: 1, payload: Data(payload.utf8))
    #expect {
      try log.append(contentsOf: [good, bad])
    } throws: { error in
      "\(error)".contains(reason)
    }
    #expect(!FileManager.default.fileExists(atPath: log.url.path))
    #expect(throws: EventLogError.self) {
      try log.append(EventEnvelope(id: UUID().uuidString, time: Date(), name: "", version: 1, payload: Data("{}".utf8)))
    }
  }

  @Test func aPayloadThatIsAnyJSONValueIsKeptAsWritten() throws {
    // A message whose payload is a string, a number, a Boolean or an array is an event too.
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    let payloads = [#"[1,{"a":"b"},[]]"#, #""text, with \"quotes\"""#, "12.50", "true", "[]", #"{"a":1}"#]
    let envelopes = payloads.map {
      EventEnvelope(id: UUID().uuidString, time: Date(), name: "Test.Any", version: 1, payload: Data($0.utf8))
    }
    try log.append(contentsOf: envelopes)
    #expect(try log.read().envelopes.map { String(decoding: $0.payload, as: UTF8.self) } == payloads)
    #expect(try log.read().problems.isEmpty)
  }

  @Test func readingFromAPositionGoesOnWhereTheLastReadStopped() throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    try log.append(contentsOf: (1...5).map { try EventEnvelope(Tick(count: $0)) })
    let first = try log.read(limit: 2)
    #expect(first.entries.count == 2)
    let rest = try log.read(after: first.next)
    #expect(try rest.entries.map { try $0.envelope.decode(using: catalog) as? Tick }.map { $0?.count } == [3, 4, 5])
    #expect(rest.entries.first?.position == first.next)
    // Nothing new: the same position back.
    let none = try log.read(after: rest.next)
    #expect(none.entries.isEmpty && none.next == rest.next)
    try log.append(Tick(count: 6))
    #expect(try log.read(after: rest.next).entries.count == 1)
  }

  @Test func aLineStillBeingWrittenIsLeftForTheNextRead() throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    try log.append(Tick(count: 1))
    let other = temporaryLog()
    defer { try? FileManager.default.removeItem(at: other.url) }
    try other.append(Tick(count: 2))
    let line = try Data(contentsOf: other.url)
    let handle = try FileHandle(forWritingTo: log.url)
    try handle.seekToEnd()
    try handle.write(contentsOf: line.prefix(20))
    let partial = try log.read()
    #expect(partial.envelopes.count == 1 && partial.problems.count == 1)  // whole-log reading reports it
    let polled = try log.read(after: nil)
    #expect(polled.entries.count == 1 && polled.problems.isEmpty)  // a poller waits for the rest
    try handle.write(contentsOf: line.dropFirst(20))
    try handle.close()
    let finished = try log.read(after: polled.next)
    #expect(finished.entries.count == 1 && finished.problems.isEmpty)
  }

  @Test func eventsOfANewerVersionAreSkippedAndReportedUnlessAccepted() throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    var newer = try EventEnvelope(Tick(count: 2))
    newer.version = 3
    try log.append(Tick(count: 1))
    try log.append(newer)
    let skipping = try log.replay(into: RecordingEventBus(), using: catalog)
    #expect(skipping.replayed == 1)
    #expect(skipping.problems.map(\.line) == [2])
    #expect(skipping.problems.first?.reason.contains("version 3 is newer than version 1") == true)
    let bus = RecordingEventBus()
    let accepting = try log.replay(into: bus, using: catalog, acceptingNewerVersions: true)
    #expect(accepting.replayed == 2 && accepting.problems.isEmpty)
    #expect(bus.published(Tick.self).map(\.count) == [1, 2])
  }

  @Test func replayGoesOnFromAPosition() throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    try log.append(contentsOf: (1...4).map { try EventEnvelope(Tick(count: $0)) })
    let position = try log.read(limit: 3).next
    let bus = RecordingEventBus()
    #expect(try log.replay(into: bus, using: catalog, after: position).replayed == 1)
    #expect(bus.published(Tick.self).map(\.count) == [4])
  }

  @Test func linesLongerThanAReadBlockAreRead() throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    let long = String(repeating: "ü", count: 100_000)  // 200 KB, three blocks
    try log.append(Tick(source: long, count: 1))
    try log.append(Tick(count: 2))
    let (envelopes, problems) = try log.read()
    #expect(problems.isEmpty)
    #expect(try envelopes.first.map { try $0.decode(using: catalog) as? Tick }??.source == long)
    #expect(envelopes.count == 2)
  }

  @Test("A log's identity is its first line's, and its positions are where lines end")
  func identityAndPositions() async throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    #expect(try await log.storeIdentity() == nil)
    #expect(try await log.isPosition(.start))
    #expect(try await !log.isPosition(EventLog.Position(offset: 1)))
    try await log.append(contentsOf: [
      try EventEnvelope(Tick(count: 1), id: "1"), try EventEnvelope(Tick(count: 2), id: "2"),
    ])
    let identity = try #require(try await log.storeIdentity())
    // Every object over the file, and every later append, gives the same one.
    try await log.append(try EventEnvelope(Tick(count: 3), id: "3"))
    #expect(try await EventLog(url: log.url).storeIdentity() == identity)
    let ends = try await log.read(after: nil, limit: 10).envelopes.map(\.position)
    for end in [EventLog.Position.start] + ends { #expect(try await log.isPosition(end), "\(end)") }
    let size = try #require(ends.last).offset
    for offset in [1, ends[0].offset - 1, ends[0].offset + 1, size + 1, size + 1_000, -1] {
      #expect(try await !log.isPosition(EventLog.Position(offset: offset)), "\(offset)")
    }
    // Another log, even of the same events with other ids, is another store.
    let other = temporaryLog()
    defer { try? FileManager.default.removeItem(at: other.url) }
    try await other.append(try EventEnvelope(Tick(count: 1), id: "1b"))
    #expect(try await other.storeIdentity() != identity)
  }

  @Test("A read bounded in bytes ends before the line that would pass them, and always takes one")
  func readsBoundedInBytes() async throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    let big = String(repeating: "x", count: 1_000)
    try await log.append(contentsOf: try (1...5).map { try EventEnvelope(Tick(source: big, count: $0), id: "\($0)") })
    let lines = try await log.read(after: nil, limit: 10).envelopes
    let line = Int(lines[0].position.offset)
    var ids: [String] = []
    var position: EventLog.Position?
    var reads = 0
    while true {
      let batch = try await log.read(after: position, limit: 10, maximumBytes: 2 * line + 10)
      if batch.envelopes.isEmpty { break }
      #expect(batch.envelopes.count <= 2)
      ids += batch.envelopes.map(\.envelope.id)
      position = batch.next
      reads += 1
    }
    #expect(ids == ["1", "2", "3", "4", "5"])
    #expect(reads == 3)
    // A budget below one line still takes one.
    #expect(try await log.read(after: nil, limit: 10, maximumBytes: 1).envelopes.map(\.envelope.id) == ["1"])
  }

  @Test("A line that is no envelope, where a read bounded in bytes ends, is reported once: by the read that passes it")
  func aBadLineAtTheByteCutIsReportedOnce() async throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    let big = String(repeating: "x", count: 1_000)
    try await log.append(try EventEnvelope(Tick(source: big, count: 1), id: "1"))
    let handle = try FileHandle(forWritingTo: log.url)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(("{\"not\": \"an envelope, " + big + "\"}\n").utf8))
    try handle.close()
    try await log.append(try EventEnvelope(Tick(source: big, count: 3), id: "3"))
    var ids: [String] = []
    var skipped: [String] = []
    var position: EventLog.Position?
    for _ in 0..<10 {
      // Room for one line: the first of each read comes whatever its size, the next does not.
      let batch = try await log.read(after: position, limit: 10, maximumBytes: 10)
      ids += batch.envelopes.map(\.envelope.id)
      skipped += batch.skipped
      if batch.next == position { break }
      position = batch.next
    }
    #expect(ids == ["1", "3"])
    #expect(skipped.count == 1, "\(skipped)")
  }

  @Test("A filtered read passes over other types and subjects; its limit and bytes count only what it keeps")
  func filteredReads() async throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    // One wanted event in ten: a tick about the UUID, among ticks about another subject and tocks
    // about the same one.
    let wanted = UUID()
    let filler = String(repeating: "x", count: 500)
    try await log.append(
      contentsOf: try (0..<100).map { index -> EventEnvelope in
        if index % 10 == 9 { return try EventEnvelope(Tick(source: wanted.uuidString, count: index), id: "\(index)") }
        if index % 2 == 0 { return try EventEnvelope(Tick(source: filler, count: index), id: "\(index)") }
        return try EventEnvelope(Tock(source: wanted.uuidString), id: "\(index)")
      })
    // Asked for as another language writes a UUID: lower case.
    let filter = EventReadFilter(types: [Tick.eventName], subject: wanted.uuidString.lowercased())
    let first = try await log.read(after: nil, limit: 3, maximumBytes: .max, matching: filter)
    #expect(first.envelopes.map(\.envelope.id) == ["9", "19", "29"])
    // The limit stopped it: the next read starts after the last event kept.
    #expect(first.next == first.envelopes.last?.position)
    let rest = try await log.read(after: first.next, limit: 100, maximumBytes: .max, matching: filter)
    #expect(rest.envelopes.map(\.envelope.id) == stride(from: 39, to: 100, by: 10).map { "\($0)" })
    // The end reached: past every event, wanted or not.
    #expect(rest.next == (try await log.endPosition()))
    // Bytes count what is kept: a budget of one and a half kept lines keeps one, however many
    // bytes of other events lie between.
    let line = Int(first.envelopes[0].position.offset - (try await log.read(after: nil, limit: 9).next?.offset ?? 0))
    let bounded = try await log.read(after: nil, limit: 10, maximumBytes: line * 3 / 2, matching: filter)
    #expect(bounded.envelopes.map(\.envelope.id) == ["9"])
    // Without a filter, the same read as before.
    let all = try await log.read(after: nil, limit: 5, maximumBytes: .max, matching: .all)
    #expect(all.envelopes.map(\.envelope.id) == ["0", "1", "2", "3", "4"])
  }

  @Test("A filtered read looks at its limit and 10,000 more lines, and passes over at most its byte margin")
  func filteredReadsAreBounded() async throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    let other = try (0..<10_010).map { try EventEnvelope(Tick(source: "other", count: $0), id: "o\($0)") }
    try await log.append(contentsOf: other + [try EventEnvelope(Tick(source: "wanted", count: 0), id: "w")])
    let filter = EventReadFilter(subject: "wanted")
    let all = try await log.read(after: nil, limit: 10_011)
    // Limit 3: 10,003 lines looked at, none kept; the next read goes on after them.
    let first = try await log.read(after: nil, limit: 3, maximumBytes: .max, matching: filter)
    #expect(first.envelopes.isEmpty)
    #expect(first.next == all.envelopes[10_002].position)
    let second = try await log.read(after: first.next, limit: 3, maximumBytes: .max, matching: filter)
    #expect(second.envelopes.map(\.envelope.id) == ["w"])
    // Bytes: a margin of two and a half lines passes over three, then stops.
    let line = Int(all.envelopes[1].position.offset - all.envelopes[0].position.offset)
    let bounded = try log.storedBatch(
      after: nil, limit: 3, matching: filter, passingOverAtMost: line * 5 / 2)
    #expect(bounded.envelopes.isEmpty)
    #expect(bounded.next == all.envelopes[2].position)
    #expect(EventLog.filteredReadByteMargin == 64 << 20)
  }

  @Test("A filtered read does not decode the lines it passes over, and decodes every line whose header it cannot read")
  func filteredReadsPassOverLinesUndecoded() async throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    let lines = [
      // Another type, its payload broken: a read that decoded the line would report it.
      #"{"id":"1","name":"Test.Tock","subject":"a","version":1,"payload":{"source":"a",}}"#,
      // The wanted type, written with an escape: only decoding says what it is.
      #"{"id":"2","name":"Test.T\u0069ck","subject":"a","version":1,"payload":{"source":"a","count":2}}"#,
      // Two subjects, the first another: decoding refuses the line, and the read reports it.
      #"{"id":"3","name":"Test.Tick","subject":"b","subject":"a","version":1,"payload":{"source":"a","count":3}}"#,
      #"{"id":"4","name":"Test.Tick","subject":null,"version":1,"payload":{"source":"a","count":4}}"#,
      #"{"id":"5","name":"Test.Tick","subject":"a","version":1,"payload":{"source":"a","count":5}}"#,
    ]
    try Data(lines.joined(separator: "\n").appending("\n").utf8).write(to: log.url)

    let all = try await log.read(after: nil, limit: 10, maximumBytes: .max, matching: .all)
    #expect(all.envelopes.map(\.envelope.id) == ["2", "4", "5"])
    #expect(all.skipped.count == 2, "\(all.skipped)")

    let ticks = try await log.read(
      after: nil, limit: 10, maximumBytes: .max, matching: EventReadFilter(types: [Tick.eventName]))
    #expect(ticks.envelopes.map(\.envelope.id) == ["2", "4", "5"])
    #expect(ticks.skipped.count == 1, "\(ticks.skipped)")
    #expect(ticks.skipped.first?.contains("a second time") == true, "\(ticks.skipped)")

    let aboutA = try await log.read(
      after: nil, limit: 10, maximumBytes: .max, matching: EventReadFilter(types: [Tick.eventName], subject: "a"))
    #expect(aboutA.envelopes.map(\.envelope.id) == ["2", "5"])
    #expect(aboutA.skipped.count == 1, "\(aboutA.skipped)")
    #expect(aboutA.next == (try await log.endPosition()))
  }

  @Test("A filtered read keeps exactly what a whole read keeps and the filter admits, on valid lines and edited ones")
  func filteredReadsAgreeWithWholeReads() async throws {
    let log = temporaryLog()
    defer { try? FileManager.default.removeItem(at: log.url) }
    // Subjects and names that the encoder writes with escapes, in other normal forms, as UUIDs in
    // either case, and none.
    let uuid = UUID()
    let subjects: [String?] = [
      nil, "a", "a\"b", "back\\slash", "caf\u{E9}", "cafe\u{301}", uuid.uuidString, uuid.uuidString.lowercased(),
      "/path/x", "\u{1F600}",
    ]
    let names = ["Test.Tick", "Test.Tock", "caf\u{E9}.event", "back\\slash"]
    var generator = SplitMix64(state: 0x5EED_0F_1165)
    let envelopes = (0..<400).map { index in
      EventEnvelope(
        id: "\(index)", time: nil, name: names.randomElement(using: &generator) ?? "",
        version: 1, subject: subjects.randomElement(using: &generator) ?? nil,
        metadata: index % 3 == 0 ? ["trace": .string("t\(index)")] : [:], payload: Data(#"{"n":\#(index)}"#.utf8))
    }
    try await log.append(contentsOf: envelopes)
    // And lines near them, edited at random: most break the header or the payload, some are
    // still envelopes, some split in two.
    let written = try Data(contentsOf: log.url).split(separator: UInt8(ascii: "\n"))
    var edited = Data()
    for _ in 0..<400 {
      var line = Array(written.randomElement(using: &generator) ?? Data())
      JSONEdits.edit(&line, using: &generator)
      edited.append(contentsOf: line + [UInt8(ascii: "\n")])
    }
    let handle = try FileHandle(forWritingTo: log.url)
    try handle.seekToEnd()
    try handle.write(contentsOf: edited)
    try handle.close()

    let whole = try await log.read(after: nil, limit: 2_000, maximumBytes: .max, matching: .all)
    #expect(whole.envelopes.count >= envelopes.count)
    #expect(whole.skipped.count > 100, "the edits broke too few lines to test passing over them")
    for types in [nil, ["Test.Tick"], ["caf\u{E9}.event", "back\\slash"]] as [Set<String>?] {
      for subject in subjects {
        let filter = EventReadFilter(types: types, subject: subject)
        let filtered = try await log.read(after: nil, limit: 2_000, maximumBytes: .max, matching: filter)
        let expected = whole.envelopes.filter { filter.admits($0.envelope) }
        #expect(filtered.envelopes.map(\.position) == expected.map(\.position), "\(filter)")
        #expect(filtered.envelopes.map(\.envelope) == expected.map(\.envelope))
        // A line passed over is not reported; one decoded is, as in the whole read.
        #expect(Set(filtered.skipped).isSubset(of: Set(whole.skipped)))
      }
    }
  }
}
