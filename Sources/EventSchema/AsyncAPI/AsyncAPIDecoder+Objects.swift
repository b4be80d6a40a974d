/// JSON Schema payloads → fields: objects, their properties, and the keys no property names.
extension AsyncAPIDecoder {
  // MARK: Objects

  /// The fields of an object schema (or an `allOf` of object schemas, merged), as an event's or
  /// a value type's.
  mutating func objectMembers(_ node: YAMLNode, owner: String, what: String) -> [FieldSyntax]? {
    var properties: [(key: Located<String>, value: YAMLNode)] = []
    var members = OtherMembers()
    guard collectMembers(node, into: &properties, others: &members, what: what, depth: 0) else { return nil }
    let required = Set(members.requiredKeys.map(\.value))
    let constants = members.constants
    // A required key that no `properties` entry describes: JSON Schema lets it hold any value
    // the other keys may hold. Dropping it would lose what the service sends.
    var described = Set(properties.map(\.key.value))
    for key in members.requiredKeys where described.insert(key.value).inserted {
      let anything = anyValue(at: key.location)
      if members.closed {
        reader.log.warning(
          "`\(key.value)` is required but not among `properties`, and `additionalProperties: false` forbids it, so no payload is valid; it is read as any JSON value (`JSONValue`)",
          at: key.location)
      }
      properties.append((key: key, value: members.additional ?? anything))
    }
    var fields: [FieldSyntax] = []
    var valid = true
    for property in properties {
      if let field = field(
        property.key, property.value, required: required.contains(property.key.value), owner: owner,
        narrowedTo: constants[property.key.value])
      {
        fields.append(field)
      } else {
        valid = false
      }
    }
    // The other keys: kept where `additionalProperties` or `patternProperties` describe them, and
    // where nothing names any property (a bare `type: object` payload would otherwise lose every
    // key it has).
    let other =
      members.additional == nil && members.patterns.isEmpty && members.declaresProperties
      ? nil
      : otherKeys(patterns: members.patterns, additional: members.additional, closed: members.closed, at: node.location)
    if let other, valid {
      guard let value = typeExpression(other, hint: owner + "Value") else { return nil }
      var syntax = FieldSyntax(
        name: Located(value: "additionalProperties", location: other.location),
        type: .dictionary(key: .named(Located(value: "String", location: other.location)), value: value, other.location)
      )
      syntax.keepsOtherKeys = true
      fields.append(syntax)
    }
    return valid ? fields : nil
  }

  /// What `allOf` members say besides their properties.
  struct OtherMembers {
    /// Properties narrowed to a `const` of their first definition's type.
    var constants: [String: YAMLNode] = [:]
    /// The `additionalProperties` that allows other keys (`true`, `{}` or a schema).
    var additional: YAMLNode?
    /// Whether any member has `properties`.
    var declaresProperties = false
    /// Whether a member says `additionalProperties: false`.
    var closed = false
    /// Every name under `required`, where it is written (a name may come twice).
    var requiredKeys: [Located<String>] = []
    /// The schemas of `patternProperties`.
    var patterns: [YAMLNode] = []
  }

  /// The schema of the keys that no property names: one schema where one covers them all (the
  /// `additionalProperties` schema, or the patterns' beside `additionalProperties: false` where
  /// they are written alike), else any value, as decoding does not check which pattern a key
  /// matches; nil where no other key is allowed.
  func otherKeys(patterns: [YAMLNode], additional: YAMLNode?, closed: Bool, at location: SourceLocation) -> YAMLNode? {
    var covering = patterns
    if let additional {
      covering.append(additional)
    } else if !closed {
      covering.append(anyValue(at: location))
    }
    return oneSchema(covering, at: location)
  }

  /// The schema of `schemas` where they are all written alike (`prefixItems: [{type: number},
  /// {type: number}]`), else any value; nil for none.
  func oneSchema(_ schemas: [YAMLNode], at location: SourceLocation) -> YAMLNode? {
    guard let first = schemas.first else { return nil }
    let shape = Self.shape(of: first)
    return schemas.dropFirst().allSatisfy({ Self.shape(of: $0) == shape }) ? first : anyValue(at: location)
  }

  /// A schema's text without locations or scalar styles, to tell schemas written alike.
  private static func shape(of node: YAMLNode) -> String {
    switch node.content {
    case .scalar(let scalar): return scalar.value.debugDescription
    case .sequence(let items, _): return "[" + items.map(shape(of:)).joined(separator: ",") + "]"
    case .mapping(let pairs):
      return "{" + pairs.map { shape(of: $0.key) + ":" + shape(of: $0.value) }.joined(separator: ",") + "}"
    }
  }

  /// The schema `true`: any JSON value.
  func anyValue(at location: SourceLocation) -> YAMLNode {
    YAMLNode(.scalar(YAMLScalar("true", style: .plain)), at: location)
  }

  private mutating func collectMembers(
    _ node: YAMLNode, into properties: inout [(key: Located<String>, value: YAMLNode)],
    others: inout OtherMembers, what: String, depth: Int
  ) -> Bool {
    guard depth < ReferenceResolver.maximumChain, let (schema, _) = resolver.resolve(node, log: &reader.log) else {
      return false
    }
    guard case .mapping = schema.content else {
      reader.log.error("expected an object schema for \(what), found \(schema.kindDescription)", at: schema.location)
      return false
    }
    if let anyOf = field("anyOf", of: schema) {
      reader.log.error(
        "`anyOf` is not supported for \(what): a choice between objects has no event type; give one object schema, or split the message",
        at: anyOf.location)
      return false
    }
    if let allOf = field("allOf", of: schema) {
      guard let members = reader.items(of: allOf, what: "`allOf`") else { return false }
      var valid = true
      for member in members where !isAnnotationOnly(member) {
        valid =
          collectMembers(
            member, into: &properties, others: &others, what: what, depth: depth + 1)
          && valid
      }
      return valid
    }
    if let type = field("type", of: schema), case .scalar(let text) = type.content, text.value != "object" {
      reader.log.error(
        "\(what) must be an object schema (`type: object` with `properties`); found `type: \(text.value)`",
        at: type.location)
      return false
    }
    if let additional = field("additionalProperties", of: schema) {
      if scalarText(additional) != "false" { others.additional = additional } else { others.closed = true }
    }
    if let patterns = field("patternProperties", of: schema) {
      others.patterns += (reader.entries(of: patterns, what: "`patternProperties`") ?? []).map(\.value)
    }
    if field("properties", of: schema) != nil { others.declaresProperties = true }
    var valid = true
    for entry in field("properties", of: schema).flatMap({ reader.entries(of: $0, what: "`properties`") }) ?? [] {
      if let index = properties.firstIndex(where: { $0.key.value == entry.key.value }) {
        // `allOf` members that define one property: the value must meet both, so the narrower
        // definition is the property's.
        let first = properties[index]
        guard first.value.location != entry.value.location else { continue }
        switch narrowing(first.value, entry.value) {
        case .first: break
        case .second: properties[index].value = entry.value
        case .constant(let constant): others.constants[entry.key.value] = constant
        case .conflict(let a, let b):
          reader.log.error(
            "property `\(entry.key.value)` is defined twice in `allOf`, as \(b) here and as \(a) at line \(first.key.location.line), column \(first.key.location.column); no value is both",
            at: entry.key.location)
          valid = false
        }
        continue
      }
      properties.append(entry)
    }
    if let list = field("required", of: schema) {
      for item in reader.items(of: list, what: "`required` (a list of property names)") ?? [] {
        if let name = reader.string(item, what: "a required property name") {
          others.requiredKeys.append(Located(value: name, location: item.location))
        }
      }
    }
    return valid
  }

  /// Which of two definitions of one property in `allOf` a value meets when it meets both.
  enum Narrowing {
    case first, second
    /// The first's type, fixed to the second's `const` (a `$ref` enum, then one of its values).
    case constant(YAMLNode)
    /// No value meets both: what each says.
    case conflict(String, String)
  }

  /// The intersection of two property schemas, where it is one of them: a `const` narrows a
  /// type or an enum of its type; a schema with `properties`, `items`, `enum` or a `$ref`
  /// narrows a bare `type` (`{type: object}` and an object with properties is the latter).
  mutating func narrowing(_ a: YAMLNode, _ b: YAMLNode) -> Narrowing {
    var log = DiagnosticLog()  // each definition's own reading reports its errors
    let first = resolver.resolve(a, log: &log)?.node ?? a
    let second = resolver.resolve(b, log: &log)?.node ?? b
    let (typeA, typeB) = (jsonType(first), jsonType(second))
    if let typeA, let typeB, typeA != typeB, Set([typeA, typeB]) != ["integer", "number"] {
      return .conflict("`\(typeA)`", "`\(typeB)`")
    }
    let constantA = field("const", of: first)
    let constantB = field("const", of: second)
    switch (constantA, constantB) {
    case (let x?, let y?):
      return scalarText(x) == scalarText(y)
        ? .first : .conflict("`const: \(scalarText(x))`", "`const: \(scalarText(y))`")
    case (_?, nil): return .first
    case (nil, let y?): return isRich(first) ? .constant(y) : .second
    case (nil, nil): return isRich(second) && !isRich(first) ? .second : .first
    }
  }

  /// The JSON type a schema says its values have, if it says one.
  private func jsonType(_ schema: YAMLNode) -> String? {
    if let type = field("type", of: schema), case .scalar(let text) = type.content { return text.value }
    if field("properties", of: schema) != nil { return "object" }
    if field("items", of: schema) != nil { return "array" }
    if let constant = field("const", of: schema) {
      switch Self.constantType(constant) {
      case .bool: return "boolean"
      case .int: return "integer"
      case .double: return "number"
      default: return "string"
      }
    }
    return nil
  }

  /// Whether a schema says more than a bare `type`.
  private func isRich(_ schema: YAMLNode) -> Bool {
    ["properties", "items", "enum", "x-eventgen-enum", "additionalProperties", "oneOf", "anyOf", "allOf", "format"]
      .contains { field($0, of: schema) != nil }
  }

  /// A schema of annotations only (`description`, `title`, …), such as the second member of
  /// `allOf: [{$ref: …}, {description: …}]`.
  func isAnnotationOnly(_ node: YAMLNode) -> Bool {
    guard case .mapping(let pairs) = node.content else { return false }
    let annotations: Set<String> = [
      "description", "title", "deprecated", "examples", "example", "default", "readOnly", "writeOnly", "$comment",
    ]
    return pairs.allSatisfy { pair in
      guard case .scalar(let key) = pair.key.content else { return false }
      return annotations.contains(key.value) || key.value.hasPrefix("x-")
    }
  }

  // MARK: Fields

  private mutating func field(
    _ key: Located<String>, _ node: YAMLNode, required: Bool, owner: String, narrowedTo narrowed: YAMLNode? = nil
  ) -> FieldSyntax? {
    // Annotations of the property itself, and of annotation-only `allOf` members beside a `$ref`.
    var annotations = [node]
    if let allOf = field("allOf", of: node), case .sequence(let members, _) = allOf.content {
      annotations += members.filter(isAnnotationOnly)
    }
    let fieldsOfAnnotations = annotations.compactMap { node -> [String: YAMLNode]? in
      guard case .mapping(let pairs) = node.content else { return nil }
      var result: [String: YAMLNode] = [:]
      for pair in pairs {
        if case .scalar(let key) = pair.key.content, result[key.value] == nil { result[key.value] = pair.value }
      }
      return result
    }
    func annotation(_ name: String) -> YAMLNode? { fieldsOfAnnotations.lazy.compactMap { $0[name] }.first }

    let swiftName =
      annotation("x-eventgen-field").flatMap { reader.located($0, what: "`x-eventgen-field`") }
      ?? Located(value: SchemaNames.memberName(key.value), location: key.location)
    guard let (type, nullable) = typeAndNullability(node, hint: owner + SchemaNames.typeName(key.value)) else {
      return nil
    }
    // Beside a `const`, a `default` can only repeat it: the constant is what the field holds.
    let constant = narrowed.map(reader.literal) ?? self.constant(of: node)
    let defaultValue = constant == nil ? annotation("default").map { reader.literal($0) } : nil
    let explicitlyOptional = annotation("x-eventgen-optional").flatMap {
      reader.bool($0, what: "`x-eventgen-optional`")
    }
    let optional: Bool
    if explicitlyOptional == true || (nullable && required) {
      optional = true
    } else if required {
      optional = false
    } else {
      // Not required: a default fills in a missing key; without one the field is optional.
      optional = defaultValue == nil
    }
    return FieldSyntax(
      name: swiftName, type: optional ? .optional(type, node.location) : type,
      doc: doc(description: annotation("description")),
      defaultValue: defaultValue,
      key: swiftName.value == key.value ? nil : key,
      deprecated: deprecation(annotation("deprecated"), message: annotation("x-eventgen-deprecated")),
      constant: constant, defaultIsAnnotation: true)
  }

  /// A property's fixed value: its `const`.
  private func constant(of node: YAMLNode) -> Located<Literal>? {
    field("const", of: node).map(reader.literal)
  }
}
