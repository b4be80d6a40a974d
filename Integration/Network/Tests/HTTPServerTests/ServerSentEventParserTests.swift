import Testing
import TypedEventsHTTPClient

@Suite("Server-Sent Events: the client's parser")
struct ServerSentEventParserTests {
  /// Events of `text` parsed whole.
  func events(_ text: String) -> (events: [ServerSentEvent], parser: ServerSentEventParser) {
    var parser = ServerSentEventParser()
    let events = parser.parse(Array(text.utf8))
    return (events, parser)
  }

  @Test("the standard's rules, case by case")
  func theStandardsRules() {
    let cases: [(String, [ServerSentEvent])] = [
      ("data: a\n\n", [ServerSentEvent(id: "", type: "message", data: "a")]),
      ("id: 7\nevent: NoteAdded\ndata: {}\n\n", [ServerSentEvent(id: "7", type: "NoteAdded", data: "{}")]),
      // Several data lines join with line feeds; one space after the colon is dropped, no more.
      ("data:a\ndata:  b\n\n", [ServerSentEvent(id: "", type: "message", data: "a\n b")]),
      // CR and CRLF end lines too.
      (
        "data: a\r\rdata: b\r\n\r\n",
        [
          ServerSentEvent(id: "", type: "message", data: "a"), ServerSentEvent(id: "", type: "message", data: "b"),
        ]
      ),
      // A comment, a field it does not know, and a frame without data dispatch nothing.
      (": heartbeat\n\nfoo: bar\n\nevent: x\n\n", []),
      // A field without a colon has an empty value: an empty data line is an event.
      ("data\n\n", [ServerSentEvent(id: "", type: "message", data: "")]),
      // The last ID carries over to later events; an id with NUL is ignored.
      (
        "id: 1\ndata: a\n\nid: 2\u{0}\ndata: b\n\n",
        [
          ServerSentEvent(id: "1", type: "message", data: "a"), ServerSentEvent(id: "1", type: "message", data: "b"),
        ]
      ),
      // A byte order mark at the start is no part of the first field.
      ("\u{FEFF}data: a\n\n", [ServerSentEvent(id: "", type: "message", data: "a")]),
      // An unfinished frame at the end dispatches nothing yet.
      ("data: a\n", []),
    ]
    for (text, expected) in cases {
      #expect(events(text).events == expected, "\(text.debugDescription)")
    }
  }

  @Test func theLastEventIDChangesOnlyWhenItsFrameEnds() {
    // The next frame's id has arrived, its blank line not yet: a client that saved or resent
    // the id now would skip that event.
    var (events, parser) = events("id: 1\ndata: a\n\nid: 2\ndata: b\n")
    #expect(events.map(\.id) == ["1"])
    #expect(parser.lastEventID == "1")
    events = parser.parse(Array("\n".utf8))
    #expect(events.map(\.id) == ["2"])
    #expect(parser.lastEventID == "2")
  }

  @Test func aColonOrSpaceBeforeACombiningMarkStillSplitsTheLine() {
    // U+0301 combines with the character before it; the standard splits on code points.
    #expect(events("data:\u{301}x\n\n").events.map(\.data) == ["\u{301}x"])
    #expect(events("data: \u{301}x\n\n").events.map(\.data) == ["\u{301}x"])
  }

  @Test func anIDWithoutDataMovesTheLastEventIDAndRetryIsRead() {
    let (events, parser) = events("id: 1\ndata: a\n\nid: 9\n: heartbeat\n\nretry: 1500\n\nretry: soon\n\n")
    #expect(events.map(\.id) == ["1"])
    #expect(parser.lastEventID == "9")
    #expect(parser.retryMilliseconds == 1500)
  }

  @Test("split anywhere, even inside a CRLF or a UTF-8 scalar, the same events come")
  func splitAnywhereTheSameEventsCome() {
    let text = "\u{FEFF}id: é1\r\nevent: Note✓\r\ndata: {\"text\": \"naïve 🎉\"}\r\n\r\n: ping\r\nid: 2\rdata: b\r\r"
    let bytes = Array(text.utf8)
    let whole = events(text).events
    #expect(whole.count == 2)
    #expect(whole.first?.data == "{\"text\": \"naïve 🎉\"}")
    for first in 0...bytes.count {
      for second in first...bytes.count where second == first || second == bytes.count || (second - first) % 3 == 0 {
        var parser = ServerSentEventParser()
        let pieces =
          parser.parse(bytes[..<first]) + parser.parse(bytes[first..<second]) + parser.parse(bytes[second...])
        #expect(pieces == whole, "split at \(first) and \(second)")
        #expect(parser.lastEventID == "2")
      }
    }
  }
}
