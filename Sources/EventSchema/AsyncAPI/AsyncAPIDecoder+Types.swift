/// JSON Schema → field types, declaring the value types and enums they need.
extension AsyncAPIDecoder {
  // MARK: Types

  /// The type of a schema, unwrapping `anyOf: [T, {type: null}]` and `type: [T, "null"]`.
  mutating func typeAndNullability(_ node: YAMLNode, hint: String) -> (TypeExpression, Bool)? {
    if ReferenceResolver.reference(of: node) == nil {
      if field("x-eventgen-type", of: node) == nil, let union = unionMembers(node) {
        // One member (besides `null`) is that member; more are a choice.
        return typeExpression(node, hint: hint).map { ($0, union.nullable) }
      }
      if let type = field("type", of: node), case .sequence(let items, _) = type.content,
        items.contains(where: isNullScalar)
      {
        return typeExpression(node, hint: hint).map { ($0, true) }
      }
    }
    return typeExpression(node, hint: hint).map { ($0, false) }
  }

  func isNullSchema(_ node: YAMLNode) -> Bool {
    guard let type = field("type", of: node) else { return false }
    return isNullScalar(type)
  }

  func isNullScalar(_ node: YAMLNode) -> Bool {
    if case .scalar(let scalar) = node.content { return scalar.value == "null" && !scalar.isNull }
    return false
  }

  /// The type a schema stands for; types it needs (objects, enums, identifiers) are declared
  /// on the way, named from their component key, their `title`, or `hint`.
  mutating func typeExpression(_ node: YAMLNode, hint: String) -> TypeExpression? {
    if ReferenceResolver.reference(of: node) != nil {
      guard let (schema, target) = resolver.resolve(node, log: &reader.log) else { return nil }
      guard let target else { return nil }
      return namedSchema(schema, identity: target.identity, name: SchemaNames.typeName(target.name), at: node.location)
    }
    guard case .mapping = node.content else {
      if case .scalar(let scalar) = node.content, scalar.value == "true" {
        return .named(Located(value: BuiltinType.json.swiftName, location: node.location))
      } else if case .scalar(let scalar) = node.content, scalar.value == "false" {
        reader.log.error("the schema `false` allows no value, so no field can hold one", at: node.location)
      } else {
        reader.log.error("expected a schema (a mapping), found \(node.kindDescription)", at: node.location)
      }
      return nil
    }
    let location = node.location
    if let external = field("x-eventgen-external", of: node) {
      guard let name = reader.located(external, what: "`x-eventgen-external`") else { return nil }
      if externals[name.value] == nil { externals[name.value] = name.location }
      return .named(name)
    }
    if let builtin = field("x-eventgen-type", of: node) {
      guard let name = reader.string(builtin, what: "`x-eventgen-type`") else { return nil }
      guard BuiltinType(rawValue: name) != nil else {
        let hint = Suggestions.hint(for: name, among: BuiltinType.allCases.map(\.swiftName))
        reader.log.error("`x-eventgen-type` names no built-in type `\(name)`\(hint)", at: builtin.location)
        return nil
      }
      return .named(Located(value: name, location: location))
    }
    if let allOf = field("allOf", of: node) {
      guard let members = reader.items(of: allOf, what: "`allOf`") else { return nil }
      let typed = members.filter { !isAnnotationOnly($0) }
      if typed.count == 1 { return typeExpression(typed[0], hint: hint) }
      return declareRecord(
        node, name: Located(value: title(of: node) ?? hint, location: location), identity: "\(location)")
    }
    if let union = unionMembers(node) {
      switch union.members.count {
      case 0:
        reader.log.error(
          "a `\(union.keyword)` of `null` alone has no field type; a field that may be null is optional", at: location)
        return nil
      case 1:
        return typeExpression(union.members[0], hint: hint)
      default:
        return declareChoice(
          node, members: union.members, keyword: union.keyword,
          name: Located(value: title(of: node) ?? hint, location: location), identity: "\(location)")
      }
    }
    let type: String?
    switch field("type", of: node)?.content {
    case .scalar(let scalar)?: type = scalar.value
    case .sequence(let items, _)?:
      let others = items.filter { !isNullScalar($0) }
      if others.count > 1 {
        return declareTypeChoice(
          node, types: others, name: Located(value: title(of: node) ?? hint, location: location),
          identity: "\(location)")
      }
      guard others.count == 1, case .scalar(let scalar) = others[0].content else {
        reader.log.error(
          "a `type` list of `null` alone has no field type; a field that may be null is optional", at: location)
        return nil
      }
      type = scalar.value
    case .mapping?:
      reader.log.error("`type` must be a string such as `string` or `object`", at: location)
      return nil
    case nil:
      // No `type`: what the other keywords imply, or nothing, which no field type can hold.
      if field("enum", of: node) != nil || field("x-eventgen-enum", of: node) != nil {
        type = "string"
      } else if ["properties", "additionalProperties", "patternProperties"].contains(where: {
        field($0, of: node) != nil
      }) {
        type = "object"
      } else if field("items", of: node) != nil || field("prefixItems", of: node) != nil {
        type = "array"
      } else if let constant = field("const", of: node) {
        return .named(Located(value: Self.constantType(constant).swiftName, location: location))
      } else {
        // Nothing says what the value is (`{}`, or annotations only): any JSON value.
        return .named(Located(value: BuiltinType.json.swiftName, location: location))
      }
    }
    switch type {
    case "string":
      if field("enum", of: node) != nil || field("x-eventgen-enum", of: node) != nil {
        return declareEnum(
          node, name: Located(value: title(of: node) ?? hint, location: location), identity: "\(location)")
      }
      return .named(Located(value: stringType(node).swiftName, location: location))
    case "integer":
      return .named(Located(value: integerType(node).swiftName, location: location))
    case "number":
      return .named(Located(value: numberType(node).swiftName, location: location))
    case "boolean":
      return .named(Located(value: "Bool", location: location))
    case "array":
      guard let items = elementSchema(node) else {
        reader.log.error("an array schema needs `items`: the schema of its elements", at: location)
        return nil
      }
      guard let (element, nullable) = typeAndNullability(items, hint: hint + "Item") else { return nil }
      return .array(nullable ? .optional(element, items.location) : element, location)
    case "object":
      if field("properties", of: node) != nil {
        return declareRecord(
          node, name: Located(value: title(of: node) ?? hint, location: location), identity: "\(location)")
      }
      // Without `properties`: a dictionary of what its keys may hold (any value, unless
      // `additionalProperties` or `patternProperties` say more).
      let additional = field("additionalProperties", of: node)
      let closed = additional.map { scalarText($0) == "false" } ?? false
      let patterns = field("patternProperties", of: node).flatMap {
        reader.entries(of: $0, what: "`patternProperties`")
      }
      guard
        let values = otherKeys(
          patterns: patterns?.map(\.value) ?? [], additional: closed ? nil : additional, closed: closed, at: location)
      else {
        reader.log.error(
          "an object that allows no properties at all has no event field type; list its `properties`",
          at: additional?.location ?? location)
        return nil
      }
      guard let (value, nullable) = typeAndNullability(values, hint: hint + "Value") else { return nil }
      return .dictionary(
        key: .named(Located(value: "String", location: location)),
        value: nullable ? .optional(value, values.location) : value, location)
    case "null":
      reader.log.error(
        "`type: null` alone has no event field type; a field that may be null is `[<type>, \"null\"]`", at: location)
      return nil
    default:
      reader.log.error(
        "unknown `type` `\(type ?? "")`; JSON Schema's types are string, integer, number, boolean, array, object and null",
        at: field("type", of: node)?.location ?? location)
      return nil
    }
  }

  /// A schema reached by `$ref`: declared once as a type when it is an object, an enum, an
  /// identifier or an external type, and otherwise read in place.
  private mutating func namedSchema(
    _ schema: YAMLNode, identity: String, name: String, at location: SourceLocation
  )
    -> TypeExpression?
  {
    if let known = declared[identity] { return .named(Located(value: known, location: location)) }
    guard nesting < Self.maximumNesting else {
      reader.log.error(
        "schemas nest through `$ref` more than \(Self.maximumNesting) deep here; eventgen reads no deeper (a schema whose property refers to the next, and so on)",
        at: location)
      return nil
    }
    nesting += 1
    defer { nesting -= 1 }
    let declaredName = Located(value: name, location: schema.location)
    if let kind = field("x-eventgen-kind", of: schema), case .scalar(let text) = kind.content,
      text.value == "identifier"
    {
      let typeName = swiftTypeName(for: schema, identity: identity, wanted: declaredName)
      declared[identity] = typeName.value
      guard let raw = typeExpression(schema, hint: typeName.value) else { return nil }
      declare(typeName, .wraps(raw), from: schema)
      return .named(Located(value: typeName.value, location: location))
    }
    // An `enum` of numbers is validation only: the number's type.
    let declaredType = field("type", of: schema).map(scalarText)
    let isEnum =
      (field("enum", of: schema) != nil && (declaredType == nil || declaredType == "string"))
      || field("x-eventgen-enum", of: schema) != nil
    let isRecord =
      field("properties", of: schema) != nil
      || (field("allOf", of: schema).map { node in
        if case .sequence(let members, _) = node.content { return members.filter { !isAnnotationOnly($0) }.count > 1 }
        return false
      } ?? false)
    if field("x-eventgen-external", of: schema) == nil, field("x-eventgen-type", of: schema) == nil,
      let union = unionMembers(schema), union.members.count > 1
    {
      return declareChoice(
        schema, members: union.members, keyword: union.keyword, name: declaredName, identity: identity
      )
      .map { Self.relocated($0, to: location) }
    }
    if field("x-eventgen-external", of: schema) == nil && (isEnum || isRecord) {
      let expression =
        isEnum
        ? declareEnum(schema, name: declaredName, identity: identity)
        : declareRecord(schema, name: declaredName, identity: identity)
      return expression.map { Self.relocated($0, to: location) }
    }
    return typeExpression(schema, hint: name)
  }

  private mutating func declareRecord(_ schema: YAMLNode, name: Located<String>, identity: String) -> TypeExpression? {
    if let known = declared[identity] { return .named(Located(value: known, location: name.location)) }
    let typeName = swiftTypeName(for: schema, identity: identity, wanted: name)
    declared[identity] = typeName.value
    guard let fields = objectMembers(schema, owner: typeName.value, what: "type `\(typeName.value)`") else {
      return nil
    }
    declare(typeName, .fields(fields), from: schema)
    return .named(typeName)
  }

  private mutating func declareEnum(_ schema: YAMLNode, name: Located<String>, identity: String) -> TypeExpression? {
    if let known = declared[identity] { return .named(Located(value: known, location: name.location)) }
    let typeName = swiftTypeName(for: schema, identity: identity, wanted: name)
    declared[identity] = typeName.value
    var cases: [(name: Located<String>, rawValue: Located<String>)] = []
    var frozen = false
    if let extensionNode = field("x-eventgen-enum", of: schema) {
      if let frozenNode = field("frozen", of: extensionNode) {
        frozen = reader.bool(frozenNode, what: "`frozen`") ?? false
      }
      if let casesNode = field("cases", of: extensionNode) {
        for entry in reader.entries(of: casesNode, what: "the cases of `x-eventgen-enum`") ?? [] {
          if let raw = reader.located(entry.value, what: "a raw value") { cases.append((entry.key, raw)) }
        }
      }
    }
    if cases.isEmpty, let values = field("enum", of: schema) ?? field("examples", of: schema) {
      for item in reader.items(of: values, what: "`enum` (a list of strings)") ?? [] {
        guard case .scalar(let scalar) = item.content, !scalar.isNull,
          scalar.style != .plain || Double(scalar.value) == nil
        else {
          reader.log.error("eventgen enums are strings; this `enum` value is not a string", at: item.location)
          return nil
        }
        cases.append(
          (
            Located(value: SchemaNames.caseName(scalar.value), location: item.location),
            Located(value: scalar.value, location: item.location)
          ))
      }
    }
    if cases.isEmpty {
      reader.log.error("enum `\(typeName.value)` has no cases", at: schema.location)
      return nil
    }
    declare(typeName, .enumeration(cases: cases, frozen: frozen), from: schema)
    return .named(typeName)
  }

  /// `expression` written at `location`: a reference to a type declared elsewhere points where
  /// it is used.
  static func relocated(_ expression: TypeExpression, to location: SourceLocation) -> TypeExpression {
    guard case .named(let name) = expression else { return expression }
    return .named(Located(value: name.value, location: location))
  }

  /// Adds a declared type, with the doc and deprecation its schema gives.
  mutating func declare(_ name: Located<String>, _ body: TypeSyntax.Body, from schema: YAMLNode) {
    document.types.append(
      TypeSyntax(
        name: name, body: body, doc: doc(description: field("description", of: schema)),
        deprecated: deprecation(field("deprecated", of: schema), message: field("x-eventgen-deprecated", of: schema))))
  }

  func scalarText(_ node: YAMLNode) -> String {
    if case .scalar(let scalar) = node.content { return scalar.value }
    return ""
  }

  /// The schema of an array's elements: `items`; or, for a tuple (`prefixItems`, or a list
  /// under `items` as before draft 2020-12), the schema of every position where they are written
  /// alike, else any value, as decoding does not check positions. Nil without `items` or a tuple.
  private mutating func elementSchema(_ node: YAMLNode) -> YAMLNode? {
    var positions = field("prefixItems", of: node).flatMap { reader.items(of: $0, what: "`prefixItems`") } ?? []
    var rest = field("items", of: node)
    if let items = rest, case .sequence = items.content {
      positions += reader.items(of: items, what: "`items`") ?? []
      rest = field("additionalItems", of: node)
      if rest == nil { return positions.isEmpty ? nil : anyValue(at: node.location) }
    }
    guard !positions.isEmpty else { return rest }
    var covering = positions
    if let rest, scalarText(rest) != "false" { covering.append(rest) }
    if rest == nil { covering.append(anyValue(at: node.location)) }
    return oneSchema(covering, at: node.location)
  }

  func title(of node: YAMLNode) -> String? {
    field("title", of: node).map(scalarText).flatMap { $0.isEmpty ? nil : $0 }
  }
}
