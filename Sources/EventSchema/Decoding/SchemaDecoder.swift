/// Decodes a file's YAML node tree into a ``SchemaDocument``: the keys and shapes of the format,
/// with every value located. Names are resolved and rules checked later, by the validator.
struct SchemaDecoder {
  static let topLevelKeys = ["namespace", "version", "doc", "types", "events", "external", "groups"]
  static let typeKeys = ["doc", "deprecated", "wraps", "enum", "frozen", "fields"]
  static let eventKeys = ["doc", "deprecated", "subject", "fields", "replay"]
  static let fieldKeys = ["type", "doc", "default", "const", "key", "deprecated"]
  static let groupKeys = ["doc", "events", "cases", "replay"]

  private var reader = NodeReader()
  private let path: String

  init(path: String) {
    self.path = path
  }

  /// Decodes `root`, returning the document and the diagnostics found on the way.
  static func decode(_ root: YAMLNode, path: String) -> (SchemaDocument, [Diagnostic]) {
    var decoder = SchemaDecoder(path: path)
    let document = decoder.document(root)
    return (document, decoder.reader.log.all)
  }

  private mutating func document(_ root: YAMLNode) -> SchemaDocument {
    var document = SchemaDocument(path: path)
    guard case .mapping = root.content else {
      reader.log.error(
        "a schema file is a mapping with keys such as `events:` and `types:`; found \(root.kindDescription)",
        at: root.location)
      return document
    }
    guard let keys = reader.fields(of: root, what: "the schema file", allowed: Self.topLevelKeys) else {
      return document
    }
    if let node = keys["namespace"]?.value {
      document.namespace = reader.located(node, what: "`namespace`")
    }
    if let node = keys["version"]?.value, let version = reader.integer(node, what: "`version`") {
      if version < 1 {
        reader.log.error("`version` must be 1 or higher; found \(version)", at: node.location)
      }
      document.version = Located(value: version, location: node.location)
    }
    document.doc = reader.doc(keys["doc"]?.value)
    if let node = keys["types"]?.value, let entries = reader.entries(of: node, what: "`types`") {
      document.types = entries.compactMap { type(named: $0.key, $0.value) }
    }
    if let node = keys["events"]?.value, let entries = reader.entries(of: node, what: "`events`") {
      document.events = entries.compactMap { event(named: $0.key, $0.value) }
    }
    if let node = keys["external"]?.value, let items = reader.items(of: node, what: "`external` (a list of type names)")
    {
      document.externals = items.compactMap { reader.located($0, what: "an external type name") }
    }
    if let node = keys["groups"]?.value, let entries = reader.entries(of: node, what: "`groups`") {
      document.groups = entries.compactMap { group(named: $0.key, $0.value) }
    }
    return document
  }

  private mutating func type(named name: Located<String>, _ node: YAMLNode) -> TypeSyntax? {
    let what = "type `\(name.value)`"
    guard let keys = reader.fields(of: node, what: what, allowed: Self.typeKeys) else { return nil }
    let bodies = ["wraps", "enum", "fields"].filter { keys[$0] != nil }
    guard bodies.count == 1 else {
      let message =
        bodies.isEmpty
        ? "\(what) needs one of `wraps:`, `enum:` or `fields:`"
        : "\(what) has both `\(bodies[0])` and `\(bodies[1])`; a type is one of `wraps:`, `enum:` or `fields:`"
      reader.log.error(message, at: bodies.count > 1 ? (keys[bodies[1]]?.key.location ?? name.location) : name.location)
      return nil
    }
    if let frozen = keys["frozen"], keys["enum"] == nil {
      reader.log.error("`frozen` applies to enums only", at: frozen.key.location)
    }
    let body: TypeSyntax.Body
    if let wrapped = keys["wraps"]?.value {
      guard let expression = TypeExpressionParser.parse(wrapped, log: &reader.log) else { return nil }
      body = .wraps(expression)
    } else if let cases = keys["enum"]?.value {
      let frozen = keys["frozen"].flatMap { reader.bool($0.value, what: "`frozen`") } ?? false
      body = .enumeration(cases: enumCases(cases, what: what), frozen: frozen)
    } else {
      body = .fields(fields(keys["fields"]?.value, what: what))
    }
    return TypeSyntax(
      name: name, body: body, doc: reader.doc(keys["doc"]?.value),
      deprecated: reader.deprecation(keys["deprecated"]?.value))
  }

  private mutating func enumCases(
    _ node: YAMLNode, what: String
  ) -> [(name: Located<String>, rawValue: Located<String>)] {
    // An empty list is reported here; a malformed one already was, by the reader.
    if case .mapping = node.content {
      guard let entries = reader.entries(of: node, what: "the cases of \(what)") else { return [] }
      if entries.isEmpty { reader.log.error("\(what) has no cases", at: node.location) }
      return entries.compactMap { entry in
        reader.located(entry.value, what: "the raw value of case `\(entry.key.value)`").map { (entry.key, $0) }
      }
    }
    guard let items = reader.items(of: node, what: "the cases of \(what) (a list, or a mapping of case to raw value)")
    else {
      return []
    }
    if items.isEmpty { reader.log.error("\(what) has no cases", at: node.location) }
    return items.compactMap { item in
      reader.located(item, what: "an enum case").map { ($0, $0) }
    }
  }

  private mutating func event(named name: Located<String>, _ node: YAMLNode) -> EventSyntax? {
    let what = "event `\(name.value)`"
    guard let keys = reader.fields(of: node, what: what, allowed: Self.eventKeys) else { return nil }
    var event = EventSyntax(
      name: name,
      fields: fields(keys["fields"]?.value, what: what),
      subject: keys["subject"].flatMap { reader.located($0.value, what: "`subject` (a field name or dotted path)") },
      doc: reader.doc(keys["doc"]?.value),
      deprecated: reader.deprecation(keys["deprecated"]?.value))
    event.replayPerSubject = keys["replay"].flatMap { replay($0.value, what: what) }
    return event
  }

  /// `replay: { per-subject: N }`: the number of subjects, at least 1.
  private mutating func replay(_ node: YAMLNode, what: String) -> Located<Int>? {
    guard let keys = reader.fields(of: node, what: "`replay` of \(what)", allowed: ["per-subject"]) else { return nil }
    guard let limit = keys["per-subject"] else {
      reader.log.error("`replay` of \(what) needs `per-subject: <number of subjects>`", at: node.location)
      return nil
    }
    guard let value = reader.integer(limit.value, what: "`per-subject` (the number of subjects kept)") else {
      return nil
    }
    guard value >= 1 else {
      reader.log.error("`per-subject` must be 1 or more; found \(value)", at: limit.value.location)
      return nil
    }
    return Located(value: value, location: limit.value.location)
  }

  private mutating func fields(_ node: YAMLNode?, what: String) -> [FieldSyntax] {
    guard let node, let entries = reader.entries(of: node, what: "the fields of \(what)") else { return [] }
    return entries.compactMap { field(named: $0.key, $0.value) }
  }

  private mutating func field(named name: Located<String>, _ node: YAMLNode) -> FieldSyntax? {
    guard case .mapping = node.content else {
      // The short form: `name: Type`.
      return TypeExpressionParser.parse(node, log: &reader.log).map { FieldSyntax(name: name, type: $0) }
    }
    let what = "field `\(name.value)`"
    guard let keys = reader.fields(of: node, what: what, allowed: Self.fieldKeys) else { return nil }
    guard let typeNode = keys["type"]?.value else {
      reader.log.error("\(what) needs a `type:`", at: name.location)
      return nil
    }
    guard let type = TypeExpressionParser.parse(typeNode, log: &reader.log) else { return nil }
    let key = keys["key"].flatMap { reader.located($0.value, what: "`key`") }
    if let key, key.value.isEmpty {
      reader.log.error("`key` must not be empty", at: key.location)
    }
    return FieldSyntax(
      name: name, type: type, doc: reader.doc(keys["doc"]?.value),
      defaultValue: keys["default"].map { reader.literal($0.value) },
      key: key, deprecated: reader.deprecation(keys["deprecated"]?.value),
      constant: keys["const"].map { reader.literal($0.value) })
  }

  private mutating func group(named name: Located<String>, _ node: YAMLNode) -> GroupSyntax? {
    let what = "group `\(name.value)`"
    guard let keys = reader.fields(of: node, what: what, allowed: Self.groupKeys) else { return nil }
    var cases: [(name: Located<String>?, event: Located<String>)] = []
    switch (keys["events"], keys["cases"]) {
    case (let events?, nil):
      let items = reader.items(of: events.value, what: "the events of \(what)") ?? []
      cases = items.compactMap { reader.located($0, what: "an event name") }.map { (nil, $0) }
    case (nil, let explicit?):
      let entries = reader.entries(of: explicit.value, what: "the cases of \(what)") ?? []
      cases = entries.compactMap { entry in
        reader.located(entry.value, what: "the event of case `\(entry.key.value)`").map { (entry.key, $0) }
      }
    case (_?, let explicit?):
      reader.log.error("\(what) has both `events:` and `cases:`; use one", at: explicit.key.location)
      return nil
    case (nil, nil):
      reader.log.error(
        "\(what) needs `events:` (a list) or `cases:` (a mapping of case name to event)", at: name.location)
      return nil
    }
    if cases.isEmpty {
      reader.log.error("\(what) has no events", at: name.location)
    }
    var group = GroupSyntax(cases: cases, name: name, doc: reader.doc(keys["doc"]?.value))
    group.replayPerSubject = keys["replay"].flatMap { replay($0.value, what: what) }
    return group
  }
}
