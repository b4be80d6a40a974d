import EventSchema

/// Builds the JSON Schema of every event, declared type and external type of a run: one
/// builder for both documents, which differ only in where the definitions live
/// (`#/components/schemas/` in AsyncAPI, `#/$defs/` in a JSON Schema document).
struct PayloadSchemas {
  let schema: SchemaSet
  /// The JSON pointer of the definitions, with its trailing `/`.
  let definitionsPointer: String
  let defaults: DefaultJSON

  init(schema: SchemaSet, definitionsPointer: String) {
    self.schema = schema
    self.definitionsPointer = definitionsPointer
    var enumCases: [String: [EnumCase]] = [:]
    for type in schema.files.flatMap(\.types) {
      if case .enumeration(let cases, _) = type.kind { enumCases[type.name] = cases }
    }
    defaults = DefaultJSON(enumCases: enumCases)
  }

  /// Every definition by Swift name, file by file in run order: the file's events, its
  /// declared types, then the external types it is the first to list.
  var definitions: JSONObject {
    var definitions = JSONObject()
    for file in schema.files {
      for event in file.events { definitions[event.name] = eventSchema(event) }
      for type in file.types { definitions[type.name] = typeSchema(type) }
      for name in file.externals where definitions[name] == nil { definitions[name] = externalSchema(name) }
    }
    // The built-in types whose schemas are shared, once each, after the run's own.
    var used: Set<BuiltinType> = []
    func collect(_ type: FieldType) {
      switch type {
      case .builtin(let builtin): used.insert(builtin)
      case .optional(let wrapped), .array(let wrapped), .dictionary(let wrapped): collect(wrapped)
      case .named: break
      }
    }
    for file in schema.files {
      for event in file.events { event.fields.forEach { collect($0.type) } }
      for type in file.types {
        switch type.kind {
        case .record(let fields): fields.forEach { collect($0.type) }
        case .choice(let choice): choice.members.forEach { collect($0.type) }
        case .wrapper, .enumeration: break  // an identifier's schema is its raw type's, written out
        }
      }
    }
    for builtin in BuiltinType.allCases where BuiltinSchemas.isShared(builtin) && used.contains(builtin) {
      definitions[builtin.swiftName] = .object(BuiltinSchemas.schema(builtin))
    }
    return definitions
  }

  /// `{"$ref": "<definitions>/<name>"}`.
  func reference(to name: String) -> JSONValue {
    ["$ref": .string(definitionsPointer + JSONPointer.escaped(name))]
  }

  /// An event's payload: an object of its fields; for an event whose payload is a choice, an
  /// `allOf` of the choice alone, so that its title and description stand beside the `$ref`.
  func eventSchema(_ event: EventDeclaration) -> JSONValue {
    if let payload = event.fields.first, payload.isWholePayload {
      var schema = header(title: event.name, doc: event.doc)
      schema["allOf"] = [self.schema(for: payload.type)]
      return .object(trailer(schema, kind: "event", deprecated: event.deprecated))
    }
    return .object(
      object(
        title: event.name, doc: event.doc, fields: event.fields, kind: "event", deprecated: event.deprecated))
  }

  /// A `types:` entry: a strong identifier, an enum or a record.
  func typeSchema(_ type: TypeDeclaration) -> JSONValue {
    switch type.kind {
    case .record(let fields):
      return .object(
        object(title: type.name, doc: type.doc, fields: fields, kind: "record", deprecated: type.deprecated))
    case .wrapper(let raw):
      var schema = header(title: type.name, doc: type.doc)
      for member in BuiltinSchemas.schema(raw).members { schema[member.key] = member.value }
      return .object(trailer(schema, kind: "identifier", deprecated: type.deprecated))
    case .enumeration(let cases, let frozen):
      var schema = header(title: type.name, doc: type.doc)
      schema["type"] = "string"
      // Frozen: only the known raw values decode. Open: any string does (an unknown one is kept
      // in `UNRECOGNIZED(_:)` and written back unchanged), so the known ones are examples.
      schema[frozen ? "enum" : "examples"] = .array(cases.map { .string($0.rawValue) })
      schema = trailer(schema, kind: "enum", deprecated: type.deprecated)
      var caseNames = JSONObject()
      for enumCase in cases { caseNames[enumCase.name] = .string(enumCase.rawValue) }
      schema["x-eventgen-enum"] = ["cases": .object(caseNames), "frozen": .bool(frozen)]
      return .object(schema)
    case .choice(let choice):
      // The members as listed; a member's tag is the `const` its own schema gives the key.
      var choiceSchema = header(title: type.name, doc: type.doc)
      choiceSchema[choice.selection == .first ? "anyOf" : "oneOf"] = .array(
        choice.members.map { schema(for: $0.type) })
      if case .discriminator(let key) = choice.selection { choiceSchema["discriminator"] = .string(key) }
      return .object(trailer(choiceSchema, kind: "choice", deprecated: type.deprecated))
    }
  }

  /// An `external:` type: the app's own Swift type, whose JSON its own `Codable` decides.
  func externalSchema(_ name: String) -> JSONValue {
    [
      "title": .string(name),
      "description": .string(
        "`\(name)`, a Swift type of the app's own (`external:`): its JSON is whatever its Codable conformance writes."),
      "x-eventgen-external": .string(name),
    ]
  }

  /// The schema of a value of `type` where it stands: inside an array or a dictionary an
  /// optional element is written as `null`, so it is `anyOf` the element and `null`.
  func schema(for type: FieldType) -> JSONValue {
    switch type {
    case .builtin(let builtin):
      return BuiltinSchemas.isShared(builtin)
        ? reference(to: builtin.swiftName) : .object(BuiltinSchemas.schema(builtin))
    case .named(let name, _): return reference(to: name)
    case .optional(let wrapped): return ["anyOf": [schema(for: wrapped), ["type": "null"]]]
    case .array(let element): return ["type": "array", "items": schema(for: element)]
    case .dictionary(let value): return ["type": "object", "additionalProperties": schema(for: value)]
    }
  }

  /// A field's property schema.
  ///
  /// The decoder reads a missing key *and* an explicit `null` as nil for an optional field, and
  /// as the default for a field with one (`decodeIfPresent`), so both are `anyOf` their type
  /// and `null`; the encoder leaves a nil out. Annotations stand beside the type, and beside
  /// an `allOf` around a bare `$ref`, which draft-07 (AsyncAPI's schema dialect) would
  /// otherwise let hide them.
  func property(_ field: Field) -> JSONValue {
    var isOptional = false
    var type = field.type
    if case .optional(let wrapped) = type {
      isOptional = true
      type = wrapped
    }
    let value = schema(for: type)
    var property = JSONObject()
    if let doc = field.doc { property["description"] = .string(doc) }
    let annotated = field.doc != nil || field.deprecated != nil || field.wireKey != field.name
    // A constant's key may be missing when it is optional, but it is never null.
    if (isOptional && field.constant == nil) || field.defaultValue != nil {
      property["anyOf"] = [value, ["type": "null"]]
    } else if let object = value.objectValue, object["$ref"] == nil || !annotated {
      for member in object.members { property[member.key] = member.value }
    } else {
      property["allOf"] = [value]
    }
    if let value = field.defaultValue { property["default"] = defaults.value(value, of: field.type) }
    if let value = field.constant { property["const"] = defaults.value(value, of: type) }
    if field.deprecated != nil { property["deprecated"] = true }
    if field.wireKey != field.name { property["x-eventgen-field"] = .string(field.name) }
    if isOptional { property["x-eventgen-optional"] = true }
    if let message = field.deprecated, !message.isEmpty { property["x-eventgen-deprecated"] = .string(message) }
    return .object(property)
  }

  /// An object of `fields`, keyed by wire key. No `additionalProperties: false`: the decoder
  /// ignores keys it does not know, so that an older app reads a newer event.
  private func object(title: String, doc: String?, fields: [Field], kind: String, deprecated: String?) -> JSONObject {
    var schema = header(title: title, doc: doc)
    schema["type"] = "object"
    var properties = JSONObject()
    for field in fields where !field.keepsOtherKeys { properties[field.wireKey] = property(field) }
    schema["properties"] = .object(properties)
    if let other = fields.first(where: \.keepsOtherKeys), case .dictionary(let value) = other.type {
      schema["additionalProperties"] = self.schema(for: value)
    }
    let required = fields.filter { !$0.type.isOptional && $0.defaultValue == nil && !$0.keepsOtherKeys }.map {
      JSONValue.string($0.wireKey)
    }
    if !required.isEmpty { schema["required"] = .array(required) }
    return trailer(schema, kind: kind, deprecated: deprecated)
  }

  private func header(title: String, doc: String?) -> JSONObject {
    var schema = JSONObject()
    schema["title"] = .string(title)
    if let doc { schema["description"] = .string(doc) }
    return schema
  }

  /// `deprecated`, `x-eventgen-kind` and the deprecation message (absent for `deprecated: true`).
  private func trailer(_ schema: JSONObject, kind: String, deprecated: String?) -> JSONObject {
    var schema = schema
    if deprecated != nil { schema["deprecated"] = true }
    schema["x-eventgen-kind"] = .string(kind)
    if let message = deprecated, !message.isEmpty { schema["x-eventgen-deprecated"] = .string(message) }
    return schema
  }
}
