import Foundation

/// AsyncAPI messages → events: names, docs, versions, and the JSON Schema of the payload.
extension AsyncAPIDecoder {
  // MARK: - Messages → events

  mutating func event(key: Located<String>, _ node: YAMLNode, name swiftName: String) -> EventSyntax? {
    guard let (message, _) = resolver.resolve(node, log: &reader.log) else { return nil }
    let what = "message `\(key.value)`"
    guard let entries = reader.entries(of: message, what: what) else { return nil }
    var keys: [String: (key: Located<String>, value: YAMLNode)] = [:]
    for entry in entries {
      guard entry.key.value.hasPrefix("x-") || Self.messageKeys.contains(entry.key.value) else {
        // Not read, so it cannot refuse the document: said, as it may be a misspelling.
        let hint = Suggestions.hint(for: entry.key.value, among: Self.messageKeys)
        reader.log.warning("unknown key `\(entry.key.value)` in \(what) is not read\(hint)", at: entry.key.location)
        continue
      }
      keys[entry.key.value] = entry
    }
    // A message that cannot be an event is skipped with a warning: the rest of the document
    // still generates (`--strict` makes the warning an error). One of a content type that is not
    // JSON is bytes: a binary event, unless its payload's schema says it is structured.
    var binaryContentType: Located<String>?
    if let node = keys["contentType"]?.value ?? defaultContentType {
      guard let type = reader.string(node, what: "`contentType`") else { return nil }
      if !Self.isJSON(contentType: type) { binaryContentType = Located(value: type, location: node.location) }
    }
    let name = Located(value: swiftName, location: key.location)
    var fields: [FieldSyntax] = []
    var cloudEventType: (name: Located<String>?, accepted: AcceptedWireNames?)?
    // Whether the payload is a CloudEvents envelope written out, whose `data` is the event's JSON.
    var payloadIsEnvelope = false
    if let payload = keys["payload"]?.value {
      guard isLocal(payload, what: what),
        let (node, schema) = payloadSchema(
          payload, schemaFormat: keys["schemaFormat"]?.value, what: what, cloudEventType: &cloudEventType,
          isEnvelope: &payloadIsEnvelope)
      else {
        return nil
      }
      if let contentType = binaryContentType {
        // Bytes: the schema may describe them as a string, or say nothing of their shape. Text
        // (`text/plain`) of a string, a number, a Boolean or an enum is that value's text.
        let value = nonObjectPayload(node, schema: schema)
        if let value, let text = textField(value, contentType: contentType.value, event: name) {
          fields = [text]
        } else {
          if !(value.map({ field("type", of: $0.schema).map(scalarText) == "string" }) ?? isUnshaped(schema)) {
            // Structured data in another format: Avro and Protobuf have schemas of their own,
            // which eventgen does not read; any other (XML, CBOR, MessagePack) is its bytes.
            guard !Self.isSchemaEncoded(contentType: contentType.value) else {
              reader.log.warning(
                "\(what) is skipped: its content type is `\(contentType.value)`, whose data eventgen cannot read or write; it reads and writes JSON (`application/json`, `json`, `text/json` or a `+json` type) and bytes",
                at: contentType.location)
              return nil
            }
            reader.log.note(
              "\(what) has the content type `\(contentType.value)`, not JSON: its event carries the data as bytes (`payload: Data`), whose structure eventgen does not check",
              at: contentType.location)
          }
          fields = [binaryField(at: node.location)]
        }
      } else if let value = nonObjectPayload(node, schema: schema) {
        if let media = binaryMediaType(value.schema) {
          binaryContentType = Located(value: media, location: value.schema.location)
          fields = [binaryField(at: node.location)]
        } else {
          guard let whole = wholeValueField(value.node, event: name) else { return nil }
          fields = [whole]
        }
      } else if let choice = payloadChoice(node, schema: schema) {
        guard let whole = choiceField(choice, event: name, what: what) else { return nil }
        fields = [whole]
      } else {
        guard let members = objectMembers(schema, owner: name.value, what: "the payload of \(what)") else { return nil }
        fields = members
      }
    }
    // In binary mode the envelope's attributes are the headers: their `type` says the same.
    if cloudEventType == nil, let headers = keys["headers"]?.value {
      var log = DiagnosticLog()  // the headers are not read otherwise: no errors of theirs
      if let schema = resolver.resolve(headers, log: &log)?.node {
        let attributes = envelopeProperties(schema)
        if attributes["specversion"] != nil {
          cloudEventType = cloudEventTypeName(envelopeDefinitions(of: "type", in: schema), what: what)
        }
      }
    }
    // A binary message may describe no payload: its bytes are its data all the same.
    if binaryContentType != nil && keys["payload"] == nil { fields = [binaryField(at: key.location)] }
    var event = EventSyntax(
      name: name, fields: fields,
      subject: keys["x-eventgen-subject"].flatMap { reader.located($0.value, what: "`x-eventgen-subject`") },
      doc: doc(description: keys["description"]?.value, summary: keys["summary"]?.value),
      deprecated: deprecation(keys["deprecated"]?.value, message: keys["x-eventgen-deprecated"]?.value))
    // The type the backend writes into the envelope, where the payload says it; else the name.
    let ownName = keys["name"].flatMap { reader.located($0.value, what: "the message's `name`") } ?? key
    // A `type` several messages share (a common headers schema) names each by its own name
    // where it allows that; else by the type's first value or matching example.
    switch cloudEventType?.accepted {
    case .names(let names)? where names.contains(ownName.value): event.wireName = ownName
    case .pattern(let pattern)? where Self.matches(pattern, ownName.value) == true: event.wireName = ownName
    default: event.wireName = cloudEventType?.name ?? ownName
    }
    event.acceptedWireNames = cloudEventType?.accepted
    event.binaryContentType = binaryContentType?.value
    if case .pattern(let pattern)? = event.acceptedWireNames, let own = event.wireName,
      Self.matches(pattern, own.value) == false
    {
      reader.log.warning(
        "\(what) is known by every CloudEvents `type` its pattern matches, but no `examples` value of that `type` matches it: events published from Swift carry `\(own.value)`, which it does not; publish with `EventEnvelope(event, name:)` and a name it matches",
        at: own.location)
    }
    event.examples = examplePayloads(keys["examples"]?.value, envelope: payloadIsEnvelope)
    if let replay = keys["x-eventgen-replay-per-subject"] {
      event.replayPerSubject = reader.integer(replay.value, what: "`x-eventgen-replay-per-subject`").map {
        Located(value: $0, location: replay.value.location)
      }
    }
    if let version = keys["x-eventgen-version"] {
      event.version = reader.integer(version.value, what: "`x-eventgen-version`").map {
        Located(value: $0, location: version.value.location)
      }
    }
    return event
  }

  /// The payloads of a message's `examples` (Message Example Objects), as written, to be checked
  /// against the event once its type is known (``ExampleCheck``); where the payload is a
  /// CloudEvents envelope written out, its `data`, which is the event's JSON. An example without
  /// a payload (headers alone) has nothing to check; a payload given as a `$ref` is what it
  /// names, and one that names nothing is not checked (nothing generated reads it).
  private mutating func examplePayloads(_ node: YAMLNode?, envelope: Bool) -> [Located<Literal>] {
    guard let node, case .sequence(let items, _) = node.content else { return [] }
    var payloads: [Located<Literal>] = []
    for item in items {
      guard var payload = field("payload", of: item) else { continue }
      if ReferenceResolver.reference(of: payload) != nil {
        var log = DiagnosticLog()
        guard let resolved = resolver.resolve(payload, log: &log)?.node else { continue }
        payload = resolved
      }
      if envelope {
        guard let data = field("data", of: payload) else { continue }
        payload = data
      }
      payloads.append(reader.literal(payload))
    }
    return payloads
  }

  /// Whether `contentType`, parameters and case aside, names JSON.
  static func isJSON(contentType: String) -> Bool {
    let essence = contentType.split(separator: ";").first.map { $0.trimmingSpaces.lowercased() } ?? ""
    return essence == "application/json" || essence == "json" || essence == "text/json" || essence.hasSuffix("+json")
  }

  /// Whether a payload is in reach: a payload that is only a `$ref` to another server's
  /// document is not fetched (a build must not touch the network), and skips the message.
  private mutating func isLocal(_ payload: YAMLNode, what: String) -> Bool {
    guard let reference = ReferenceResolver.reference(of: payload), case .scalar(let text) = reference.content,
      text.value.contains("://"), !resolver.isMapped(String(text.value.prefix { $0 != "#" }))
    else { return true }
    reader.log.warning(
      "\(what) is skipped: its payload is only a `$ref` to \(text.value), which eventgen does not fetch; save that document beside this one and refer to it by a relative path",
      at: reference.location)
    return false
  }

  /// The JSON Schema of a payload: a schema, or a 3.x multi-format object (`schemaFormat`,
  /// `schema`) whose format is JSON Schema or AsyncAPI's. A payload that writes out the
  /// CloudEvents structured envelope (`specversion` and `data` among its properties) is
  /// unwrapped to its `data`. The node is what names the schema: the payload, or `data`.
  private mutating func payloadSchema(
    _ payload: YAMLNode, schemaFormat: YAMLNode?, what: String,
    cloudEventType: inout (name: Located<String>?, accepted: AcceptedWireNames?)?, isEnvelope: inout Bool
  ) -> (node: YAMLNode, schema: YAMLNode)? {
    guard var (schema, _) = resolver.resolve(payload, log: &reader.log) else { return nil }
    var format = schemaFormat
    let inner = field("schema", of: schema)
    if inner != nil, let innerFormat = field("schemaFormat", of: schema) { format = innerFormat }
    // The format first: a schema in another format (an Avro `.avsc` on another server) is
    // skipped without being resolved.
    if let format, let text = reader.string(format, what: "`schemaFormat`") {
      let supported = ["application/vnd.aai.asyncapi", "application/schema+json", "application/schema+yaml"]
      guard supported.contains(where: { text.hasPrefix($0) }) else {
        reader.log.warning(
          "\(what) is skipped: its payload is in `\(text)`, and eventgen reads JSON Schema payloads (AsyncAPI's schema format or `application/schema+json`)",
          at: format.location)
        return nil
      }
    }
    if let inner, field("schemaFormat", of: schema) != nil {
      guard isLocal(inner, what: what), let (resolved, _) = resolver.resolve(inner, log: &reader.log) else {
        return nil
      }
      schema = resolved
    }
    let properties = envelopeProperties(schema)
    if properties["specversion"] != nil, let data = properties["data"] {
      isEnvelope = true
      cloudEventType = cloudEventTypeName(envelopeDefinitions(of: "type", in: schema), what: what)
      // The event's JSON is `data`'s: a choice there is named for `data`'s schema, not the
      // envelope's (which is often named as the event).
      return resolver.resolve(data, log: &reader.log).map { (data, $0.node) }
    }
    return (payload, schema)
  }

  /// The properties of a schema and of its `allOf` members, where it writes out the CloudEvents
  /// envelope (`allOf: [{$ref: CloudEvent}, {properties: {type: …, data: …}}]` is common); a
  /// property two members define is the narrower definition.
  private mutating func envelopeProperties(_ schema: YAMLNode) -> [String: YAMLNode] {
    var result: [String: YAMLNode] = [:]
    for part in envelopeParts(schema) {
      guard let properties = field("properties", of: part), case .mapping(let pairs) = properties.content else {
        continue
      }
      for pair in pairs {
        guard case .scalar(let key) = pair.key.content else { continue }
        if let first = result[key.value], case .first = narrowing(first, pair.value) { continue }
        result[key.value] = pair.value
      }
    }
    return result
  }

  /// Every definition of the property `key` in a schema and its `allOf` members, in order.
  private mutating func envelopeDefinitions(of key: String, in schema: YAMLNode) -> [YAMLNode] {
    envelopeParts(schema).compactMap { part in field("properties", of: part).flatMap { field(key, of: $0) } }
  }

  /// A schema and its `allOf` members, resolved: where an envelope's properties are written.
  private mutating func envelopeParts(_ schema: YAMLNode) -> [YAMLNode] {
    var log = DiagnosticLog()  // the event's own reading reports errors
    var parts = [schema]
    if let allOf = field("allOf", of: schema), case .sequence(let members, _) = allOf.content {
      parts += members.compactMap { resolver.resolve($0, log: &log)?.node }
    }
    return parts
  }

  /// The envelope's `type` as the event's wire names: a `const` or a one-value `enum` is the
  /// name; several values are all accepted, the first is the name; a `pattern` accepts every
  /// name it matches, and the first `examples` value it matches is the name (else the
  /// message's). Nil when the envelope says nothing of `type`.
  private mutating func cloudEventTypeName(
    _ definitions: [YAMLNode], what: String
  ) -> (name: Located<String>?, accepted: AcceptedWireNames?)? {
    var log = DiagnosticLog()
    let schemas = definitions.map { resolver.resolve($0, log: &log)?.node ?? $0 }
    // The narrowest definition speaks: one value, then a list, then a pattern.
    if let value = schemas.lazy.compactMap(fixedValue).first {
      return (Located(value: scalarText(value), location: value.location), nil)
    }
    for schema in schemas {
      if let values = field("enum", of: schema), case .sequence(let items, _) = values.content,
        let first = items.first
      {
        let names = items.map(scalarText)
        return (Located(value: names[0], location: first.location), .names(names))
      }
    }
    guard let schema = schemas.first(where: { field("pattern", of: $0) != nil }),
      let pattern = field("pattern", of: schema), let text = reader.string(pattern, what: "`pattern`")
    else {
      return nil
    }
    guard Self.matches(text, "") != nil else {
      reader.log.warning(
        "\(what) is known on the wire by its name alone: its envelope's `type` pattern is not a regular expression eventgen reads",
        at: pattern.location)
      return nil
    }
    let examples: [YAMLNode] =
      if let list = field("examples", of: schema), case .sequence(let items, _) = list.content { items } else { [] }
    let example = examples.first { Self.matches(text, scalarText($0)) == true }
    return (example.map { Located(value: scalarText($0), location: $0.location) }, .pattern(text))
  }

  /// Whether `pattern` matches anywhere in `name`, as JSON Schema's `pattern` does; nil when it
  /// is not a regular expression. Read with `NSRegularExpression`, as the runtime's catalog reads
  /// it, so that the generator accepts exactly the patterns the catalog can match.
  static func matches(_ pattern: String, _ name: String) -> Bool? {
    guard let expression = try? NSRegularExpression(pattern: pattern) else { return nil }
    return expression.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
  }
}

extension Substring {
  /// Without leading and trailing spaces.
  fileprivate var trimmingSpaces: Substring {
    let start = firstIndex { $0 != " " } ?? endIndex
    let end = lastIndex { $0 != " " }.map(index(after:)) ?? start
    return self[start..<end]
  }
}
