/// JSON Schema `oneOf`, `anyOf` and `type` lists → choices: an enum with a case per member.
extension AsyncAPIDecoder {
  /// The members of a `oneOf` or `anyOf` other than `{type: null}`, and whether `null` is one.
  func unionMembers(_ node: YAMLNode) -> (keyword: String, members: [YAMLNode], nullable: Bool)? {
    for keyword in ["oneOf", "anyOf"] {
      guard let union = field(keyword, of: node), case .sequence(let options, _) = union.content else { continue }
      let members = options.filter { !isNullSchema($0) }
      return (keyword, members, members.count < options.count)
    }
    return nil
  }

  /// Declares a choice for a `oneOf`/`anyOf` of two or more members, named `name`.
  mutating func declareChoice(
    _ schema: YAMLNode, members: [YAMLNode], keyword: String, name: Located<String>, identity: String
  ) -> TypeExpression? {
    if let known = declared[identity] { return .named(Located(value: known, location: name.location)) }
    let typeName = swiftTypeName(for: schema, identity: identity, wanted: name)
    declared[identity] = typeName.value
    var syntaxes: [ChoiceMemberSyntax] = []
    var valid = true
    // Members named alike (two inline objects are both `object`) are told apart by position,
    // past any name another member already has (`object2` beside two `object`s).
    let names = members.enumerated().map { memberCaseName($1, index: $0) }
    let repeated = Set(names.filter { name in names.count { $0 == name } > 1 })
    var used = Set(names.filter { !repeated.contains($0) })
    var caseNames: [String] = []
    for (index, name) in names.enumerated() {
      guard repeated.contains(name) else {
        caseNames.append(name)
        continue
      }
      var suffix = index + 1
      while used.contains(name + "\(suffix)") { suffix += 1 }
      used.insert(name + "\(suffix)")
      caseNames.append(name + "\(suffix)")
    }
    for (index, member) in members.enumerated() {
      let caseName = caseNames[index]
      guard let type = typeExpression(member, hint: typeName.value + SchemaNames.typeName(caseName)) else {
        valid = false
        continue
      }
      syntaxes.append(ChoiceMemberSyntax(name: Located(value: caseName, location: member.location), type: type))
    }
    guard valid else { return nil }
    var selection: Choice.Selection = keyword == "anyOf" ? .first : .exactlyOne
    if let (key, tags) = discriminator(schema, members: members) {
      selection = .discriminator(key)
      for index in syntaxes.indices {
        syntaxes[index].tag = Located(value: tags[index], location: syntaxes[index].name.location)
      }
    }
    declare(typeName, .choice(members: syntaxes, selection: selection), from: schema)
    return .named(typeName)
  }

  /// Declares a choice for a `type` list of two or more types: a case per type.
  mutating func declareTypeChoice(
    _ schema: YAMLNode, types: [YAMLNode], name: Located<String>, identity: String
  ) -> TypeExpression? {
    guard case .mapping(let pairs) = schema.content else { return nil }
    let others = pairs.filter { pair in
      if case .scalar(let key) = pair.key.content { return key.value != "type" }
      return true
    }
    // One schema per type: the list's other keywords with `type` narrowed to that one.
    let members = types.map { type in
      YAMLNode(
        .mapping(
          others + [YAMLPair(key: YAMLNode(.scalar(YAMLScalar("type", style: .plain)), at: type.location), value: type)]
        ), at: type.location)
    }
    return declareChoice(schema, members: members, keyword: "oneOf", name: name, identity: identity)
  }

  /// A member's case name: its component's name, its `title`, its one `type`, or its position.
  private mutating func memberCaseName(_ member: YAMLNode, index: Int) -> String {
    if let reference = ReferenceResolver.reference(of: member), case .scalar(let text) = reference.content,
      let last = text.value.split(separator: "/").last
    {
      return SchemaNames.caseName(ReferenceResolver.unescaped(String(last)))
    }
    if let title = field("title", of: member).map(scalarText), !title.isEmpty { return SchemaNames.caseName(title) }
    if let type = field("type", of: member), case .scalar(let text) = type.content { return text.value }
    return "option\(index + 1)"
  }

  /// The key that tells the members apart, and each member's value under it: the schema's own
  /// `discriminator` (2.x: a property name; 3.x: an object with `propertyName` and `mapping`),
  /// or a property that every member fixes to a different value (`const` or a one-value `enum`).
  private mutating func discriminator(_ schema: YAMLNode, members: [YAMLNode]) -> (String, [String])? {
    var fixed: [[String: String]] = []
    for member in members { fixed.append(fixedValues(member)) }
    var explicitKey: String?
    var mapping: [String: String] = [:]  // target identity → tag
    if let node = field("discriminator", of: schema) {
      switch node.content {
      case .scalar(let text): explicitKey = text.value
      case .mapping:
        explicitKey = field("propertyName", of: node).map(scalarText)
        for entry in field("mapping", of: node).flatMap({ reader.entries(of: $0, what: "`mapping`") }) ?? [] {
          var log = DiagnosticLog()
          let reference = YAMLNode(
            .mapping([
              YAMLPair(
                key: YAMLNode(.scalar(YAMLScalar("$ref", style: .plain)), at: entry.value.location), value: entry.value)
            ]), at: entry.value.location)
          if let target = resolver.resolve(reference, log: &log)?.target { mapping[target.identity] = entry.key.value }
        }
      default: break
      }
    }
    if let key = explicitKey {
      var tags: [String] = []
      for (index, member) in members.enumerated() {
        var log = DiagnosticLog()
        let target = ReferenceResolver.reference(of: member) != nil ? resolver.resolve(member, log: &log)?.target : nil
        if let tag = target.flatMap({ mapping[$0.identity] }) ?? fixed[index][key] ?? target?.name {
          tags.append(tag)
        } else {
          return nil
        }
      }
      return Set(tags).count == tags.count ? (key, tags) : nil
    }
    guard let first = fixed.first else { return nil }
    for key in first.keys.sorted() {
      let tags = fixed.compactMap { $0[key] }
      if tags.count == members.count, Set(tags).count == tags.count { return (key, tags) }
    }
    return nil
  }

  /// The one value a schema allows, where it fixes one: its `const`, or an `enum` of one scalar.
  func fixedValue(of schema: YAMLNode) -> YAMLNode? {
    if let constant = field("const", of: schema), case .scalar = constant.content { return constant }
    if let values = field("enum", of: schema), case .sequence(let items, _) = values.content, items.count == 1,
      case .scalar = items[0].content
    {
      return items[0]
    }
    return nil
  }

  /// The properties a member fixes to one string: `const`, or an `enum` of one value; through
  /// its `$ref` and its `allOf` members.
  private mutating func fixedValues(_ member: YAMLNode) -> [String: String] {
    var log = DiagnosticLog()
    guard let schema = resolver.resolve(member, log: &log)?.node else { return [:] }
    var result: [String: String] = [:]
    var parts = [schema]
    if let allOf = field("allOf", of: schema), case .sequence(let items, _) = allOf.content {
      parts += items.compactMap { resolver.resolve($0, log: &log)?.node }
    }
    for part in parts {
      guard let properties = field("properties", of: part), case .mapping(let pairs) = properties.content else {
        continue
      }
      for pair in pairs {
        guard case .scalar(let key) = pair.key.content,
          let property = resolver.resolve(pair.value, log: &log)?.node
        else { continue }
        if let value = fixedValue(of: property) { result[key.value] = scalarText(value) }
      }
    }
    return result
  }
}
