/// A property of an event or a value type.
public struct Field: Hashable, Sendable {
  /// The Swift property name.
  public var name: String
  /// The key in `userInfo` and JSON (`key:` in the schema; the name by default).
  public var wireKey: String
  /// The resolved type.
  public var type: FieldType
  /// Documentation, if any.
  public var doc: String?
  /// The value used when the key is missing on decode.
  public var defaultValue: DefaultValue?
  /// The deprecation message, if deprecated.
  public var deprecated: String?
  /// The fixed value (`const:`), if any: always written, checked on decode, and no initializer
  /// parameter. An optional field's key may be missing; when present it must hold this value.
  public var constant: DefaultValue?
  /// Whether the field holds the keys no other field has (JSON Schema's `additionalProperties`
  /// beside `properties`): its type is `[String: T]`, and it has no wire key of its own.
  public var keepsOtherKeys: Bool
  /// Whether the field is its event's whole JSON, with no key of its own: an AsyncAPI payload
  /// that is itself a choice (`oneOf`/`anyOf`), or that is not an object (a string, a number, a
  /// Boolean, an array). Such a field is its event's only one.
  public var isWholePayload: Bool
  /// For a whole payload: whether its keys are the event's `userInfo` (a choice whose members
  /// are all objects); else `userInfo` holds the payload under the field's name.
  public var wholePayloadKeysAreUserInfo = false
  /// Whether the field is stored out of line: its type contains, by value, the type that holds
  /// the field (a tree's parent, a comment's reply), so Swift needs the indirection. The
  /// validator sets it; the property still has the field's type, and its JSON is unchanged.
  public var isIndirect = false
  /// Where the field is declared.
  public var location: SourceLocation

  /// Creates a field.
  public init(
    name: String, wireKey: String, type: FieldType, doc: String? = nil,
    defaultValue: DefaultValue? = nil, deprecated: String? = nil, constant: DefaultValue? = nil,
    keepsOtherKeys: Bool = false, isWholePayload: Bool = false, location: SourceLocation
  ) {
    self.keepsOtherKeys = keepsOtherKeys
    self.isWholePayload = isWholePayload
    self.name = name
    self.wireKey = wireKey
    self.type = type
    self.doc = doc
    self.defaultValue = defaultValue
    self.deprecated = deprecated
    self.constant = constant
    self.location = location
  }
}

/// A case of an enum type.
public struct EnumCase: Hashable, Sendable {
  /// The Swift case name.
  public var name: String
  /// The string on the wire.
  public var rawValue: String

  /// Creates a case.
  public init(name: String, rawValue: String) {
    self.name = name
    self.rawValue = rawValue
  }
}

/// A choice between types: which member a JSON value is, and how that is decided.
public struct Choice: Hashable, Sendable {
  /// How decoding picks the member.
  public enum Selection: Hashable, Sendable {
    /// By the string under this key: each member's ``Member/tag``. A tag no member has decodes
    /// into the `UNRECOGNIZED` case, which keeps the JSON; a missing key tries the members as
    /// ``exactlyOne`` does.
    case discriminator(String)
    /// `oneOf`: every member is tried, and exactly one must decode.
    case exactlyOne
    /// `anyOf`: the members are tried in order, and the first that decodes is taken.
    case first
  }

  /// One member: an enum case with the member's value.
  public struct Member: Hashable, Sendable {
    /// The Swift case name.
    public var name: String
    /// The member's type.
    public var type: FieldType
    /// The discriminator's value for this member, when the choice has one.
    public var tag: String?

    /// Creates a member.
    public init(name: String, type: FieldType, tag: String? = nil) {
      self.name = name
      self.type = type
      self.tag = tag
    }
  }

  /// The members, in the order written.
  public var members: [Member]
  /// How decoding picks the member.
  public var selection: Selection
  /// Whether the choice holds its members out of line (an `indirect enum`): a member contains
  /// the choice by value. The validator sets it.
  public var isIndirect = false

  /// Creates a choice.
  public init(members: [Member], selection: Selection) {
    self.members = members
    self.selection = selection
  }
}

/// An entry under `types:`.
public struct TypeDeclaration: Hashable, Sendable {
  /// What kind of type it is.
  public enum Kind: Hashable, Sendable {
    /// `wraps:`, a strong identifier: a struct around one raw value.
    case wrapper(BuiltinType)
    /// `enum:`, string raw values; open (with an `UNRECOGNIZED` case) unless frozen.
    case enumeration(cases: [EnumCase], frozen: Bool)
    /// `fields:`, a value type.
    case record([Field])
    /// A choice between types (JSON Schema's `oneOf` or `anyOf`): an enum with a case per member.
    case choice(Choice)
  }

  /// The Swift type name.
  public var name: String
  /// What kind of type it is.
  public var kind: Kind
  /// Documentation, if any.
  public var doc: String?
  /// The deprecation message, if deprecated.
  public var deprecated: String?
  /// Where the type is declared.
  public var location: SourceLocation

  /// Creates a type declaration.
  public init(name: String, kind: Kind, doc: String? = nil, deprecated: String? = nil, location: SourceLocation) {
    self.name = name
    self.kind = kind
    self.doc = doc
    self.deprecated = deprecated
    self.location = location
  }
}

/// The identity an event is about, such as `listing.id`.
public struct SubjectPath: Hashable, Sendable {
  /// The Swift property names along the path.
  public var properties: [String]
  /// The type at the end of the path.
  public var type: FieldType

  /// Creates a subject path.
  public init(properties: [String], type: FieldType) {
    self.properties = properties
    self.type = type
  }
}

/// An entry under `events:`.
public struct EventDeclaration: Hashable, Sendable {
  /// The Swift type name.
  public var name: String
  /// The name on the wire: `Namespace.Name`, or the name alone without a namespace.
  public var wireName: String
  /// The schema version stamped on the event type.
  public var version: Int
  /// The fields, in the order written.
  public var fields: [Field]
  /// The identity the event is about, if declared.
  public var subject: SubjectPath?
  /// Documentation, if any.
  public var doc: String?
  /// The deprecation message, if deprecated.
  public var deprecated: String?
  /// How many subjects' latest events a bus keeps for replay (`replay: { per-subject: N }` on
  /// the event or a group that holds it); nil for none.
  public var replayPerSubject: Int?
  /// Every wire name the event is known by when it comes in, ``wireName`` among them, where the
  /// CloudEvents envelope's `type` allows several; nil for ``wireName`` alone.
  public var acceptedWireNames: AcceptedWireNames?
  /// The media type of the event's data when it is bytes rather than JSON (a binary frame: an
  /// AsyncAPI message whose payload is `format: binary`, encoded, or of a content type that is
  /// not JSON); its one field, a whole payload, is `Data`. Nil for a JSON event.
  public var binaryContentType: String?
  /// Where the event is declared.
  public var location: SourceLocation

  /// Creates an event declaration.
  public init(
    name: String, wireName: String, version: Int, fields: [Field], subject: SubjectPath? = nil,
    doc: String? = nil, deprecated: String? = nil, replayPerSubject: Int? = nil, location: SourceLocation
  ) {
    self.name = name
    self.wireName = wireName
    self.version = version
    self.fields = fields
    self.subject = subject
    self.doc = doc
    self.deprecated = deprecated
    self.replayPerSubject = replayPerSubject
    self.location = location
  }
}

/// The wire names an event is known by, its own among them.
public enum AcceptedWireNames: Hashable, Sendable {
  /// The names listed (an `enum`).
  case names([String])
  /// Every name the regular expression matches (a `pattern`, unanchored unless it says `^`/`$`).
  case pattern(String)
}

/// An entry under `groups:`: an enum with a case per event.
public struct GroupDeclaration: Hashable, Sendable {
  /// One case of a group.
  public struct Case: Hashable, Sendable {
    /// The Swift case name.
    public var name: String
    /// The event it carries.
    public var event: String

    /// Creates a case.
    public init(name: String, event: String) {
      self.name = name
      self.event = event
    }
  }

  /// The Swift type name.
  public var name: String
  /// The cases, in the order written.
  public var cases: [Case]
  /// The subject type all the group's events share, if they all have one of the same type.
  public var subjectType: FieldType?
  /// Documentation, if any.
  public var doc: String?
  /// Where the group is declared.
  public var location: SourceLocation

  /// Creates a group declaration.
  public init(name: String, cases: [Case], subjectType: FieldType? = nil, doc: String? = nil, location: SourceLocation)
  {
    self.name = name
    self.cases = cases
    self.subjectType = subjectType
    self.doc = doc
    self.location = location
  }
}

/// One validated schema file: one namespace.
public struct SchemaFile: Hashable, Sendable {
  /// The path as given to the run; it names the file in generated headers.
  public var path: String
  /// The namespace that qualifies wire names, if any.
  public var namespace: String?
  /// The schema version, 1 by default.
  public var version: Int
  /// Where `version:` is written; nil when the file leaves it at its default.
  public var versionLocation: SourceLocation?
  /// Documentation, if any.
  public var doc: String?
  /// Declared types, in the order written.
  public var types: [TypeDeclaration]
  /// Events, in the order written.
  public var events: [EventDeclaration]
  /// Groups, in the order written.
  public var groups: [GroupDeclaration]
  /// The user's own Swift types this file uses by name.
  public var externals: [String]

  /// Creates a schema file.
  public init(
    path: String, namespace: String? = nil, version: Int = 1, versionLocation: SourceLocation? = nil,
    doc: String? = nil, types: [TypeDeclaration] = [], events: [EventDeclaration] = [],
    groups: [GroupDeclaration] = [], externals: [String] = []
  ) {
    self.path = path
    self.namespace = namespace
    self.version = version
    self.versionLocation = versionLocation
    self.doc = doc
    self.types = types
    self.events = events
    self.groups = groups
    self.externals = externals
  }
}

/// All schema files of one run, validated together: names resolve across files.
public struct SchemaSet: Hashable, Sendable {
  /// The files, in the order they were given.
  public var files: [SchemaFile]

  /// Creates a set.
  public init(files: [SchemaFile]) {
    self.files = files
  }

  /// Every event of the run, in file order.
  public var allEvents: [EventDeclaration] { files.flatMap(\.events) }
}
