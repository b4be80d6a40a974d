/// AsyncAPI payloads → an event's fields, by the payload's kind: an object's properties (in
/// `+Objects`), a choice, a JSON value that is not an object, bytes, or text.
extension AsyncAPIDecoder {
  /// The payload's node and schema, or, where its schema is an `allOf` of one schema with a
  /// shape (and annotations), that one's: the export writes an event's payload so, to keep its
  /// title beside the `$ref`.
  mutating func throughSingleAllOf(_ node: YAMLNode, schema: YAMLNode) -> (node: YAMLNode, schema: YAMLNode) {
    guard field("properties", of: schema) == nil, let allOf = field("allOf", of: schema),
      case .sequence(let parts, _) = allOf.content
    else { return (node, schema) }
    let typed = parts.filter { !isAnnotationOnly($0) }
    var log = DiagnosticLog()  // the event's own reading reports errors
    guard typed.count == 1, let resolved = resolver.resolve(typed[0], log: &log)?.node else { return (node, schema) }
    return (typed[0], resolved)
  }

  /// A payload that is itself a choice: the schema with a `oneOf`/`anyOf` of two or more
  /// members, and the node that names it (the payload's `$ref`). An `allOf` of one such schema
  /// alone counts too: the export writes a choice event so, to keep its title beside the `$ref`.
  mutating func payloadChoice(
    _ payload: YAMLNode, schema: YAMLNode
  ) -> (node: YAMLNode, schema: YAMLNode, keyword: String, members: [YAMLNode])? {
    let (node, schema) = throughSingleAllOf(payload, schema: schema)
    guard field("x-eventgen-type", of: schema) == nil, field("properties", of: schema) == nil,
      let union = unionMembers(schema), union.members.count > 1
    else { return nil }
    // Members that only constrain (`required: [a]`, `not`) describe no shape: the union is
    // validation only, and the payload is read as an object (its keys kept).
    var log = DiagnosticLog()  // the event's own reading reports errors
    let shapes = ["type", "properties", "allOf", "oneOf", "anyOf", "additionalProperties", "patternProperties"]
    for member in union.members {
      guard let resolved = resolver.resolve(member, log: &log)?.node,
        shapes.contains(where: { field($0, of: resolved) != nil })
      else { return nil }
    }
    return (node, schema, union.keyword, union.members)
  }

  /// The payload's schema when its values are not objects: an explicit `type` other than
  /// `object` (or a `type` list without it), `items` alone, or a built-in's `x-eventgen-type`;
  /// looked for through an `allOf` of one schema, as the export writes an event's payload. Nil
  /// for an object, a choice, or a schema that says nothing of its type, which read as objects
  /// as before.
  mutating func nonObjectPayload(_ node: YAMLNode, schema: YAMLNode) -> (node: YAMLNode, schema: YAMLNode)? {
    let (node, schema) = throughSingleAllOf(node, schema: schema)
    // A built-in type as the export writes it (`Date` is an `anyOf` of a string and a number).
    if field("x-eventgen-type", of: schema) != nil { return (node, schema) }
    switch field("type", of: schema)?.content {
    case .scalar(let text)?:
      return text.value == "object" ? nil : (node, schema)
    case .sequence(let items, _)?:
      return items.contains { scalarText($0) == "object" } ? nil : (node, schema)
    case .mapping?:
      return nil  // reported where the type is read
    case nil:
      let isArray = field("items", of: schema) != nil || field("prefixItems", of: schema) != nil
      return isArray && field("properties", of: schema) == nil ? (node, schema) : nil
    }
  }

  /// The media type of a payload whose schema says its values are bytes rather than JSON text:
  /// `format: binary` (its `contentMediaType`, else `application/octet-stream`), or a
  /// `contentMediaType` that is neither text nor JSON; nil for JSON.
  func binaryMediaType(_ schema: YAMLNode) -> String? {
    let media = field("contentMediaType", of: schema).map(scalarText).flatMap { $0.isEmpty ? nil : $0 }
    if field("format", of: schema).map(scalarText) == "binary" { return media ?? "application/octet-stream" }
    if let media, !media.hasPrefix("text/"), !Self.isJSON(contentType: media) { return media }
    return nil
  }

  /// Whether a schema says nothing of its values' shape (`{}`, or annotations alone).
  func isUnshaped(_ schema: YAMLNode) -> Bool {
    let shapes = ["type", "properties", "items", "allOf", "oneOf", "anyOf", "enum", "const"]
    return !shapes.contains { field($0, of: schema) != nil }
  }

  /// The one field of a binary event whose data is the text of a value (a `text/*` content type,
  /// and a payload that is a string, a number, a Boolean or an enum of strings): of that value's
  /// type. Nil for any other payload, and for a string of bytes (`format: binary`).
  mutating func textField(
    _ value: (node: YAMLNode, schema: YAMLNode), contentType: String, event name: Located<String>
  ) -> FieldSyntax? {
    guard contentType.lowercased().hasPrefix("text/"), binaryMediaType(value.schema) == nil,
      let type = field("type", of: value.schema).map(scalarText),
      ["string", "number", "integer", "boolean"].contains(type)
    else { return nil }
    guard var whole = wholeValueField(value.node, event: name), case .named(let named) = whole.type else { return nil }
    // Text is the value's own text: a string's `format` (`date-time`, `uuid`) annotates it, as
    // in JSON Schema, and the event keeps the text as it came, a `String`.
    if type == "string", field("enum", of: value.schema) == nil {
      whole.type = .named(Located(value: BuiltinType.string.swiftName, location: named.location))
    }
    whole.doc = "The event's data: the text of this value, of the event's `dataContentType`."
    return whole
  }

  /// Whether data of `contentType` is Avro or Protobuf: structured by a schema of that format,
  /// which eventgen does not read.
  static func isSchemaEncoded(contentType: String) -> Bool {
    let essence = contentType.lowercased().prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
    return ["avro", "protobuf", "proto"].contains { essence.contains($0) }
  }

  /// The one field of a binary event: its bytes, its data itself.
  func binaryField(at location: SourceLocation) -> FieldSyntax {
    var bytes = FieldSyntax(
      name: Located(value: "payload", location: location),
      type: .named(Located(value: BuiltinType.data.swiftName, location: location)),
      doc: "The event's data: its bytes, of the event's `dataContentType`.")
    bytes.isWholePayload = true
    return bytes
  }

  /// The one field of an event whose payload is not an object: the whole JSON, of the type its
  /// schema has (named, when `node` is a `$ref`, for the schema it names), held in `userInfo`
  /// under `payload`.
  mutating func wholeValueField(_ node: YAMLNode, event name: Located<String>) -> FieldSyntax? {
    guard let (type, nullable) = typeAndNullability(node, hint: name.value + "Payload") else { return nil }
    var whole = FieldSyntax(
      name: Located(value: "payload", location: node.location), type: nullable ? .optional(type, node.location) : type,
      doc: "The event's JSON: the message's payload, which is not an object.")
    whole.isWholePayload = true
    return whole
  }

  /// The one field of an event whose payload is a choice: the whole JSON, of the choice's type.
  /// The choice is named after its component or `title`, else `<Event>Payload`; never after
  /// an event, which is a type of its own (a component named as an event is `<Name>Payload`).
  mutating func choiceField(
    _ choice: (node: YAMLNode, schema: YAMLNode, keyword: String, members: [YAMLNode]),
    event name: Located<String>, what: String
  ) -> FieldSyntax? {
    // A choice of objects has its member's keys as the event's `userInfo`; any other is held
    // there under `payload`.
    let ofObjects = choice.members.allSatisfy { isObjectSchema($0, depth: 0) }
    var log = DiagnosticLog()  // the choice's own reading reports errors
    let target =
      ReferenceResolver.reference(of: choice.node) != nil ? resolver.resolve(choice.node, log: &log)?.target : nil
    let typeName: String
    let identity: String
    if let target {
      // Declared once, however many messages carry it; `Payload` where an event has its name.
      let named = SchemaNames.typeName(target.name)
      (typeName, identity) = (eventNames.contains(named) ? named + "Payload" : named, target.identity)
    } else if let title = title(of: choice.schema), !eventNames.contains(SchemaNames.typeName(title)) {
      (typeName, identity) = (title, "\(choice.schema.location)")
    } else {
      (typeName, identity) = (name.value + "Payload", "\(choice.schema.location)")
    }
    guard
      let type = declareChoice(
        choice.schema, members: choice.members, keyword: choice.keyword,
        name: Located(value: typeName, location: choice.schema.location), identity: identity)
    else { return nil }
    var whole = FieldSyntax(
      name: Located(value: "payload", location: choice.node.location), type: type,
      doc: "The event's JSON: one of the members of the payload's `\(choice.keyword)`.")
    whole.isWholePayload = true
    whole.wholePayloadKeysAreUserInfo = ofObjects
    return whole
  }

  /// Whether every value of a schema is a JSON object: `type: object`, object keywords without
  /// a `type`, an `allOf` with an object part, or a choice of objects. Bounded in depth, as a
  /// `$ref` cycle through `allOf` is possible.
  mutating func isObjectSchema(_ node: YAMLNode, depth: Int) -> Bool {
    var log = DiagnosticLog()  // the choice's own reading reports errors
    guard depth < 32, let schema = resolver.resolve(node, log: &log)?.node else { return depth < 32 }
    if let type = field("type", of: schema) {
      if case .scalar(let text) = type.content { return text.value == "object" }
      return false
    }
    if ["properties", "additionalProperties", "patternProperties"].contains(where: {
      field($0, of: schema) != nil
    }) {
      return true
    }
    if let allOf = field("allOf", of: schema), case .sequence(let parts, _) = allOf.content {
      return parts.contains { isObjectSchema($0, depth: depth + 1) }
    }
    if let union = unionMembers(schema), !union.members.isEmpty {
      return union.members.allSatisfy { isObjectSchema($0, depth: depth + 1) }
    }
    return false
  }
}
