import Foundation

/// Checks the examples an input gives for each event (an AsyncAPI message's `examples`) against
/// the event's type: an example that the generated type would not decode is a located warning
/// that names the field, so that a team learns of it when it generates, not when its users
/// receive such an event.
///
/// It follows the generated decoding: a required field must be there and not null (an optional
/// one, or one with a default, may be missing or null); keys the type does not name are
/// ignored; numbers fit their Swift type; a `Date` is an RFC 3339 timestamp or a number; a
/// `UUID` has 32 hexadecimal digits in groups of 8-4-4-4-12; `Data` is base64; a frozen enum
/// takes its raw values alone; a choice by discriminator takes a member's tag, one of `oneOf`
/// exactly one member, one of `anyOf` any. A `URL` is any string but the empty one (the reader
/// percent-encodes the rest). External types are not checked. YAML's plain scalars are read as
/// YAML 1.2's core schema reads them (`12` a number, `true` a Boolean, `~` null, `abc` a
/// string), as a YAML reader turns them into JSON.
struct ExampleCheck {
  /// A reason an example does not decode, and where.
  struct Problem {
    var text: String
    var location: SourceLocation
  }

  /// The declared types of the run, by name.
  let types: [String: TypeDeclaration]

  /// Warns about each example of `documents`' events that would not decode, `files` being the
  /// validated files of `documents`, in the same order.
  static func check(_ documents: [SchemaDocument], files: [SchemaFile], log: inout DiagnosticLog) {
    let checker = ExampleCheck(
      types: Dictionary(files.flatMap(\.types).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }))
    for (document, file) in zip(documents, files) {
      let events = Dictionary(file.events.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
      for syntax in document.events where !syntax.examples.isEmpty {
        guard let event = events[syntax.name.value] else { continue }
        for (index, example) in syntax.examples.enumerated() {
          guard let problem = checker.problem(example, fields: event.fields, path: "") else { continue }
          log.warning(
            "example \(index + 1) of event `\(event.name)` would not decode: \(problem.text)", at: problem.location)
        }
      }
    }
  }

  // MARK: Types

  /// Why `literal` would not decode as an object with `fields`, or nil when it would.
  func problem(_ literal: Located<Literal>, fields: [Field], path: String) -> Problem? {
    if fields.count == 1, fields[0].isWholePayload { return problem(literal, as: fields[0].type, path: path) }
    guard case .object(let members) = Self.value(literal.value) else {
      return expected("an object", literal, path: path)
    }
    for field in fields {
      let at = path.isEmpty ? field.wireKey : "\(path).\(field.wireKey)"
      let member = members.last { $0.key == field.wireKey }
      guard let member, !Self.isNull(member.value) else {
        if field.type.isOptional || field.defaultValue != nil || field.constant != nil { continue }
        return Problem(
          text: "`\(at)` is \(member == nil ? "missing" : "null"), and `\(field.name)` is a `\(field.type)`",
          location: member?.value.location ?? literal.location)
      }
      if let problem = problem(member.value, as: field.type, path: at) { return problem }
    }
    return nil
  }

  private static func isNull(_ literal: Located<Literal>) -> Bool {
    if case .null = value(literal.value) { return true }
    return false
  }

  /// Why `literal` would not decode as `type`, or nil when it would.
  func problem(_ literal: Located<Literal>, as type: FieldType, path: String) -> Problem? {
    let value = Self.value(literal.value)
    switch type {
    case .optional(let wrapped):
      if case .null = value { return nil }
      return problem(literal, as: wrapped, path: path)
    case .array(let element):
      guard case .array(let items) = value else { return expected("an array", literal, path: path) }
      for (index, item) in items.enumerated() {
        if let problem = problem(item, as: element, path: "\(path)[\(index)]") { return problem }
      }
      return nil
    case .dictionary(let valueType):
      guard case .object(let members) = value else { return expected("an object", literal, path: path) }
      for member in members {
        let at = path.isEmpty ? (member.key ?? "?") : "\(path).\(member.key ?? "?")"
        if let problem = problem(member.value, as: valueType, path: at) { return problem }
      }
      return nil
    case .builtin(let builtin), .named(_, .wrapper(let builtin)):
      return problem(literal, value, as: builtin, path: path)
    case .named(_, .external):
      return nil
    case .named(let name, .enumeration):
      guard case .string(let text) = value else { return expected("a string", literal, path: path) }
      guard case .enumeration(let cases, frozen: true)? = types[name]?.kind,
        !cases.contains(where: { $0.rawValue == text })
      else { return nil }
      let listed = cases.prefix(8).map { "`\($0.rawValue)`" }.joined(separator: ", ") + (cases.count > 8 ? ", …" : "")
      return Problem(
        text: "\(where: path)`\(text)` is not a value of `\(name)` (\(listed))", location: literal.location)
    case .named(let name, .record):
      guard case .record(let fields)? = types[name]?.kind else { return nil }
      return problem(literal, fields: fields, path: path)
    case .named(let name, .choice):
      guard case .choice(let choice)? = types[name]?.kind else { return nil }
      return problem(literal, value, choice: choice, named: name, path: path)
    }
  }

  private func problem(
    _ literal: Located<Literal>, _ value: Value, choice: Choice, named name: String, path: String
  ) -> Problem? {
    switch choice.selection {
    case .discriminator(let property):
      guard case .object(let members) = value else { return expected("an object", literal, path: path) }
      guard let tagged = members.last(where: { $0.key == property }),
        case .string(let tag) = Self.value(tagged.value.value)
      else {
        return Problem(
          text: "\(where: path)a `\(name)` needs its `\(property)`, a string", location: literal.location)
      }
      guard let member = choice.members.first(where: { $0.tag == tag }) else {
        let tags = choice.members.compactMap(\.tag).map { "`\($0)`" }.joined(separator: ", ")
        return Problem(
          text: "\(where: path)`\(property)` is `\(tag)`, not one of `\(name)`'s (\(tags))",
          location: tagged.value.location)
      }
      return problem(literal, as: member.type, path: path)
    case .exactlyOne, .first:
      let problems = choice.members.map { problem(literal, as: $0.type, path: path) }
      let fitting = zip(choice.members, problems).filter { $0.1 == nil }.map(\.0)
      if fitting.count == 1 || (!fitting.isEmpty && choice.selection == .first) { return nil }
      guard fitting.isEmpty else {
        let members = fitting.map { "`\($0.type)`" }.joined(separator: ", ")
        return Problem(
          text:
            "\(where: path)\(value.described) is more than one of `\(name)`'s members (\(members)), and `oneOf` takes exactly one",
          location: literal.location)
      }
      // Why each member does not take it: the field at fault, as a member's own check says.
      let reasons = zip(choice.members, problems).compactMap { member, problem in
        problem.map { "as `\(member.type)`, \($0.text)" }
      }
      return Problem(
        text: "\(where: path)\(value.described) is none of `\(name)`'s members (\(reasons.joined(separator: "; ")))",
        location: literal.location)
    }
  }

  private func problem(_ literal: Located<Literal>, _ value: Value, as builtin: BuiltinType, path: String) -> Problem? {
    switch builtin {
    case .json:
      return nil
    case .string:
      guard case .string = value else { return expected("a string", literal, path: path) }
    case .bool:
      guard case .bool = value else { return expected("a Boolean", literal, path: path) }
    case .double, .decimal:
      guard case .number = value else { return expected("a number", literal, path: path) }
    case .float:
      guard case .number(let text) = value else { return expected("a number", literal, path: path) }
      guard let number = Double(text), abs(number) <= Double(Float.greatestFiniteMagnitude) else {
        return Problem(text: "\(where: path)\(text) is beyond the range of a `Float`", location: literal.location)
      }
    case .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64:
      guard case .number(let text) = value else { return expected("an integer", literal, path: path) }
      guard let bounds = builtin.integerBounds, Self.integer(text, within: bounds) else {
        return Problem(
          text: "\(where: path)\(text) is not a whole number that a `\(builtin.swiftName)` holds",
          location: literal.location)
      }
    case .date:
      if case .number = value { return nil }  // seconds since 2001, as JSONEncoder writes a Date
      guard case .string(let text) = value else { return expected("an RFC 3339 timestamp", literal, path: path) }
      guard Self.isTimestamp(text) else {
        return Problem(text: "\(where: path)\"\(text)\" is not an RFC 3339 timestamp", location: literal.location)
      }
    case .uuid:
      guard case .string(let text) = value else { return expected("a UUID string", literal, path: path) }
      guard DefaultValueChecker.isUUID(text) else {
        return Problem(
          text: "\(where: path)\"\(text)\" is not a UUID (a `format: uuid` string is a `UUID` as the field says)",
          location: literal.location)
      }
    case .url:
      guard case .string(let text) = value else { return expected("a URL string", literal, path: path) }
      guard !text.isEmpty else { return Problem(text: "\(where: path)a URL is not empty", location: literal.location) }
    case .data:
      guard case .string(let text) = value else { return expected("a base64 string", literal, path: path) }
      guard Data(base64Encoded: text) != nil else {
        return Problem(text: "\(where: path)the string is not base64", location: literal.location)
      }
    }
    return nil
  }

  private func expected(_ what: String, _ literal: Located<Literal>, path: String) -> Problem {
    Problem(
      text: "\(where: path)expected \(what), found \(Self.value(literal.value).described)", location: literal.location)
  }
}

extension String.StringInterpolation {
  /// `at `items[2].price`: ` before a problem inside the example, nothing at its top level.
  fileprivate mutating func appendInterpolation(where path: String) {
    if !path.isEmpty { appendLiteral("at `\(path)`: ") }
  }
}
