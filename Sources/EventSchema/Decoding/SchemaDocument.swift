/// A value with the position it was written at.
struct Located<Value: Sendable>: Sendable {
  var value: Value
  var location: SourceLocation
}

/// A type as written in a schema, before names are resolved.
indirect enum TypeExpression: Sendable {
  case named(Located<String>)
  case optional(TypeExpression, SourceLocation)
  case array(TypeExpression, SourceLocation)
  case dictionary(key: TypeExpression, value: TypeExpression, SourceLocation)

  var location: SourceLocation {
    switch self {
    case .named(let name): return name.location
    case .optional(_, let location), .array(_, let location), .dictionary(_, _, let location): return location
    }
  }
}

/// A `default:` value as written, before it is checked against its field's type.
indirect enum Literal: Sendable {
  case null
  case scalar(String, plain: Bool)
  case sequence([Located<Literal>])
  /// Keys are nil where YAML gave a sequence or mapping as the key.
  case mapping([(key: Located<String?>, value: Located<Literal>)])
}

/// A field as written.
struct FieldSyntax: Sendable {
  var name: Located<String>
  var type: TypeExpression
  var doc: String?
  var defaultValue: Located<Literal>?
  var key: Located<String>?
  var deprecated: String?
  /// `const:`: the one value the field holds.
  var constant: Located<Literal>? = nil
  /// Whether `defaultValue` is only an annotation (JSON Schema's): one that does not fit the
  /// type is dropped with a warning, and the field is optional, instead of an error.
  var defaultIsAnnotation = false
  /// The field that holds the object's other keys (`additionalProperties`).
  var keepsOtherKeys = false
  /// The field that is the event's whole JSON (a payload that is a choice, or not an object).
  var isWholePayload = false
  /// For a whole payload that is a choice of objects: its keys are the event's `userInfo`.
  var wholePayloadKeysAreUserInfo = false
}

/// A member of a choice as written.
struct ChoiceMemberSyntax: Sendable {
  var name: Located<String>
  var type: TypeExpression
  var tag: Located<String>?
}

/// An entry under `types:` as written.
struct TypeSyntax: Sendable {
  enum Body: Sendable {
    case wraps(TypeExpression)
    case enumeration(cases: [(name: Located<String>, rawValue: Located<String>)], frozen: Bool)
    case fields([FieldSyntax])
    /// A choice between types, from AsyncAPI's `oneOf`/`anyOf`.
    case choice(members: [ChoiceMemberSyntax], selection: Choice.Selection)
  }
  var name: Located<String>
  var body: Body
  var doc: String?
  var deprecated: String?
}

/// An entry under `events:` as written.
struct EventSyntax: Sendable {
  var name: Located<String>
  var fields: [FieldSyntax]
  var subject: Located<String>?
  var doc: String?
  var deprecated: String?
  /// The wire name, where the input gives it (an AsyncAPI message's `name`); else the
  /// namespace and the event's name.
  var wireName: Located<String>? = nil
  /// The event's own schema version, where the input gives it; else its file's.
  var version: Located<Int>? = nil
  /// `replay: { per-subject: N }`: how many subjects' latest events a bus keeps.
  var replayPerSubject: Located<Int>? = nil
  /// The other wire names the event is known by (an envelope `type` with several values).
  var acceptedWireNames: AcceptedWireNames? = nil
  /// The media type of a binary event's data (``EventDeclaration/binaryContentType``).
  var binaryContentType: String? = nil
  /// The JSON of the event as the input's examples give it (an AsyncAPI message's `examples`),
  /// which the event's type must decode.
  var examples: [Located<Literal>] = []
}

/// An entry under `groups:` as written.
struct GroupSyntax: Sendable {
  /// A case: its explicit name (from `cases:`), or nil to derive it from the event.
  var cases: [(name: Located<String>?, event: Located<String>)]
  var name: Located<String>
  var doc: String?
  /// `replay: { per-subject: N }` for every event of the group.
  var replayPerSubject: Located<Int>? = nil
}

/// One schema file as written: the decoder's output, the validator's input.
struct SchemaDocument: Sendable {
  var path: String
  var namespace: Located<String>?
  var version: Located<Int>?
  var doc: String?
  var types: [TypeSyntax] = []
  var events: [EventSyntax] = []
  var externals: [Located<String>] = []
  var groups: [GroupSyntax] = []
}
