import Foundation
import Testing

@testable import EventSchema

/// The JSON fast path gives the tree libyaml gives: the same nodes, styles and positions. For
/// text it does not take, it steps aside, and libyaml's answer, errors included, is unchanged.
@Suite("JSON fast path: libyaml's tree, faster")
struct JSONComposerTests {
  /// A tree's every node with its position and, for scalars, style.
  private func dump(_ node: YAMLNode) -> String {
    let at = "@\(node.location.line):\(node.location.column)"
    switch node.content {
    case .scalar(let scalar): return "\(scalar.value.debugDescription)/\(scalar.style)\(at)"
    case .sequence(let items, let flow): return "[\(flow)\(at) " + items.map(dump).joined(separator: ", ") + "]"
    case .mapping(let pairs):
      return "{\(at) " + pairs.map { dump($0.key) + ": " + dump($0.value) }.joined(separator: ", ") + "}"
    }
  }

  private func dump(_ result: YAMLComposer.Result) -> String {
    switch result {
    case .document(let root): return dump(root)
    case .failure(let diagnostics): return diagnostics.map(\.description).joined(separator: "\n")
    }
  }

  /// Whether the fast path reads `bytes`, and what both readers give.
  private func compare(_ bytes: [UInt8], path: String = "a.json") -> (fast: Bool, same: Bool, yaml: String) {
    let composer = YAMLComposer(path: path)
    let fast = bytes.withUnsafeBufferPointer { JSONComposer.compose($0, path: path, maximumDepth: 64) } != nil
    let yaml = dump(composer.composeYAML(bytes))
    let composed = dump(composer.compose(bytes))
    guard composed != yaml else { return (fast, true, yaml) }
    // Where they part, for the failure's message.
    let common = zip(composed, yaml).prefix { $0 == $1 }.count
    let context = { (text: String) in String(text.dropFirst(max(0, common - 80)).prefix(160)) }
    return (fast, false, "libyaml: …\(context(yaml))…\nfast path: …\(context(composed))…")
  }

  static let documents: [String] = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let folders = [
      root.appendingPathComponent("Tests/ContractExportTests/Golden"),
      root.deletingLastPathComponent().appendingPathComponent("shared/asyncapi"),
    ]
    return folders.flatMap { folder -> [String] in
      let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
      return files.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0).path }
    }
  }()

  @Test func everyJSONDocumentAtHandGivesLibYAMLsTree() throws {
    // The exported goldens are here in every checkout; ../shared's documents where it is beside.
    #expect(Self.documents.count >= 4)
    for path in Self.documents {
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
      let result = compare(bytes, path: path)
      #expect(result.fast, "the fast path did not read \(path)")
      #expect(result.same, "\(path): the trees differ: \(result.yaml)")
    }
  }

  @Test(arguments: [
    #"{"a": 1, "b": [true, false, null, -0.5e+3, 0, 12], "c": {}, "d": []}"#,
    "{\r\n\t\"crlf\" :\t[ 1 ,2 ] }\r\n", "{\r\"cr\":\r[\r1]}",
    #"["\"\\\/\b\f\n\r\t", "\u00e9\u20ac", "é€😀 after", {"k\u0041": "v"}]"#,
    #"{"dup": 1, "dup": 2}"#,
    "[[[[]]], {\"x\": [{}]}]",
  ])
  func hardJSONGivesTheSameTree(_ text: String) {
    let result = compare(Array(text.utf8))
    #expect(result.fast)
    #expect(result.same, "\(result.yaml)")
  }

  @Test func aSurrogatePairIsOneCharacterWhichLibYAMLRefuses() throws {
    let text = #"["\ud83d\ude00", 1]"#
    let root = try #require(
      Array(text.utf8).withUnsafeBufferPointer { JSONComposer.compose($0, path: "a.json", maximumDepth: 64) })
    #expect(dump(root) == #"[true@1:1 "😀"/doubleQuoted@1:2, "1"/plain@1:18]"#)
    #expect(compare(Array(text.utf8)).yaml.contains("invalid Unicode character escape code"))
  }

  @Test func lineSeparatorsInAStringAreKeptAsJSONSays() throws {
    let text = "[\"a\u{2028}b\u{85}c\", 1]"
    let root = try #require(
      Array(text.utf8).withUnsafeBufferPointer { JSONComposer.compose($0, path: "a.json", maximumDepth: 64) })
    guard case .sequence(let items, _) = root.content, case .scalar(let scalar) = items.first?.content else {
      Issue.record("not a sequence of a scalar: \(dump(root))")
      return
    }
    #expect(scalar.value == "a\u{2028}b\u{85}c")
    #expect(items.last?.location.column == 11)
  }

  @Test(arguments: [
    #"{"a": 1,}"#, #"{'a': 1}"#, #"{"a": tru}"#, "{\"a\": 1} # note", "a: 1", #"{"a": 01}"#, "{\"a\": \"\u{01}\"}",
    #"["\ud800"]"#, "\u{FEFF}{\"a\": 1}", "[1] [2]", "",
  ])
  func textThatIsNotStrictJSONIsLeftToLibYAML(_ text: String) {
    let result = compare(Array(text.utf8))
    #expect(!result.fast)
    #expect(result.same)
  }

  @Test func invalidUTF8AndDeepNestingAreLeftToLibYAML() {
    let invalid: [UInt8] = Array(#"{"a": ""#.utf8) + [0xC0, 0x80] + Array(#""}"#.utf8)
    #expect(!compare(invalid).fast)
    #expect(compare(invalid).yaml.contains("not valid UTF-8"))
    let deep = Array((String(repeating: "[", count: 65) + String(repeating: "]", count: 65)).utf8)
    #expect(!compare(deep).fast)
    #expect(compare(deep).yaml.contains("nesting is deeper than 64 levels"))
    let deepest = Array((String(repeating: "[", count: 64) + String(repeating: "]", count: 64)).utf8)
    #expect(compare(deepest).fast && compare(deepest).same)
  }
}
