import Foundation
import TestSupport
import Testing

@testable import TypedEvents

/// `StrictJSON`: RFC 8259 exactly, no key twice, within limits, each refusal located; and against
/// a peer nobody here wrote, Python's `json` made strict (`Scripts/strict-json-oracle`).
@Suite("Strict JSON grammar")
struct StrictJSONTests {
  static let accepted: [String] = [
    "{}", "[]", "0", "-0", "1.5e-3", "-12E+2", "1e308", "1e-400", "true", "false", "null", #""""#,
    #" { "a" : [ 1 , 2.5 , { "b" : null } ] , "c" : "\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00" } "#,
    "\t\r\n[\n]\n", "{\"\u{E9}\":1,\"\u{E8}\":2}",  // é and è: beyond ASCII, and other keys
    #"{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}"#,  // equal keys in different objects
    #""Zoë 😀 日本""#, "\"\u{7F}\"", #"{"":1," ":2}"#,
  ]

  @Test("RFC 8259 texts are accepted", arguments: accepted)
  func accepts(_ text: String) throws {
    try StrictJSON.check(Data(text.utf8))
  }

  /// Each refused text with the kind of its error and the offset of the byte the error names.
  static let refused: [(bytes: [UInt8], kind: JSONSyntaxError.Kind, offset: Int)] = [
    (Array(#"{"a":1,}"#.utf8), .trailingComma, 6),
    (Array(#"[1,2 , ]"#.utf8), .trailingComma, 5),
    (Array(#"{"a":1}x"#.utf8), .unexpectedByte(UInt8(ascii: "x"), expected: "nothing after the JSON value"), 7),
    (Array(#"{"a":1} {}"#.utf8), .unexpectedByte(UInt8(ascii: "{"), expected: "nothing after the JSON value"), 8),
    ([0xEF, 0xBB, 0xBF] + Array("{}".utf8), .byteOrderMark, 0),
    ([0x7B, 0x00, 0x7D, 0x00], .notUTF8, 0),  // UTF-16LE
    ([0x00, 0x7B, 0x00, 0x7D], .notUTF8, 0),  // UTF-16BE
    ([0xFF, 0xFE, 0x7B, 0x00], .notUTF8, 0),
    (Array("\"a\u{1}b\"".utf8), .controlCharacter(0x01), 2),
    (Array("\"a\nb\"".utf8), .controlCharacter(0x0A), 2),
    (Array(#""a\qb""#.utf8), .invalidEscape, 2),
    (Array(#""\u12""#.utf8), .invalidEscape, 1),
    (Array(#""\ud800""#.utf8), .unpairedSurrogate, 1),
    (Array(#""\ud800\u0041""#.utf8), .unpairedSurrogate, 1),
    (Array(#""\udc00\ud800""#.utf8), .unpairedSurrogate, 1),
    ([0x22, 0xC0, 0xAF, 0x22], .notUTF8, 1),  // an overlong '/'
    ([0x22, 0xED, 0xA0, 0x80, 0x22], .notUTF8, 1),  // an encoded surrogate
    ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], .notUTF8, 1),  // beyond U+10FFFF
    ([0x22, 0xE2, 0x82, 0x22], .notUTF8, 1),  // a sequence cut short
    ([0x22, 0x80, 0x22], .notUTF8, 1),  // a continuation byte alone
    (Array("01".utf8), .invalidNumber, 1),
    (Array("1.".utf8), .invalidNumber, 2),
    (Array("1e+".utf8), .invalidNumber, 3),
    (Array("-".utf8), .invalidNumber, 1),
    (Array("[1e400]".utf8), .numberOutOfRange, 1),
    (Array("NaN".utf8), .unexpectedByte(UInt8(ascii: "N"), expected: "a value"), 0),
    (Array("[tru]".utf8), .unexpectedByte(UInt8(ascii: "t"), expected: "a value"), 1),
    (Array("// c\n{}".utf8), .unexpectedByte(UInt8(ascii: "/"), expected: "a value"), 0),
    (Array(#"{'a':1}"#.utf8), .unexpectedByte(UInt8(ascii: "'"), expected: "a string"), 1),
    (Array(#"{"a" 1}"#.utf8), .unexpectedByte(UInt8(ascii: "1"), expected: "':' after a key"), 5),
    (Array(#"[1 2]"#.utf8), .unexpectedByte(UInt8(ascii: "2"), expected: "',' or ']'"), 3),
    (Array(#"{"a":1,"a":2}"#.utf8), .duplicateKey("a"), 7),
    (Array(#"{"data":1,"d\u0061ta":2}"#.utf8), .duplicateKey("data"), 10),
    // Keys equal in NFC, which Swift's JSONDecoder reads as one: é composed and decomposed, and
    // the Kelvin sign, escaped, beside K.
    (Array("{\"\u{E9}\":1,\"e\u{301}\":2}".utf8), .duplicateKey("\u{E9}"), 8),
    (Array(#"{"xK":1,"x\u212A":2}"#.utf8), .duplicateKey("xK"), 8),
    (Array(#"{"x":[{"k":1,"j":2,"k":3}]}"#.utf8), .duplicateKey("k"), 19),
    (Array(#"{"😀":1,"\ud83d\ude00":2}"#.utf8), .duplicateKey("😀"), 10),
    ([], .unexpectedEnd, 0),
    (Array("  ".utf8), .unexpectedEnd, 2),
    (Array(#"{"a":"#.utf8), .unexpectedEnd, 5),
    (Array(#"["abc"#.utf8), .unexpectedEnd, 5),
  ]

  @Test("Texts that break the grammar are refused, saying what and where")
  func refuses() {
    for (bytes, kind, offset) in Self.refused {
      let text = String(decoding: bytes, as: UTF8.self).debugDescription
      do {
        try StrictJSON.check(Data(bytes))
        Issue.record("accepted \(text)")
      } catch {
        #expect(error.kind == kind, "\(text)")
        #expect(error.offset == offset, "\(text): \(error)")
      }
    }
  }

  @Test("An error names the line and the column in characters")
  func lineAndColumn() throws {
    let error = try #require(throws: JSONSyntaxError.self) {
      try StrictJSON.check(Data("{\n  \"é\": [1,\n   2,]\n}".utf8))
    }
    #expect(error.kind == .trailingComma)
    #expect(error.line == 3)
    #expect(error.column == 5)
    #expect(error.description.hasPrefix("line 3, column 5 (byte 18): a comma before the closing bracket"))
  }

  @Test("Depth, members and string length stop at their limits, not before")
  func limits() throws {
    let limits = JSONLimits(maximumDepth: 3, maximumMembers: 4, maximumStringBytes: 5)
    try StrictJSON.check(Data("[[[1]]]".utf8), limits: limits)
    #expect(throws: JSONSyntaxError(.tooDeep(limit: 3), at: 3, in: "[[[[1]]]]")) {
      try StrictJSON.check(Data("[[[[1]]]]".utf8), limits: limits)
    }
    try StrictJSON.check(Data("[1,2,3,4]".utf8), limits: limits)
    #expect(throws: JSONSyntaxError(.tooManyMembers(limit: 4), at: 9, in: "[1,2,3,4,5]")) {
      try StrictJSON.check(Data("[1,2,3,4,5]".utf8), limits: limits)
    }
    #expect(throws: JSONSyntaxError.self) {
      try StrictJSON.check(Data(#"{"a":1,"b":2,"c":3,"d":4,"e":5}"#.utf8), limits: limits)
    }
    try StrictJSON.check(Data(#""abcde""#.utf8), limits: limits)
    #expect(throws: JSONSyntaxError(.stringTooLong(limit: 5), at: 1, in: #""abcdef""#)) {
      try StrictJSON.check(Data(#""abcdef""#.utf8), limits: limits)
    }
    // The stack is the scanner's own: nesting far past a thread's stack is only a limit's business.
    let deep = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
    try StrictJSON.check(Data(deep.utf8), limits: JSONLimits(maximumDepth: 200_000))
    #expect(throws: JSONSyntaxError.self) { try StrictJSON.check(Data(deep.utf8)) }
  }

  @Test("Keys of every length compare equal only when every byte is, wherever they lie")
  func byteComparison() {
    // The comparison loads words from both ends below 17 bytes: each length, each position.
    let bytes = (0..<40).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    let storage = bytes + bytes  // a second copy, at another address and alignment
    storage.withUnsafeBytes { raw in
      for count in 0...34 {
        for shift in [0, 1, 3] {
          let one = UnsafeRawBufferPointer(rebasing: raw[shift..<(shift + count)])
          let same = UnsafeRawBufferPointer(rebasing: raw[(40 + shift)..<(40 + shift + count)])
          #expect(one.hasSameBytes(as: same), "\(count) bytes at \(shift)")
          let next = UnsafeRawBufferPointer(rebasing: raw[(shift + 1)..<(shift + 1 + count)])
          #expect(count == 0 || !one.hasSameBytes(as: next), "\(count) bytes at \(shift) and at \(shift + 1)")
          for position in 0..<count {
            var changed = Array(same)
            changed[position] ^= 0x20
            changed.withUnsafeBytes { other in
              #expect(!one.hasSameBytes(as: other), "\(count) bytes, byte \(position) differs")
            }
          }
        }
        let longer = UnsafeRawBufferPointer(rebasing: raw[0..<(count + 1)])
        #expect(!UnsafeRawBufferPointer(rebasing: raw[0..<count]).hasSameBytes(as: longer))
      }
    }
  }

  @Test("A repeated key is found among many, by the hash of its object, at any depth")
  func repeatsAmongMany() throws {
    for count in [11, 12, 13, 40, 20_000] {
      let members = (0..<count).map { #""k\#($0)":\#($0)"# }
      try StrictJSON.check(Data(("{" + members.joined(separator: ",") + "}").utf8))
      for repeated in [0, count / 2, count - 1] {
        let text = "{\"o\":{" + members.joined(separator: ",") + ",\"k\(repeated)\":0},\"k0\":1}"
        let error = try #require(throws: JSONSyntaxError.self) { try StrictJSON.check(Data(text.utf8)) }
        #expect(error.kind == .duplicateKey("k\(repeated)"), "\(count) keys, k\(repeated) repeated")
      }
    }
    // After an inner object closes, its keys are its own: the outer one may use them.
    try StrictJSON.check(Data(#"{"a":{"b":1,"c":2},"b":{"a":1},"c":[{"c":1}]}"#.utf8))
    // So in objects past the hash's threshold, nested in each other, and a key written with an
    // escape is the key it denotes.
    let outer = (0..<100).map { #""o\#($0)":\#($0)"# }
    let inner = "{" + (0..<100).map { #""i\#($0)":[\#($0)]"# }.joined(separator: ",") + "}"
    let nested = outer[..<50] + [#""inner":"# + inner] + outer[50...]
    try StrictJSON.check(Data(("{" + nested.joined(separator: ",") + #","i7":0}"#).utf8))
    for repeated in [#""o7""#, #""o99""#, #""inner""#] {
      let text = "{" + nested.joined(separator: ",") + ",\(repeated):0}"
      let error = try #require(throws: JSONSyntaxError.self) { try StrictJSON.check(Data(text.utf8)) }
      guard case .duplicateKey = error.kind else {
        Issue.record("\(repeated): \(error)")
        continue
      }
    }
  }

  @Test(
    "Accepts and refuses as Python's json made strict does, on random edits of JSON",
    .enabled(if: oracleUnavailable == nil, "needs python3 for Scripts/strict-json-oracle; .ci/run provides it"))
  func agreesWithPython() async throws {
    let seeds =
      Self.accepted + [
        #"{"specversion":"1.0","id":"1","source":"/s","type":"T","data":{"a":[1,2.5e-3,true,null],"b":"x\u00e9\ud83d\ude00"}}"#,
        #"[{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13}]"#,
        #"{"a":"\\u0041","A":"é","b":[[[]]],"n":-0.0e0}"#,
      ]
    var random = SplitMix64(state: 55)
    var inputs: [[UInt8]] = seeds.map { Array($0.utf8) }
    for _ in 0..<20_000 {
      var bytes = Array((seeds.randomElement(using: &random) ?? "{}").utf8)
      JSONEdits.edit(&bytes, using: &random)
      inputs.append(bytes)
    }
    let verdicts = try await Self.pythonVerdicts(inputs)
    var disagreements: [String] = []
    var refusedCount = 0
    for (bytes, python) in zip(inputs, verdicts) {
      let swift: String
      do {
        try StrictJSON.check(Data(bytes))
        swift = "accept"
      } catch {
        swift = "refuse \(error)"
        refusedCount += 1
      }
      if (swift == "accept") != (python == "accept") {
        disagreements.append(
          "\(String(decoding: bytes, as: UTF8.self).debugDescription): Swift \(swift), Python \(python)")
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, first: \(disagreements.prefix(5))")
    // Both verdicts occur often: the edits test the grammar, not only one side of it.
    #expect(refusedCount > 2_000 && refusedCount < inputs.count - 2_000, "\(refusedCount) of \(inputs.count) refused")
  }

  /// The oracle script: in the package root, or in the root of the package whose folder holds
  /// this one (Integration/Sanitizers links these tests).
  static let oracle: String = {
    var folder = packageRoot
    for _ in 0..<3 {
      let candidate = folder.appendingPathComponent("Scripts/strict-json-oracle").path
      if FileManager.default.fileExists(atPath: candidate) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    return path("Scripts/strict-json-oracle")
  }()

  /// Why the oracle cannot run here, or nil when it can.
  static let oracleUnavailable: String? = {
    let probe = try? runChildProcessBlocking(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import json, base64"])
    return probe?.status == 0 ? nil : "python3 is not installed"
  }()

  /// Python's verdict on each input: `accept`, or `refuse` and why.
  static func pythonVerdicts(_ inputs: [[UInt8]]) async throws -> [String] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strict-json-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("inputs")
    try Data(inputs.map { Data($0).base64EncodedString() }.joined(separator: "\n").utf8).write(to: input)
    let result = try await runChildProcess(
      URL(fileURLWithPath: "/bin/sh"),
      ["-c", "python3 \"$0\" < \"$1\"", oracle, input.path])
    try #require(result.status == 0, "the oracle failed: \(result.errors)")
    let verdicts = result.output.split(separator: "\n").map(String.init)
    try #require(verdicts.count == inputs.count, "the oracle answered \(verdicts.count) of \(inputs.count)")
    return verdicts
  }
}

extension JSONSyntaxError {
  /// The error of `kind` at `offset` in `text`, for comparing with a thrown one.
  fileprivate init(_ kind: Kind, at offset: Int, in text: String) {
    let bytes = Array(text.utf8)
    self = bytes.withUnsafeBytes { JSONSyntaxError(kind, at: offset, in: $0) }
  }
}
