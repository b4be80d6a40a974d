import Foundation
import Testing
import TypedEvents

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
    // Each EventLog has its own lock: only O_APPEND keeps their lines apart.
    await withTaskGroup(of: Void.self) { group in
      for log in [first, second] {
        group.addTask {
          for count in 0..<200 { _ = try? log.append(Tick(count: count)) }  // failures show in the count
        }
      }
    }
    let (envelopes, problems) = try first.read()
    #expect(problems.isEmpty)
    #expect(envelopes.count == 400)
  }
}
