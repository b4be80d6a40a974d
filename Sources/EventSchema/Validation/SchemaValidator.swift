/// Checks the documents of one run together and builds the validated ``SchemaSet``.
///
/// It reports every problem it finds rather than stopping at the first, so that one run shows
/// a user all there is to fix.
struct SchemaValidator {
  /// The most cases a group may have: generated code switches over a group's cases, and Swift
  /// gives up checking a `switch` over 630 or more enum cases.
  static let maximumGroupSize = 500

  // Not private: the checks of groups, in SchemaValidator+Groups.swift, report and look up too.
  var log = DiagnosticLog()
  var symbols = SymbolTable()
  private var enumCases: [String: [EnumCase]] = [:]
  private var recordFields: [String: [Field]] = [:]

  /// Validates `documents`; the set is nil when any error was reported.
  static func validate(_ documents: [SchemaDocument]) -> (SchemaSet?, [Diagnostic]) {
    var validator = SchemaValidator()
    let set = validator.run(documents)
    return (validator.log.hasErrors ? nil : set, validator.log.all)
  }

  private mutating func run(_ documents: [SchemaDocument]) -> SchemaSet {
    for document in documents { declare(document) }
    // Types first: events' subjects and groups' subjects look into records.
    let types = documents.map { $0.types.compactMap { type($0) } }
    var files: [SchemaFile] = []
    for (document, types) in zip(documents, types) {
      let namespace = document.namespace?.value
      let version = document.version?.value ?? 1
      let events = document.events.compactMap { event($0, namespace: namespace, version: version) }
      files.append(
        SchemaFile(
          path: document.path, namespace: namespace, version: version, versionLocation: document.version?.location,
          doc: document.doc, types: types,
          events: events, groups: [], externals: document.externals.map(\.value)))
    }
    let eventsByName = Dictionary(
      files.flatMap(\.events).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    for (index, document) in documents.enumerated() {
      files[index].groups = document.groups.compactMap { group($0, events: eventsByName) }
    }
    applyGroupReplay(documents, to: &files)
    RecursionCheck.apply(to: &files, log: &log)
    // Against types that are whole: an error above may have left a field or type out.
    if !log.hasErrors { ExampleCheck.check(documents, files: files, log: &log) }
    return SchemaSet(files: files)
  }

  // MARK: Names

  private mutating func declare(_ document: SchemaDocument) {
    if let namespace = document.namespace, !SwiftNames.isIdentifier(namespace.value) {
      log.error("namespace `\(namespace.value)` is not a valid Swift identifier", at: namespace.location)
    }
    for type in document.types {
      let kind: SymbolTable.Kind
      switch type.body {
      case .wraps(let wrapped): kind = .wrapper(wrapped)
      case .enumeration(let cases, let frozen):
        kind = .enumeration(cases: cases.map(\.name.value), frozen: frozen)
        // Known before any field is checked, so a default may name a case of a later type.
        enumCases[type.name.value] = cases.map { EnumCase(name: $0.name.value, rawValue: $0.rawValue.value) }
      case .fields: kind = .record
      case .choice: kind = .choice
      }
      symbols.declare(type.name, as: kind, log: &log)
    }
    for external in document.externals { symbols.declare(external, as: .external, log: &log) }
    for event in document.events { symbols.declare(event.name, as: .event, log: &log) }
    for group in document.groups { symbols.declare(group.name, as: .group, log: &log) }
  }

  /// Checks a property or case name: escapable keywords are fine, a few words never are, and
  /// none may redeclare a member that generated code gives the same type (`clashes`).
  mutating func checkMemberName(_ name: Located<String>, what: String, clashes: Set<String> = []) -> Bool {
    guard SwiftNames.isIdentifier(name.value) else {
      log.error(
        "\(what) `\(name.value)` is not a valid Swift identifier; use letters, digits and `_`, not starting with a digit",
        at: name.location)
      return false
    }
    guard !SwiftNames.unusableMemberNames.contains(name.value) else {
      log.error("`\(name.value)` cannot name a \(what), even in backticks; choose another name", at: name.location)
      return false
    }
    guard !clashes.contains(name.value) else {
      log.error(
        "\(what) `\(name.value)` clashes with the member `\(name.value)` that generated code declares; choose another name",
        at: name.location)
      return false
    }
    return true
  }

  // MARK: Types

  private mutating func type(_ syntax: TypeSyntax) -> TypeDeclaration? {
    let kind: TypeDeclaration.Kind
    switch syntax.body {
    case .wraps(let expression):
      guard case .named(let name) = expression, let builtin = BuiltinType(rawValue: name.value), builtin.isWrappable
      else {
        let wrappable = BuiltinType.allCases.filter(\.isWrappable).map(\.swiftName).joined(separator: ", ")
        log.error("`wraps` takes one of \(wrappable)", at: expression.location)
        return nil
      }
      kind = .wrapper(builtin)
    case .enumeration(let cases, let frozen):
      guard let checked = enumeration(syntax.name.value, cases: cases, frozen: frozen) else { return nil }
      kind = .enumeration(cases: checked, frozen: frozen)
    case .choice(let members, let selection):
      guard let checked = choice(syntax.name.value, members: members, selection: selection) else { return nil }
      kind = .choice(checked)
    case .fields(let fields):
      guard let checked = self.fields(fields) else { return nil }
      recordFields[syntax.name.value] = checked
      kind = .record(checked)
    }
    return TypeDeclaration(
      name: syntax.name.value, kind: kind, doc: syntax.doc, deprecated: syntax.deprecated,
      location: syntax.name.location)
  }

  private mutating func enumeration(
    _ name: String, cases: [(name: Located<String>, rawValue: Located<String>)], frozen: Bool
  ) -> [EnumCase]? {
    // The decoder reported why there are none: an empty list, or one it could not read.
    guard !cases.isEmpty else { return nil }
    var result: [EnumCase] = []
    var rawValues: [String: SourceLocation] = [:]
    var valid = true
    for entry in cases {
      guard checkMemberName(entry.name, what: "enum case", clashes: SwiftNames.enumMembers) else {
        valid = false
        continue
      }
      if !frozen && entry.name.value == SwiftNames.unrecognizedCase {
        log.error(
          "`\(SwiftNames.unrecognizedCase)` is the case an open enum keeps unknown values in; rename the case or add `frozen: true`",
          at: entry.name.location)
        valid = false
      }
      if result.contains(where: { $0.name == entry.name.value }) {
        log.error("duplicate case `\(entry.name.value)` in enum `\(name)`", at: entry.name.location)
        valid = false
        continue  // its raw value is a duplicate too when it is the name: one error says it
      }
      if let first = rawValues[entry.rawValue.value] {
        log.error(
          "duplicate raw value \"\(entry.rawValue.value)\" in enum `\(name)` (first at line \(first.line), column \(first.column))",
          at: entry.rawValue.location)
        valid = false
      }
      rawValues[entry.rawValue.value] = entry.rawValue.location
      result.append(EnumCase(name: entry.name.value, rawValue: entry.rawValue.value))
    }
    enumCases[name] = result
    return valid ? result : nil
  }

  private mutating func choice(
    _ name: String, members: [ChoiceMemberSyntax], selection: Choice.Selection
  ) -> Choice? {
    var result: [Choice.Member] = []
    var valid = true
    for member in members {
      guard let type = TypeResolver(symbols: symbols).resolve(member.type, log: &log) else {
        valid = false
        continue
      }
      if result.contains(where: { $0.name == member.name.value }) || member.name.value == SwiftNames.unrecognizedCase {
        log.error("duplicate case `\(member.name.value)` in choice `\(name)`", at: member.name.location)
        valid = false
        continue
      }
      if let tag = member.tag, result.contains(where: { $0.tag == tag.value }) {
        log.error("two members of choice `\(name)` have the tag \"\(tag.value)\"", at: tag.location)
        valid = false
      }
      result.append(Choice.Member(name: member.name.value, type: type, tag: member.tag?.value))
    }
    return valid ? Choice(members: result, selection: selection) : nil
  }

  // MARK: Fields

  private mutating func fields(_ syntaxes: [FieldSyntax]) -> [Field]? {
    var result: [Field] = []
    var wireKeys: [String: SourceLocation] = [:]
    var valid = true
    for syntax in syntaxes {
      guard let field = field(syntax) else {
        valid = false
        continue
      }
      if field.keepsOtherKeys || field.isWholePayload {
        result.append(field)  // no wire key of its own
        continue
      }
      if let first = wireKeys[field.wireKey] {
        log.error(
          "wire key \"\(field.wireKey)\" is used twice (first at line \(first.line), column \(first.column))",
          at: syntax.key?.location ?? syntax.name.location)
        valid = false
      }
      wireKeys[field.wireKey] = syntax.key?.location ?? syntax.name.location
      result.append(field)
    }
    return valid ? result : nil
  }

  private mutating func field(_ syntax: FieldSyntax) -> Field? {
    var valid = checkMemberName(syntax.name, what: "field")
    if valid && SwiftNames.generatedMembers.contains(syntax.name.value) {
      log.error(
        "field `\(syntax.name.value)` clashes with a member that generated code declares; rename it and keep the wire name with `key: \(syntax.name.value)`",
        at: syntax.name.location)
      valid = false
    }
    let resolved = TypeResolver(symbols: symbols).resolve(syntax.type, log: &log)
    guard valid, var type = resolved else { return nil }
    var defaultValue: DefaultValue?
    if let literal = syntax.defaultValue {
      var checks = DiagnosticLog()
      defaultValue = DefaultValueChecker(enumCases: enumCases).check(literal, against: type, log: &checks)
      if defaultValue == nil && syntax.defaultIsAnnotation, let problem = checks.all.first {
        log.warning("\(problem.message); the default is ignored, and the field is optional", at: problem.location)
        if !type.isOptional { type = .optional(type) }
      } else {
        log.append(contentsOf: checks.all)
        if defaultValue == nil { return nil }
      }
    }
    var constant: DefaultValue?
    if let literal = syntax.constant {
      guard let checked = self.constant(literal, of: type, default: syntax.defaultValue) else { return nil }
      constant = checked
    }
    var field = Field(
      name: syntax.name.value, wireKey: syntax.key?.value ?? syntax.name.value, type: type, doc: syntax.doc,
      defaultValue: defaultValue, deprecated: syntax.deprecated, constant: constant,
      keepsOtherKeys: syntax.keepsOtherKeys, isWholePayload: syntax.isWholePayload, location: syntax.name.location)
    field.wholePayloadKeysAreUserInfo = syntax.wholePayloadKeysAreUserInfo
    return field
  }

  /// A field's `const`: one value of a string, number, boolean or enum type, checked as a default is.
  private mutating func constant(
    _ literal: Located<Literal>, of type: FieldType, default defaultValue: Located<Literal>?
  ) -> DefaultValue? {
    if let defaultValue {
      log.error("a field with `const` takes no `default`: it always holds its constant", at: defaultValue.location)
      return nil
    }
    let wrapped: FieldType
    if case .optional(let inner) = type { wrapped = inner } else { wrapped = type }
    switch wrapped {
    case .builtin(let builtin) where builtin == .string || builtin == .bool || builtin.isInteger || builtin == .double:
      break
    case .named(_, .enumeration):
      break
    default:
      log.error(
        "`const` is for a field of type String, Bool, an integer, Double or an enum; this field is `\(wrapped)`",
        at: literal.location)
      return nil
    }
    return DefaultValueChecker(enumCases: enumCases).check(literal, against: wrapped, log: &log)
  }

  // MARK: Events

  private mutating func event(_ syntax: EventSyntax, namespace: String?, version: Int) -> EventDeclaration? {
    guard let fields = fields(syntax.fields) else { return nil }
    var subject: SubjectPath?
    if let path = syntax.subject {
      subject = self.subject(path, fields: fields, event: syntax.name.value)
      if subject == nil { return nil }
    }
    if let wireName = syntax.wireName, wireName.value.isEmpty {
      log.error("event `\(syntax.name.value)` has an empty wire name", at: wireName.location)
      return nil
    }
    if let version = syntax.version, version.value < 1 {
      log.error("a version must be 1 or higher; found \(version.value)", at: version.location)
      return nil
    }
    if let replay = syntax.replayPerSubject, syntax.subject == nil {
      log.error(
        "event `\(syntax.name.value)` keeps its latest event per subject but has no `subject:`; name the field it is about",
        at: replay.location)
      return nil
    }
    let wireName = syntax.wireName?.value ?? namespace.map { "\($0).\(syntax.name.value)" } ?? syntax.name.value
    var event = EventDeclaration(
      name: syntax.name.value, wireName: wireName, version: syntax.version?.value ?? version, fields: fields,
      subject: subject, doc: syntax.doc, deprecated: syntax.deprecated,
      replayPerSubject: syntax.replayPerSubject?.value, location: syntax.name.location)
    event.acceptedWireNames = syntax.acceptedWireNames
    event.binaryContentType = syntax.binaryContentType
    return event
  }

  /// Follows a dotted `subject:` path through the event's fields and the records they hold.
  private mutating func subject(_ path: Located<String>, fields: [Field], event: String) -> SubjectPath? {
    var available = fields
    var owner = "event `\(event)`"
    var properties: [String] = []
    var type: FieldType?
    for (index, component) in path.value.split(separator: ".", omittingEmptySubsequences: false).enumerated() {
      let name = String(component)
      let at = path.location.advanced(by: properties.joined(separator: ".").count + (index > 0 ? 1 : 0))
      if let previous = type {
        guard case .named(let record, .record) = previous, let recordFields = recordFields[record] else {
          log.error(
            "subject path `\(path.value)` continues past `\(properties.joined(separator: "."))`, which is of type `\(previous)`, not a value type with fields",
            at: at)
          return nil
        }
        available = recordFields
        owner = "type `\(record)`"
      }
      guard let field = available.first(where: { $0.name == name }) else {
        let hint = Suggestions.hint(for: name, among: available.map(\.name))
        log.error("subject `\(path.value)` names no field: \(owner) has no field `\(name)`\(hint)", at: at)
        return nil
      }
      guard !field.type.isOptional else {
        log.error(
          "subject `\(path.value)` goes through the optional field `\(name)`; a subject must always be present", at: at)
        return nil
      }
      properties.append(name)
      type = field.type
    }
    guard let type else { return nil }
    switch type {
    case .array, .dictionary:
      log.error(
        "subject `\(path.value)` is of type `\(type)`; a subject is one identity, such as an ID", at: path.location)
      return nil
    default:
      return SubjectPath(properties: properties, type: type)
    }
  }
}
