import EventSchema
import Testing

/// The diagnostics of loading `files`, as `line:column: severity: message` for the first file
/// (its path left off) and `path:line:column: …` for the others.
func diagnostics(_ files: [(String, String)]) -> [String] {
  let sources = files.map { SchemaSource(path: $0.0, text: $0.1) }
  return SchemaLoader.load(sources).diagnostics.map { diagnostic in
    let text = diagnostic.description
    let prefix = "\(files[0].0):"
    return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
  }
}

func diagnostics(_ yaml: String) -> [String] {
  diagnostics([("s.events.yaml", yaml)])
}

@Suite("Schema diagnostics")
struct SchemaDiagnosticsTests {
  @Test("a bad schema reports exactly its errors", arguments: badSchemas)
  func badSchema(_ schema: BadSchema) {
    #expect(diagnostics(schema.yaml) == schema.expected)
  }

  @Test func thereAreAtLeastFortyDistinctBadSchemas() {
    #expect(Set(badSchemas.map(\.yaml)).count >= 40)
    #expect(Set(badSchemas.map(\.name)).count == badSchemas.count)
  }

  @Test func nonUTF8BytesAreALocatedError() {
    let bytes = Array("events:\n  A:\n    doc: café ".utf8) + [0xFF] + Array(" here\n".utf8)
    let result = SchemaLoader.load([SchemaSource(path: "s.events.yaml", bytes: bytes)])
    #expect(
      result.diagnostics.map(\.description) == [
        "s.events.yaml:3:15: error: the file is not valid UTF-8 text (invalid leading UTF-8 octet)"
      ])
  }

  @Test func allErrorsOfARunAreReportedSortedByFileAndPosition() {
    let found = diagnostics([
      ("b.events.yaml", "events:\n  B:\n    fields:\n      x: Nope\n      y: Nah\n"),
      ("a.events.yaml", "evnts: {}\n"),
    ])
    #expect(
      found == [
        "a.events.yaml:1:1: error: unknown key `evnts` in the schema file; did you mean `events`?",
        "4:10: error: unknown type `Nope`",
        "5:10: error: unknown type `Nah`",
      ])
  }

  @Test func duplicateNamesAcrossFilesPointAtTheFirstDeclaration() {
    let found = diagnostics([
      ("a.events.yaml", "types:\n  Money:\n    wraps: Int\n"),
      ("b.events.yaml", "types:\n  Money:\n    wraps: Int\n"),
    ])
    #expect(
      found == ["b.events.yaml:2:3: error: duplicate name `Money`: already declared as a type at a.events.yaml:2:3"])
  }

  @Test func aYAMLErrorInOneFileDoesNotHideErrorsInAnother() {
    let found = diagnostics([
      ("a.events.yaml", "events: [\n"),
      ("b.events.yaml", "events:\n  B:\n    fields:\n      x: Strin\n"),
    ])
    #expect(found.count == 2)
    #expect(found.last == "b.events.yaml:4:10: error: unknown type `Strin`; did you mean `String`?")
  }

  @Test func anAliasBombFailsFastWithoutExpanding() {
    // The classic "billion laughs": each level references the previous one ten times.
    var yaml = "a: &a [\"lol\"]\n"
    for level in 1...9 {
      let previous = level == 1 ? "a" : "a\(level - 1)"
      yaml += "a\(level): &a\(level) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ",") + "]\n"
    }
    let clock = ContinuousClock()
    var found: [String] = []
    let elapsed = clock.measure { found = diagnostics(yaml) }
    #expect(found == ["1:4: error: anchors (`&name`) are not supported in event schemas; write the value out"])
    // Milliseconds alone; expanding the billion values would take far longer. A wide bound,
    // since the other tests share the cores.
    #expect(elapsed < .seconds(10))
  }

  @Test func aGroupTooLargeForSwiftToSwitchOverIsRefused() {
    let names = (0..<501).map { "E\($0)" }
    let yaml =
      "events:\n" + names.map { "  \($0):\n" }.joined()
      + "groups:\n  Huge:\n    events: [\(names.joined(separator: ", "))]\n"
    #expect(
      diagnostics(yaml) == [
        "504:3: error: group `Huge` has 501 events; the limit is 500, because Swift cannot check a `switch` over 630 or more cases in reasonable time; split it into several groups"
      ])
  }
}
