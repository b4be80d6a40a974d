import Testing

/// Bad schemas, each with the exact diagnostics it must produce (file `s.events.yaml`).
///
/// One case per rule of the format; `expected` lists every diagnostic of the run, sorted.
struct BadSchema: CustomTestStringConvertible, Sendable {
  var name: String
  var yaml: String
  var expected: [String]

  var testDescription: String { name }
}

let badSchemas: [BadSchema] = [
  // MARK: YAML itself
  BadSchema(
    name: "unclosed flow sequence",
    yaml: "events:\n  A:\n    fields:\n      x: [Int\n",
    expected: [
      "5:1: error: YAML syntax error: did not find expected ',' or ']' while parsing a flow sequence started at 4:10"
    ]),
  BadSchema(
    name: "tab indentation",
    yaml: "events:\n\tA: {}\n",
    expected: ["2:1: error: YAML does not allow tab characters here; indent with spaces"]),
  BadSchema(
    name: "tab after multi-byte characters",
    yaml: "doc: \"Événements — caf\u{E9}\"\nevents:\n\tA: {}\n",
    expected: ["3:1: error: YAML does not allow tab characters here; indent with spaces"]),
  BadSchema(
    name: "bad indentation",
    yaml: "events:\n  A:\n    doc: x\n   fields: {}\n",
    expected: ["4:4: error: YAML syntax error: did not find expected key while parsing a block mapping started at 2:3"]),
  BadSchema(
    name: "empty file",
    yaml: "",
    expected: ["1:1: error: the schema file is empty"]),
  BadSchema(
    name: "only comments",
    yaml: "# nothing here\n",
    expected: ["2:1: error: the schema file is empty"]),
  BadSchema(
    name: "two documents",
    yaml: "events: {}\n---\nevents: {}\n",
    expected: ["2:1: error: a schema file holds one YAML document; found a second one"]),
  BadSchema(
    name: "alias",
    yaml: "types:\n  A:\n    wraps: String\nevents:\n  E:\n    fields:\n      a: *x\n",
    expected: ["7:10: error: aliases (`*name`) are not supported in event schemas; write the value out"]),
  BadSchema(
    name: "anchor",
    yaml: "events:\n  E: &base\n    fields: {}\n",
    expected: ["2:6: error: anchors (`&name`) are not supported in event schemas; write the value out"]),
  BadSchema(
    name: "top level is a sequence",
    yaml: "- a\n- b\n",
    expected: ["1:1: error: a schema file is a mapping with keys such as `events:` and `types:`; found a sequence"]),
  BadSchema(
    name: "duplicate top-level key",
    yaml: "events: {}\nevents: {}\n",
    expected: ["2:1: error: duplicate key `events` (first at line 1, column 1)"]),
  BadSchema(
    name: "duplicate event",
    yaml: "events:\n  A: {}\n  A: {}\n",
    expected: ["3:3: error: duplicate key `A` (first at line 2, column 3)"]),
  BadSchema(
    name: "duplicate field key",
    yaml: "events:\n  A:\n    fields:\n      x: Int\n      x: String\n",
    expected: ["5:7: error: duplicate key `x` (first at line 4, column 7)"]),

  // MARK: Keys and shapes
  BadSchema(
    name: "unknown top-level key with hint",
    yaml: "event:\n  A: {}\n",
    expected: ["1:1: error: unknown key `event` in the schema file; did you mean `events`?"]),
  BadSchema(
    name: "unknown event key with hint",
    yaml: "events:\n  A:\n    subjekt: x\n",
    expected: ["3:5: error: unknown key `subjekt` in event `A`; did you mean `subject`?"]),
  BadSchema(
    name: "unknown field key without a close match",
    yaml: "events:\n  A:\n    fields:\n      x:\n        type: Int\n        colour: red\n",
    expected: [
      "6:9: error: unknown key `colour` in field `x`; expected one of: type, doc, default, const, key, deprecated"
    ]),
  BadSchema(
    name: "fields is a sequence",
    yaml: "events:\n  A:\n    fields: [x, y]\n",
    expected: ["3:13: error: expected a mapping for the fields of event `A`, found a sequence"]),
  BadSchema(
    name: "long form without type",
    yaml: "events:\n  A:\n    fields:\n      x:\n        doc: hi\n",
    expected: ["4:7: error: field `x` needs a `type:`"]),
  BadSchema(
    name: "type without a body",
    yaml: "types:\n  T:\n    doc: nothing\n",
    expected: ["2:3: error: type `T` needs one of `wraps:`, `enum:` or `fields:`"]),
  BadSchema(
    name: "type with two bodies",
    yaml: "types:\n  T:\n    wraps: String\n    enum: [a]\n",
    expected: ["4:5: error: type `T` has both `wraps` and `enum`; a type is one of `wraps:`, `enum:` or `fields:`"]),
  BadSchema(
    name: "frozen on a record",
    yaml: "types:\n  T:\n    fields: {}\n    frozen: true\n",
    expected: ["4:5: error: `frozen` applies to enums only"]),
  BadSchema(
    name: "version is not a number",
    yaml: "version: two\nevents: {}\n",
    expected: ["1:10: error: expected an integer for `version`"]),
  BadSchema(
    name: "version zero",
    yaml: "version: 0\nevents: {}\n",
    expected: ["1:10: error: `version` must be 1 or higher; found 0"]),
  BadSchema(
    name: "group with events and cases",
    yaml: "events:\n  A: {}\ngroups:\n  G:\n    events: [A]\n    cases: {a: A}\n",
    expected: ["6:5: error: group `G` has both `events:` and `cases:`; use one"]),
  BadSchema(
    name: "group without events",
    yaml: "events:\n  A: {}\ngroups:\n  G:\n    doc: empty\n",
    expected: ["4:3: error: group `G` needs `events:` (a list) or `cases:` (a mapping of case name to event)"]),

  // MARK: Types
  BadSchema(
    name: "misspelled built-in type",
    yaml: "events:\n  A:\n    fields:\n      x: Strng\n",
    expected: ["4:10: error: unknown type `Strng`; did you mean `String`?"]),
  BadSchema(
    name: "misspelled declared type, case only",
    yaml: "types:\n  ListingID:\n    wraps: String\nevents:\n  A:\n    fields:\n      x: ListingId\n",
    expected: ["7:10: error: unknown type `ListingId`; did you mean `ListingID`?"]),
  BadSchema(
    name: "unknown type inside a bare array",
    yaml: "events:\n  A:\n    fields:\n      x: [Tagg]\n",
    expected: ["4:11: error: unknown type `Tagg`"]),
  BadSchema(
    name: "unknown value type inside a bare dictionary",
    yaml: "events:\n  A:\n    fields:\n      x: [String: Strin]\n",
    expected: ["4:19: error: unknown type `Strin`; did you mean `String`?"]),
  BadSchema(
    name: "unknown type inside a quoted nested type",
    yaml: "events:\n  A:\n    fields:\n      x: \"[String: [Mony]?]\"\n",
    expected: ["4:21: error: unknown type `Mony`"]),
  BadSchema(
    name: "non-String dictionary key",
    yaml: "events:\n  A:\n    fields:\n      x: \"[Int: String]\"\n",
    expected: [
      "4:12: error: dictionary keys must be `String` (userInfo and JSON objects have string keys); found `Int`"
    ]),
  BadSchema(
    name: "non-String dictionary key, bare",
    yaml: "events:\n  A:\n    fields:\n      x: [UUID: String]\n",
    expected: [
      "4:11: error: dictionary keys must be `String` (userInfo and JSON objects have string keys); found `UUID`"
    ]),
  BadSchema(
    name: "double optional",
    yaml: "events:\n  A:\n    fields:\n      x: String??\n",
    expected: ["4:10: error: `String??` is an optional of an optional; a missing key cannot tell the two apart"]),
  BadSchema(
    name: "unclosed bracket in a quoted type",
    yaml: "events:\n  A:\n    fields:\n      x: \"[String\"\n",
    expected: ["4:18: error: expected `]` to close the type"]),
  BadSchema(
    name: "garbage after a type",
    yaml: "events:\n  A:\n    fields:\n      x: String!\n",
    expected: ["4:16: error: unexpected `!` after the type"]),
  BadSchema(
    name: "array type with two elements",
    yaml: "events:\n  A:\n    fields:\n      x: [Int, String]\n",
    expected: ["4:10: error: an array type holds exactly one element type, as in `[String]`; found 2"]),
  BadSchema(
    name: "group used as a field type",
    yaml: "events:\n  A: {}\n  B:\n    fields:\n      a: G\ngroups:\n  G:\n    events: [A]\n",
    expected: [
      "5:10: error: `G` is a group, not a type; a field holds one event type, or a type declared under `types:`"
    ]),
  BadSchema(
    name: "wrapper of a non-scalar",
    yaml: "types:\n  W:\n    wraps: Date\n",
    expected: [
      "3:12: error: `wraps` takes one of String, Int, Int8, Int16, Int32, Int64, UInt, UInt8, UInt16, UInt32, UInt64, Double, Float, UUID"
    ]),
  BadSchema(
    name: "direct recursion of a required field, which no finite value has",
    yaml: "types:\n  Node:\n    fields:\n      next: Node\n      children: [Node]\n",
    expected: [
      "4:7: error: recursive value type: `Node.next` requires a `Node`, which requires a `Node` in turn, so no finite value has this shape; make a field on the cycle optional, or an array such as `[Node]`"
    ]),
  BadSchema(
    name: "recursion of required fields through two types",
    yaml: "types:\n  A:\n    fields:\n      b: B\n  B:\n    fields:\n      a: A\n",
    expected: [
      "7:7: error: recursive value type: `B.a` requires a `A`, which requires a `B` in turn, so no finite value has this shape; make a field on the cycle optional, or an array such as `[A]`"
    ]),

  // MARK: Names
  BadSchema(
    name: "type name that is not an identifier",
    yaml: "types:\n  Listing-ID:\n    wraps: String\n",
    expected: [
      "2:3: error: `Listing-ID` is not a valid Swift identifier; use letters, digits and `_`, not starting with a digit"
    ]),
  BadSchema(
    name: "field name starting with a digit",
    yaml: "events:\n  A:\n    fields:\n      2fa: Bool\n",
    expected: [
      "4:7: error: field `2fa` is not a valid Swift identifier; use letters, digits and `_`, not starting with a digit"
    ]),
  BadSchema(
    name: "keyword as type name",
    yaml: "types:\n  class:\n    wraps: String\n",
    expected: ["2:3: error: `class` is a Swift keyword and cannot name a type"]),
  BadSchema(
    name: "keyword as event name",
    yaml: "events:\n  Protocol: {}\n",
    expected: ["2:3: error: `Protocol` is a Swift keyword and cannot name an event"]),
  BadSchema(
    name: "self as field name",
    yaml: "events:\n  A:\n    fields:\n      self: String\n",
    expected: ["4:7: error: `self` cannot name a field, even in backticks; choose another name"]),
  BadSchema(
    name: "type named like a built-in",
    yaml: "types:\n  Date:\n    wraps: String\n",
    expected: ["2:3: error: `Date` is a built-in type of the schema language; choose another name"]),
  BadSchema(
    name: "type named like a module that generated code qualifies with",
    yaml: "types:\n  Foundation:\n    wraps: String\n",
    expected: [
      "2:3: error: `Foundation` is the module generated code qualifies Foundation names with; choose another name"
    ]),
  BadSchema(
    name: "event named like the catalog's member",
    yaml: "events:\n  catalog:\n    fields:\n      id: String\n",
    expected: ["2:3: error: `catalog` is a member of the catalog that generated code declares; choose another name"]),
  BadSchema(
    name: "field clashing with a generated member",
    yaml: "events:\n  A:\n    fields:\n      userInfo: String\n",
    expected: [
      "4:7: error: field `userInfo` clashes with a member that generated code declares; rename it and keep the wire name with `key: userInfo`"
    ]),
  BadSchema(
    name: "duplicate name: event and type",
    yaml: "types:\n  A:\n    wraps: String\nevents:\n  A: {}\n",
    expected: ["5:3: error: duplicate name `A`: already declared as a type at s.events.yaml:2:3"]),
  BadSchema(
    name: "duplicate wire key",
    yaml: "events:\n  A:\n    fields:\n      a: Int\n      b:\n        type: Int\n        key: a\n",
    expected: ["7:14: error: wire key \"a\" is used twice (first at line 4, column 7)"]),
  BadSchema(
    name: "open enum with the catch-all's case",
    yaml: "types:\n  S:\n    enum: [known, UNRECOGNIZED]\n",
    expected: [
      "3:19: error: `UNRECOGNIZED` is the case an open enum keeps unknown values in; rename the case or add `frozen: true`"
    ]),
  BadSchema(
    name: "duplicate enum case is one error",
    yaml: "types:\n  S:\n    enum: [a, a]\n",
    expected: ["3:15: error: duplicate case `a` in enum `S`"]),
  BadSchema(
    name: "enum case clashing with a generated member",
    yaml: "types:\n  S:\n    enum: [rawValue, knownCases]\n",
    expected: [
      "3:12: error: enum case `rawValue` clashes with the member `rawValue` that generated code declares; choose another name",
      "3:22: error: enum case `knownCases` clashes with the member `knownCases` that generated code declares; choose another name",
    ]),
  BadSchema(
    name: "group case clashing with a generated member",
    yaml: "events:\n  A: {}\n  B: {}\ngroups:\n  G:\n    cases: {members: A, event: B}\n",
    expected: [
      "6:13: error: group case `members` clashes with the member `members` that generated code declares; choose another name",
      "6:25: error: group case `event` clashes with the member `event` that generated code declares; choose another name",
    ]),
  BadSchema(
    name: "type shadowing a generic parameter of the generated coding",
    yaml: "types:\n  Reader:\n    wraps: String\n",
    expected: ["2:3: error: `Reader` is a generic parameter of the generated field coding; choose another name"]),
  BadSchema(
    name: "type shadowing the generic parameter of EventSelector",
    yaml: "types:\n  Value:\n    wraps: String\n",
    expected: [
      "2:3: error: `Value` is the generic parameter of TypedEvents.EventSelector, which the filter helpers extend; choose another name"
    ]),
  BadSchema(
    name: "enum with a duplicate raw value",
    yaml: "types:\n  C:\n    enum: {euro: EUR, eur: EUR}\n",
    expected: ["3:28: error: duplicate raw value \"EUR\" in enum `C` (first at line 3, column 18)"]),
  BadSchema(
    name: "bad namespace",
    yaml: "namespace: my.app\nevents: {}\n",
    expected: ["1:12: error: namespace `my.app` is not a valid Swift identifier"]),

  // MARK: Defaults
  BadSchema(
    name: "default out of range",
    yaml: "events:\n  A:\n    fields:\n      x:\n        type: UInt8\n        default: 256\n",
    expected: ["6:18: error: `256` is out of range for `UInt8`"]),
  BadSchema(
    name: "negative default for unsigned",
    yaml: "events:\n  A:\n    fields:\n      x:\n        type: UInt\n        default: -1\n",
    expected: ["6:18: error: `-1` is out of range for `UInt`"]),
  BadSchema(
    name: "string default for an integer",
    yaml: "events:\n  A:\n    fields:\n      x:\n        type: Int\n        default: \"5\"\n",
    expected: ["6:18: error: default value the string \"5\" does not fit type `Int`"]),
  BadSchema(
    name: "null default for a required field",
    yaml: "events:\n  A:\n    fields:\n      x:\n        type: String\n        default: null\n",
    expected: ["6:18: error: default value null does not fit type `String`"]),
  BadSchema(
    name: "default that is no case, with hint",
    yaml:
      "types:\n  S:\n    enum: [active, sold]\nevents:\n  A:\n    fields:\n      x:\n        type: S\n        default: actve\n",
    expected: ["9:18: error: `actve` is not a case of `S`; did you mean `active`?"]),
  BadSchema(
    name: "default for a Date",
    yaml: "events:\n  A:\n    fields:\n      x:\n        type: Date\n        default: 2024-01-01\n",
    expected: ["6:18: error: `Date` fields cannot have a default; make the field optional instead"]),
  BadSchema(
    name: "bad element in an array default",
    yaml: "events:\n  A:\n    fields:\n      x:\n        type: [Bool]\n        default: [true, maybe]\n",
    expected: ["6:25: error: default value `maybe` does not fit type `Bool`"]),
  BadSchema(
    name: "float default past Float's range",
    yaml: "events:\n  A:\n    fields:\n      x:\n        type: Float\n        default: 1e39\n",
    expected: ["6:18: error: default value `1e39` does not fit type `Float`"]),
  BadSchema(
    name: "dictionary default with a sequence as key",
    yaml: "events:\n  A:\n    fields:\n      x:\n        type: \"[String: Int]\"\n        default: {[a]: 1}\n",
    expected: ["6:19: error: keys of a dictionary default are strings"]),
  BadSchema(
    name: "infinite double default",
    yaml: "events:\n  A:\n    fields:\n      x:\n        type: Double\n        default: 1e999\n",
    expected: ["6:18: error: default value `1e999` does not fit type `Double`"]),

  // MARK: Subjects and groups
  BadSchema(
    name: "subject names no field, with hint",
    yaml: "events:\n  A:\n    subject: idd\n    fields:\n      id: String\n",
    expected: ["3:14: error: subject `idd` names no field: event `A` has no field `idd`; did you mean `id`?"]),
  BadSchema(
    name: "subject path into a record",
    yaml:
      "types:\n  L:\n    fields:\n      id: String\nevents:\n  A:\n    subject: listing.identifier\n    fields:\n      listing: L\n",
    expected: ["7:22: error: subject `listing.identifier` names no field: type `L` has no field `identifier`"]),
  BadSchema(
    name: "subject through an optional",
    yaml: "events:\n  A:\n    subject: id\n    fields:\n      id: String?\n",
    expected: ["3:14: error: subject `id` goes through the optional field `id`; a subject must always be present"]),
  BadSchema(
    name: "subject past a scalar",
    yaml: "events:\n  A:\n    subject: id.value\n    fields:\n      id: String\n",
    expected: [
      "3:17: error: subject path `id.value` continues past `id`, which is of type `String`, not a value type with fields"
    ]),
  BadSchema(
    name: "group names no event, with hint",
    yaml: "events:\n  ListingSold: {}\ngroups:\n  G:\n    events: [ListingSld]\n",
    expected: ["5:14: error: group `G` names no event `ListingSld`; did you mean `ListingSold`?"]),
  BadSchema(
    name: "group names a type",
    yaml: "types:\n  T:\n    wraps: String\nevents:\n  A: {}\ngroups:\n  G:\n    events: [A, T]\n",
    expected: ["8:17: error: `T` is a type, not an event; groups hold events"]),
  BadSchema(
    name: "group lists an event twice",
    yaml: "events:\n  A: {}\ngroups:\n  G:\n    events: [A, A]\n",
    expected: ["5:17: error: event `A` appears twice in group `G`"]),

  // MARK: Limits
  BadSchema(
    name: "20,000-deep nesting",
    yaml: "events:\n  A:\n    fields:\n      x: " + String(repeating: "[", count: 20_000) + "Int"
      + String(repeating: "]", count: 20_000) + "\n",
    expected: ["4:70: error: nesting is deeper than 64 levels; a schema never needs that much"]),

  // MARK: Found by fuzzing (Scripts/fuzz); the inputs are in FuzzRegressions/
  BadSchema(
    name: "enum with an invalid name and unreadable cases",
    yaml: "types:\n  Bad Name:\n    enum: x\n",
    expected: [
      "2:3: error: `Bad Name` is not a valid Swift identifier; use letters, digits and `_`, not starting with a digit",
      "3:11: error: expected a sequence for the cases of type `Bad Name` (a list, or a mapping of case to raw value), found a scalar",
    ]),
  BadSchema(
    name: "enum with an empty list of cases",
    yaml: "types:\n  Kind:\n    enum: []\n",
    expected: ["3:11: error: type `Kind` has no cases"]),
  BadSchema(
    name: "enum with an empty mapping of cases",
    yaml: "types:\n  Kind:\n    enum: {}\n",
    expected: ["3:11: error: type `Kind` has no cases"]),
  BadSchema(
    name: "lines broken by CR alone",
    yaml: "events:\r  A:\r    fields:\r      x: Itn\r",
    expected: ["4:10: error: unknown type `Itn`; did you mean `Int`?"]),
  BadSchema(
    name: "lines broken by CR LF",
    yaml: "events:\r\n  A:\r\n    fields:\r\n      x: Itn\r\n",
    expected: ["4:10: error: unknown type `Itn`; did you mean `Int`?"]),
  // MARK: Replay per subject
  BadSchema(
    name: "replay per subject without a subject",
    yaml: "events:\n  A:\n    replay: { per-subject: 5 }\n    fields:\n      id: String\n",
    expected: [
      "3:28: error: event `A` keeps its latest event per subject but has no `subject:`; name the field it is about"
    ]),
  BadSchema(
    name: "replay per subject on a group with an event without a subject",
    yaml:
      "events:\n  A:\n    subject: id\n    fields:\n      id: String\n  B: {}\ngroups:\n  G:\n    replay: { per-subject: 5 }\n    events: [A, B]\n",
    expected: ["9:28: error: group `G` keeps its latest events per subject, but its event `B` has no `subject:`"]),
  BadSchema(
    name: "replay per subject of zero",
    yaml: "events:\n  A:\n    subject: id\n    replay: { per-subject: 0 }\n    fields:\n      id: String\n",
    expected: ["4:28: error: `per-subject` must be 1 or more; found 0"]),
  BadSchema(
    name: "replay without per-subject",
    yaml: "events:\n  A:\n    subject: id\n    replay: { latest: 3 }\n    fields:\n      id: String\n",
    expected: [
      "4:13: error: `replay` of event `A` needs `per-subject: <number of subjects>`",
      "4:15: error: unknown key `latest` in `replay` of event `A`; expected one of: per-subject",
    ]),
]
