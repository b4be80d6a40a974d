/// Swift names of a document's events and types (``NameTable``): derived from its keys, chosen
/// by `x-eventgen-name` or the config's `names`, and settled where they collide.
extension AsyncAPIDecoder {
  /// A message met in the document, and the Swift name of its event.
  struct Message {
    var key: Located<String>
    var node: YAMLNode
    /// The channel that declares it inline; nil for a component.
    var channel: String?
    /// Its JSON pointer in the document, where the config's `names` can name it: a component's,
    /// or a 3.x channel's message.
    var pointer: String?
    var name = ""
  }

  /// Gives every message its event's Swift name (``NameTable``): its `x-eventgen-name`, else
  /// the type name of its key. In 3.x message keys belong to their channel, so two messages
  /// may share one: each of those takes its `name`, else its `title`, else the channel's name
  /// before the key, in that order of preference. A message whose payload is a `$ref` to a
  /// schema of the same name is that schema's type.
  mutating func nameMessages(_ messages: inout [Message]) {
    var count: [String: Int] = [:]
    for message in messages { count[SchemaNames.typeName(message.key.value), default: 0] += 1 }
    for index in messages.indices {
      let base = SchemaNames.typeName(messages[index].key.value)
      let message = resolvedMessage(messages[index].node)
      let what = "message `\(messages[index].key.value)`"
      if let pointer = messages[index].pointer,
        let name = configuredName(
          identity: ReferenceResolver.normalised(document.path) + "#" + pointer, for: what,
          at: messages[index].key.location)
      {
        messages[index].name = name
        continue
      }
      if let chosen = message.flatMap({ field("x-eventgen-name", of: $0) }),
        let located = reader.located(chosen, what: "`x-eventgen-name`"),
        let name = names.claim(chosen: located, for: what, log: &reader.log)
      {
        messages[index].name = name
        continue
      }
      let channel = messages[index].channel.map { SchemaNames.typeName($0) + base }
      var wanted = base
      if count[base, default: 0] > 1, let message {
        wanted =
          [field("name", of: message), field("title", of: message)].lazy.compactMap { $0 }.map(scalarText)
          .first { !$0.isEmpty && SchemaNames.typeName($0) != base }.map(SchemaNames.typeName) ?? channel ?? base
      }
      messages[index].name = names.claim(
        wanted, alternatives: [channel, wanted + "Event"].compactMap { $0 }, for: what,
        at: messages[index].key.location, log: &reader.log)
    }
    eventNames = Set(messages.map(\.name))
    for message in messages {
      // Only a `$ref` within the document: a file's read errors are reported once, by the event.
      guard let node = resolvedMessage(message.node), let payload = field("payload", of: node),
        let reference = ReferenceResolver.reference(of: payload), scalarText(reference).hasPrefix("#")
      else { continue }
      var log = DiagnosticLog()  // the event's own resolution reports errors
      // A choice is not the event: it is declared as the event's payload type (`choiceField`);
      // nor is a value that is not an object: it is the event's payload (`wholeValueField`).
      guard let resolved = resolver.resolve(payload, log: &log), let target = resolved.target,
        SchemaNames.typeName(target.name) == message.name, declared[target.identity] == nil,
        (unionMembers(resolved.node)?.members.count ?? 0) < 2, isObjectSchema(payload, depth: 0)
      else { continue }
      declared[target.identity] = message.name
    }
  }

  mutating func resolvedMessage(_ node: YAMLNode) -> YAMLNode? {
    var log = DiagnosticLog()  // the event's own resolution reports errors
    return resolver.resolve(node, log: &log)?.node
  }

  /// The Swift name the config gives what has the identity `identity`, claimed for `what`
  /// (declared at `location`); nil when it gives none, or its name is taken (an error then).
  mutating func configuredName(identity: String, for what: String, at location: SourceLocation) -> String? {
    guard let configured = configuredNames[identity] else { return nil }
    appliedNames.insert(configured.reference)
    return names.claim(
      chosen: Located(value: configured.name, location: configured.location),
      by: "the name that `names` in eventgen-config.yaml gives", for: what, declaredAt: location, log: &reader.log)
  }

  /// The Swift name of the type declared for `schema`, whose identity is `identity`
  /// (``NameTable``): the config's name for it, else its `x-eventgen-name`, else the type name
  /// of `wanted`, else another when that is taken.
  mutating func swiftTypeName(for schema: YAMLNode, identity: String, wanted: Located<String>) -> Located<String> {
    let base = SchemaNames.typeName(wanted.value)
    let what = "schema `\(wanted.value)`"
    if let name = configuredName(identity: identity, for: what, at: wanted.location) {
      return Located(value: name, location: wanted.location)
    }
    if let chosen = field("x-eventgen-name", of: schema),
      let located = reader.located(chosen, what: "`x-eventgen-name`"),
      let name = names.claim(chosen: located, for: what, log: &reader.log)
    {
      return Located(value: name, location: wanted.location)
    }
    var alternatives: [String] = []
    // A schema of another file is told apart by that file's stem: `BillingError`; not when
    // the stem is its name already (`Audio` of `audio.json`).
    if schema.location.file != document.path,
      let stem = schema.location.file.split(separator: "/").last?.split(separator: ".").first,
      case let qualifier = SchemaNames.typeName(String(stem)), !base.hasPrefix(qualifier)
    {
      alternatives.append(qualifier + base)
    }
    alternatives.append(base + "Schema")
    let name = names.claim(base, alternatives: alternatives, for: what, at: wanted.location, log: &reader.log)
    return Located(value: name, location: wanted.location)
  }
}
