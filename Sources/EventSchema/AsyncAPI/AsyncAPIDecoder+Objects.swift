/// JSON Schema payloads → fields: objects, their properties, and what the event model refuses.
extension AsyncAPIDecoder {
  /// Keywords that say something the event model cannot hold, and what to write instead.
  /// Validation-only keywords (`not`, `if`, `dependentSchemas`, `pattern`, …) are not here:
  /// they never refuse a document, and leave the type as the other keywords make it.
  static let refusedKeywords: [String: String] = [
    "patternProperties":
      "keys by pattern have no event field type; use `additionalProperties: <schema>` for a dictionary",
    "prefixItems": "a tuple has no event field type; use an object with named properties",
  ]

  // MARK: Objects

  /// The fields of an object schema (or an `allOf` of object schemas, merged), as an event's or
  /// a value type's.
  mutating func objectMembers(_ node: YAMLNode, owner: String, what: String) -> [FieldSyntax]? {
    var properties: [(key: Located<String>, value: YAMLNode)] = []
    var required: Set<String> = []
    guard collectMembers(node, into: &properties, required: &required, what: what, depth: 0) else { return nil }
    var fields: [FieldSyntax] = []
    var valid = true
    for property in properties {
      if let field = field(property.key, property.value, required: required.contains(property.key.value), owner: owner)
      {
        fields.append(field)
      } else {
        valid = false
      }
    }
    return valid ? fields : nil
  }

  private mutating func collectMembers(
    _ node: YAMLNode, into properties: inout [(key: Located<String>, value: YAMLNode)], required: inout Set<String>,
    what: String, depth: Int
  ) -> Bool {
    guard depth < ReferenceResolver.maximumChain, let (schema, _) = resolver.resolve(node, log: &reader.log) else {
      return false
    }
    guard case .mapping = schema.content else {
      reader.log.error("expected an object schema for \(what), found \(schema.kindDescription)", at: schema.location)
      return false
    }
    guard refuseUnsupported(schema) else { return false }
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
        valid = collectMembers(member, into: &properties, required: &required, what: what, depth: depth + 1) && valid
      }
      return valid
    }
    if let type = field("type", of: schema), case .scalar(let text) = type.content, text.value != "object" {
      reader.log.error(
        "\(what) must be an object schema (`type: object` with `properties`); found `type: \(text.value)`",
        at: type.location)
      return false
    }
    if let additional = field("additionalProperties", of: schema), case .mapping = additional.content,
      field("properties", of: schema) != nil
    {
      reader.log.error(
        "an object with both `properties` and an `additionalProperties` schema has no event type; use one: fields, or a dictionary",
        at: additional.location)
      return false
    }
    var valid = true
    for entry in field("properties", of: schema).flatMap({ reader.entries(of: $0, what: "`properties`") }) ?? [] {
      if let first = properties.first(where: { $0.key.value == entry.key.value }) {
        // `allOf` members may repeat a property only with the very same schema.
        if first.value.location != entry.value.location {
          reader.log.error(
            "property `\(entry.key.value)` is defined twice in `allOf` (first at line \(first.key.location.line), column \(first.key.location.column)); merged objects must not conflict",
            at: entry.key.location)
          valid = false
        }
        continue
      }
      properties.append(entry)
    }
    if let list = field("required", of: schema) {
      for item in reader.items(of: list, what: "`required` (a list of property names)") ?? [] {
        if let name = reader.string(item, what: "a required property name") { required.insert(name) }
      }
    }
    return valid
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
    _ key: Located<String>, _ node: YAMLNode, required: Bool, owner: String
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
    let constant = self.constant(of: node)
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

  /// Reports the first keyword the event model cannot hold; false when there was one.
  mutating func refuseUnsupported(_ node: YAMLNode) -> Bool {
    guard case .mapping(let pairs) = node.content else { return true }
    for pair in pairs {
      guard case .scalar(let key) = pair.key.content, let reason = Self.refusedKeywords[key.value] else { continue }
      reader.log.error("`\(key.value)` is not supported: \(reason)", at: pair.key.location)
      return false
    }
    return true
  }
}
