import Testing

@testable import EventSchema

/// The parser reads plain names (`String`, `Money?`) by a fast path over UTF-8 bytes; these tests
/// hold it to the general scanner's result and diagnostics.
@Suite struct TypeExpressionParserTests {
  /// Every string of up to four characters over an alphabet that covers names, optionals,
  /// containers, spaces and a non-ASCII letter: the fast path and the scanner agree on each.
  @Test func fastPathReadsEveryShortTextAsTheScannerDoes() {
    let alphabet: [String] = ["a", "Z", "1", "_", ".", "?", "[", "]", ":", " ", "é"]
    var texts = [""]
    var frontier = [""]
    for _ in 1...4 {
      frontier = frontier.flatMap { prefix in alphabet.map { prefix + $0 } }
      texts += frontier
    }
    let origin = SourceLocation(file: "t.events.yaml", line: 3, column: 7)
    var disagreements: [String] = []
    for text in texts {
      var parsedLog = DiagnosticLog()
      var scannedLog = DiagnosticLog()
      let parsed = TypeExpressionParser.parse(text: text, at: origin, log: &parsedLog)
      let scanned = TypeExpressionParser.scan(text: text, at: origin, log: &scannedLog)
      if String(describing: parsed) != String(describing: scanned)
        || String(describing: parsedLog.all) != String(describing: scannedLog.all)
      {
        disagreements.append(text)
      }
    }
    #expect(texts.count == 16_105)
    #expect(
      disagreements.isEmpty, "\(disagreements.count) texts read differently, such as \(disagreements.prefix(10))")
  }

  @Test func plainAndOptionalNamesKeepTheirLocation() throws {
    let origin = SourceLocation(file: "t.events.yaml", line: 3, column: 7)
    var log = DiagnosticLog()
    let parsed = try #require(TypeExpressionParser.parse(text: "Bench.Money??", at: origin, log: &log))
    guard case .optional(.optional(.named(let name), _), let location) = parsed else {
      Issue.record("expected a doubly optional name, found \(parsed)")
      return
    }
    #expect(name.value == "Bench.Money")
    #expect(name.location == origin)
    #expect(location == origin)
    #expect(log.all.isEmpty)
  }
}
