import EventSchema
import Foundation
import SchemaEvolution
import Testing

/// The diagnostics of comparing two versions of one schema file, as `file:line:column: …`
/// lines; the files are `old/s.events.yaml` and `new/s.events.yaml`.
func compare(_ old: String, _ new: String, mode: CompatibilityMode = .backward) throws -> [String] {
  let before = try #require(SchemaLoader.load([SchemaSource(path: "old/s.events.yaml", text: old)]).schema)
  let after = try #require(SchemaLoader.load([SchemaSource(path: "new/s.events.yaml", text: new)]).schema)
  return CompatibilityChecker.check(old: before, new: after, mode: mode).map(\.description)
}

/// A pair of schema versions and what comparing them must report.
struct Evolution: CustomTestStringConvertible, Sendable {
  var name: String
  var old: String
  var new: String
  var mode: CompatibilityMode = .backward
  var expected: [String]
  var testDescription: String { name }
}

let evolutions: [Evolution] = [
  Evolution(
    name: "replay per subject declared",
    old: "events:\n  A:\n    subject: id\n    fields:\n      id: String\n",
    new: "events:\n  A:\n    subject: id\n    replay: { per-subject: 5 }\n    fields:\n      id: String\n",
    expected: [
      "new/s.events.yaml:2:3: note: event `A` now keeps the latest event of 5 subjects for replay, instead of nothing per subject"
    ]),
  Evolution(
    name: "event removed",
    old: "version: 1\nevents:\n  A: {}\n  B: {}\n", new: "version: 2\nevents:\n  A: {}\n",
    expected: [
      "old/s.events.yaml:4:3: error: event `B` (B) was removed or renamed: apps on the new schema cannot read the events already written; deprecate it instead"
    ]),
  Evolution(
    name: "event added",
    old: "events:\n  A: {}\n", new: "events:\n  A: {}\n  B: {}\n",
    expected: ["new/s.events.yaml:3:3: note: event `B` (B) was added"]),
  Evolution(
    name: "field removed breaks forward",
    old: "version: 1\nevents:\n  A:\n    fields:\n      id: String\n      n: Int\n",
    new: "version: 2\nevents:\n  A:\n    fields:\n      id: String\n", mode: .forward,
    expected: [
      "old/s.events.yaml:6:7: error: field `n` of event `A` was removed: apps on the old schema require it; make it optional or give it a `default` first"
    ]),
  Evolution(
    name: "field removed is safe backward",
    old: "version: 1\nevents:\n  A:\n    fields:\n      id: String\n      n: Int\n",
    new: "version: 2\nevents:\n  A:\n    fields:\n      id: String\n",
    expected: [
      "old/s.events.yaml:6:7: note: field `n` of event `A` was removed: apps on the old schema require it; make it optional or give it a `default` first"
    ]),
  Evolution(
    name: "optional field removed",
    old: "events:\n  A:\n    fields:\n      n: Int?\n", new: "events:\n  A: {}\n", mode: .full,
    expected: ["old/s.events.yaml:4:7: note: field `n` of event `A` was removed; apps on the old schema do without it"]),
  Evolution(
    name: "required field added without a default",
    old: "version: 1\nevents:\n  A:\n    fields:\n      id: String\n",
    new: "version: 2\nevents:\n  A:\n    fields:\n      id: String\n      n: Int\n",
    expected: [
      "new/s.events.yaml:6:7: error: field `n` of event `A` was added without a default: apps on the new schema cannot read what was written before; make it optional or give it a `default`"
    ]),
  Evolution(
    name: "field added with a default",
    old: "events:\n  A:\n    fields:\n      id: String\n",
    new: "events:\n  A:\n    fields:\n      id: String\n      n:\n        type: Int\n        default: 0\n", mode: .full,
    expected: ["new/s.events.yaml:5:7: note: field `n` of event `A` was added; apps on the old schema ignore it"]),
  Evolution(
    name: "field type changed",
    old: "version: 1\nevents:\n  A:\n    fields:\n      n: Int\n",
    new: "version: 2\nevents:\n  A:\n    fields:\n      n: String\n",
    expected: ["new/s.events.yaml:5:7: error: field `n` of event `A` changed type from `Int` to `String`"]),
  Evolution(
    name: "field made required",
    old: "version: 1\nevents:\n  A:\n    fields:\n      n: Int?\n",
    new: "version: 2\nevents:\n  A:\n    fields:\n      n: Int\n",
    expected: [
      "new/s.events.yaml:5:7: error: field `n` of event `A` became required without a default: what was written without it cannot be read"
    ]),
  Evolution(
    name: "field made required with a default",
    old: "events:\n  A:\n    fields:\n      n: Int?\n",
    new: "events:\n  A:\n    fields:\n      n:\n        type: Int\n        default: 1\n",
    expected: [
      "new/s.events.yaml:4:7: note: field `n` of event `A` became required, with a default for what was written without it"
    ]),
  Evolution(
    name: "field made optional breaks forward",
    old: "version: 1\nevents:\n  A:\n    fields:\n      n: Int\n",
    new: "version: 2\nevents:\n  A:\n    fields:\n      n: Int?\n", mode: .forward,
    expected: [
      "new/s.events.yaml:5:7: error: field `n` of event `A` became optional: apps on the old schema require it"
    ]),
  Evolution(
    name: "wire key changed",
    old: "version: 1\nevents:\n  A:\n    fields:\n      n: Int\n",
    new: "version: 2\nevents:\n  A:\n    fields:\n      n:\n        type: Int\n        key: count\n",
    expected: [
      "new/s.events.yaml:5:7: error: field `n` of event `A` changed its wire key from \"n\" to \"count\": each side misses the other's values; keep the old key with `key: n`"
    ]),
  Evolution(
    name: "wire keys swapped between fields",
    old: "version: 1\nevents:\n  A:\n    fields:\n      a: Int\n      b: Int\n",
    new:
      "version: 2\nevents:\n  A:\n    fields:\n      a:\n        type: Int\n        key: b\n      b:\n        type: Int\n        key: a\n",
    expected: [
      "new/s.events.yaml:5:7: error: wire key \"b\" of event `A` now belongs to field `a` instead of `b`: readers take one field's values for the other's",
      "new/s.events.yaml:8:7: error: wire key \"a\" of event `A` now belongs to field `b` instead of `a`: readers take one field's values for the other's",
    ]),
  Evolution(
    name: "property renamed, wire key kept",
    old: "events:\n  A:\n    fields:\n      count: Int\n",
    new: "events:\n  A:\n    fields:\n      total:\n        type: Int\n        key: count\n", mode: .full,
    expected: [
      "new/s.events.yaml:4:7: note: field `count` of event `A` was renamed to `total`, keeping its wire key \"count\""
    ]),
  Evolution(
    name: "default removed from a required field",
    old: "version: 1\nevents:\n  A:\n    fields:\n      n:\n        type: Int\n        default: 0\n",
    new: "version: 2\nevents:\n  A:\n    fields:\n      n: Int\n",
    expected: [
      "new/s.events.yaml:5:7: error: field `n` of event `A` lost its default: what was written without it cannot be read"
    ]),
  Evolution(
    name: "field of a value type removed",
    old: "version: 1\ntypes:\n  M:\n    fields:\n      a: Decimal\n      c: String\n",
    new: "version: 2\ntypes:\n  M:\n    fields:\n      a: Decimal\n", mode: .full,
    expected: [
      "old/s.events.yaml:6:7: error: field `c` of type `M` was removed: apps on the old schema require it; make it optional or give it a `default` first"
    ]),
  Evolution(
    name: "case removed from a frozen enum",
    old: "version: 1\ntypes:\n  U:\n    enum: [m, ft]\n    frozen: true\n",
    new: "version: 2\ntypes:\n  U:\n    enum: [m]\n    frozen: true\n",
    expected: [
      "new/s.events.yaml:3:3: error: case `ft` (\"ft\") was removed from frozen enum `U`: values written before cannot be read"
    ]),
  Evolution(
    name: "case added to a frozen enum breaks forward",
    old: "version: 1\ntypes:\n  U:\n    enum: [m, ft]\n    frozen: true\n",
    new: "version: 2\ntypes:\n  U:\n    enum: [m, ft, yd]\n    frozen: true\n", mode: .forward,
    expected: [
      "new/s.events.yaml:3:3: error: case `yd` (\"yd\") was added to frozen enum `U`: apps on the old schema cannot read it; an enum that grows should be open"
    ]),
  Evolution(
    name: "case removed from an open enum",
    old: "version: 1\ntypes:\n  S:\n    enum: [active, sold]\n",
    new: "version: 2\ntypes:\n  S:\n    enum: [active]\n",
    expected: [
      "new/s.events.yaml:3:3: error: case `sold` (\"sold\") was removed from enum `S`: values written before now read as `UNRECOGNIZED`"
    ]),
  Evolution(
    name: "case added to an open enum",
    old: "types:\n  S:\n    enum: [active]\n", new: "types:\n  S:\n    enum: [active, sold]\n", mode: .full,
    expected: [
      "new/s.events.yaml:2:3: note: case `sold` (\"sold\") was added to enum `S`; older apps read it as `UNRECOGNIZED`"
    ]),
  Evolution(
    name: "enum made frozen",
    old: "version: 1\ntypes:\n  S:\n    enum: [a]\n",
    new: "version: 2\ntypes:\n  S:\n    enum: [a]\n    frozen: true\n",
    expected: [
      "new/s.events.yaml:3:3: error: enum `S` became frozen: values that older apps kept as `UNRECOGNIZED` can no longer be read"
    ]),
  Evolution(
    name: "wrapper raw type changed",
    old: "version: 1\ntypes:\n  ID:\n    wraps: String\n", new: "version: 2\ntypes:\n  ID:\n    wraps: Int\n",
    expected: ["new/s.events.yaml:3:3: error: type `ID` now wraps `Int` instead of `String`"]),
  Evolution(
    name: "type kind changed",
    old: "version: 1\ntypes:\n  ID:\n    wraps: String\n", new: "version: 2\ntypes:\n  ID:\n    enum: [a]\n",
    expected: ["new/s.events.yaml:3:3: error: type `ID` changed from a wrapper to an enum"]),
  Evolution(
    name: "type removed",
    old: "version: 1\ntypes:\n  T:\n    wraps: String\n", new: "version: 2\n",
    expected: ["old/s.events.yaml:3:3: error: type `T` was removed or renamed"]),
  Evolution(
    name: "group case removed",
    old: "version: 1\nevents:\n  A: {}\n  B: {}\ngroups:\n  G:\n    events: [A, B]\n",
    new: "version: 2\nevents:\n  A: {}\n  B: {}\ngroups:\n  G:\n    events: [A]\n",
    expected: [
      "new/s.events.yaml:6:3: error: case `b` (event `B`) was removed from group `G`: code that switches over it no longer compiles"
    ]),
  Evolution(
    name: "group removed",
    old: "version: 1\nevents:\n  A: {}\ngroups:\n  G:\n    events: [A]\n", new: "version: 2\nevents:\n  A: {}\n",
    expected: ["old/s.events.yaml:5:3: error: group `G` was removed: code that subscribes to it no longer compiles"]),

  // MARK: Versions
  Evolution(
    name: "breaking change without a version bump",
    old: "version: 1\nevents:\n  A:\n    fields:\n      n: Int\n",
    new: "version: 1\nevents:\n  A:\n    fields:\n      n: String\n",
    expected: [
      "new/s.events.yaml:1:10: error: 1 breaking change but `version` stays 1: raise it to 2",
      "new/s.events.yaml:5:7: error: field `n` of event `A` changed type from `Int` to `String`",
    ]),
  Evolution(
    name: "the version rule holds even in mode none",
    old: "events:\n  A:\n    fields:\n      n: Int\n", new: "events:\n  A:\n    fields:\n      n: String\n",
    mode: .none,
    expected: [
      "new/s.events.yaml:1:1: error: 1 breaking change but `version` stays 1: raise it to 2",
      "new/s.events.yaml:4:7: note: field `n` of event `A` changed type from `Int` to `String`",
    ]),
  Evolution(
    name: "a break in the other direction still needs a version bump",
    old: "version: 3\nevents:\n  A:\n    fields:\n      n: Int\n", new: "version: 3\nevents:\n  A: {}\n",
    expected: [
      "new/s.events.yaml:1:10: error: 1 breaking change but `version` stays 3: raise it to 4",
      "old/s.events.yaml:5:7: note: field `n` of event `A` was removed: apps on the old schema require it; make it optional or give it a `default` first",
    ]),
  Evolution(
    name: "version lowered",
    old: "version: 2\nevents:\n  A: {}\n", new: "version: 1\nevents:\n  A: {}\n", mode: .none,
    expected: ["new/s.events.yaml:1:10: error: `version` went down from 2 to 1; versions only go up"]),
]

@Suite("Schema evolution")
struct CompatibilityTests {
  @Test("a change reports exactly its diagnostics", arguments: evolutions)
  func evolution(_ evolution: Evolution) throws {
    #expect(try compare(evolution.old, evolution.new, mode: evolution.mode) == evolution.expected)
  }

  @Test func theSamplesAreCompatibleWithThemselves() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let folder = root.appendingPathComponent("Schemas")
    let sources = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      .filter { $0.hasSuffix(".events.yaml") }
      .map {
        SchemaSource(path: "Schemas/\($0)", bytes: Array(try Data(contentsOf: folder.appendingPathComponent($0))))
      }
    let schema = try #require(SchemaLoader.load(sources).schema)
    for mode in CompatibilityMode.allCases {
      #expect(CompatibilityChecker.check(old: schema, new: schema, mode: mode).isEmpty)
    }
  }

  @Test func everyRuleBreaksWhatItSaysAndNothingMore() throws {
    // The same field removal is an error only where forward readers are protected.
    let old = "version: 1\nevents:\n  A:\n    fields:\n      n: Int\n"
    let new = "version: 2\nevents:\n  A: {}\n"
    let severities = try CompatibilityMode.allCases.map { mode in
      try compare(old, new, mode: mode).map { $0.contains(": error: ") }
    }
    #expect(severities == [[false], [true], [true], [false]])
  }
}
