import EventSchema

extension ContractExporter {
  /// The AsyncAPI 3.0.0 document of the schema set.
  ///
  /// - `info`: `title` (default ``defaultTitle``) and `version` (default ``defaultVersion``);
  ///   `x-eventgen-generated` marks the document as generated and names its schema files.
  ///   `defaultContentType` is `application/json`.
  /// - **A channel per schema file**, keyed by its namespace (a file without one by its file
  ///   stem): one file is one namespace, the unit the schema format versions, documents and
  ///   qualifies wire names with, and so the natural topic of a broker. `address` is that key,
  ///   `title` the namespace, `description` the file's `doc`, `messages` a `$ref` per event to
  ///   `#/components/messages/<EventName>`. What an importer needs to write the same file
  ///   back: `x-eventgen-namespace` (`null` without one), `x-eventgen-version`,
  ///   `x-eventgen-file` (the stem), `x-eventgen-types` (the types it declares, in order),
  ///   `x-eventgen-groups` (`{Group: {description, cases: {caseName: EventName}}}`) and
  ///   `x-eventgen-external`; the last three only when not empty.
  /// - **Two operations per channel**, `send<Key>` and `receive<Key>`, each referring to the
  ///   channel and to its messages as `#/channels/<Key>/messages/<EventName>`, as AsyncAPI 3
  ///   requires.
  /// - **A message per event** under `components.messages`, keyed by Swift name: `name` (the
  ///   wire name, `Listings.ListingSold`), `title` (the Swift name), `summary` (the first
  ///   sentence of `doc`) and `description` (all of it), `contentType`, `headers` (the
  ///   CloudEvents 1.0 attributes as they travel: `specversion` `1.0`, `id`, `source`, `type`
  ///   the wire name, `time`, `datacontenttype`, `subject` for events with one, and the
  ///   `eventversion` extension; an `allOf` of the attributes all events share, written once as
  ///   `#/components/schemas/CloudEvents-attributes`, and this event's `type` (a `const`;
  ///   for an event known by several types, their `enum`, or the `pattern` with the wire name
  ///   as its example), `eventversion` and `subject`), `payload` (a `$ref` to `#/components/schemas/<EventName>`),
  ///   `deprecated` and `x-eventgen-deprecated`, `x-eventgen-version`, and
  ///   `x-eventgen-subject` (the dotted path as written, `listing.id`), and
  ///   `x-eventgen-replay-per-subject` (the number of subjects whose latest event a bus keeps).
  /// - **Payload schemas** under `components.schemas`, one per event, declared type and
  ///   external type, as ``ContractExporter`` describes.
  public func asyncAPIDocument(title: String? = nil, version: String? = nil) -> JSONValue {
    let channels = ChannelNaming.channels(of: schema)
    var channelObjects = JSONObject()
    var operations = JSONObject()
    var messages = JSONObject()
    for channel in channels {
      channelObjects[channel.key] = channelObject(channel)
      let references: [JSONValue] = channel.file.events.map { event in
        ["$ref": .string("#/channels/\(JSONPointer.escaped(channel.key))/messages/\(JSONPointer.escaped(event.name))")]
      }
      for (verb, summary) in [("send", "Publish"), ("receive", "Receive")] {
        operations[verb + channel.key] = [
          "action": .string(verb),
          "channel": ["$ref": .string("#/channels/\(JSONPointer.escaped(channel.key))")],
          "summary": .string("\(summary) the events of \(channel.title)."),
          "messages": .array(references),
        ]
      }
      for event in channel.file.events { messages[event.name] = message(event) }
    }
    let payloads = PayloadSchemas(schema: schema, definitionsPointer: "#/components/schemas/")
    var schemas = payloads.definitions
    schemas[Self.attributesSchemaKey] = Self.sharedAttributes
    return [
      "asyncapi": "3.0.0",
      "info": [
        "title": .string(title ?? defaultTitle),
        "version": .string(version ?? defaultVersion),
        "x-eventgen-generated": .string(generatedNote(command: "eventgen asyncapi")),
      ],
      "defaultContentType": "application/json",
      "channels": .object(channelObjects),
      "operations": .object(operations),
      "components": ["schemas": .object(schemas), "messages": .object(messages)],
    ]
  }

  private func channelObject(_ channel: Channel) -> JSONValue {
    let file = channel.file
    var object = JSONObject()
    object["address"] = .string(channel.key)
    object["title"] = .string(channel.title)
    if let doc = file.doc { object["description"] = .string(doc) }
    var messages = JSONObject()
    for event in file.events {
      messages[event.name] = ["$ref": .string("#/components/messages/\(JSONPointer.escaped(event.name))")]
    }
    object["messages"] = .object(messages)
    object["x-eventgen-namespace"] = file.namespace.map(JSONValue.string) ?? .null
    object["x-eventgen-version"] = .number(JSONNumber(file.version))
    object["x-eventgen-file"] = .string(channel.stem)
    if !file.types.isEmpty { object["x-eventgen-types"] = .array(file.types.map { .string($0.name) }) }
    if !file.groups.isEmpty {
      var groups = JSONObject()
      for group in file.groups {
        var entry = JSONObject()
        if let doc = group.doc { entry["description"] = .string(doc) }
        var cases = JSONObject()
        for groupCase in group.cases { cases[groupCase.name] = .string(groupCase.event) }
        entry["cases"] = .object(cases)
        groups[group.name] = .object(entry)
      }
      object["x-eventgen-groups"] = .object(groups)
    }
    if !file.externals.isEmpty { object["x-eventgen-external"] = .array(file.externals.map(JSONValue.string)) }
    return .object(object)
  }

  private func message(_ event: EventDeclaration) -> JSONValue {
    var message = JSONObject()
    message["name"] = .string(event.wireName)
    message["title"] = .string(event.name)
    if let doc = event.doc {
      message["summary"] = .string(Self.summary(of: doc))
      message["description"] = .string(doc)
    }
    message["contentType"] = "application/json"
    message["headers"] = headers(event)
    message["payload"] = ["$ref": .string("#/components/schemas/\(JSONPointer.escaped(event.name))")]
    if event.deprecated != nil { message["deprecated"] = true }
    if let text = event.deprecated, !text.isEmpty { message["x-eventgen-deprecated"] = .string(text) }
    message["x-eventgen-version"] = .number(JSONNumber(event.version))
    if let subject = event.subject {
      message["x-eventgen-subject"] = .string(subject.properties.joined(separator: "."))
      if let limit = event.replayPerSubject {
        message["x-eventgen-replay-per-subject"] = .number(JSONNumber(limit))
      }
    }
    return .object(message)
  }

  /// The key under `components.schemas` of the CloudEvents attributes every message shares.
  /// Swift type names, the other keys there, cannot hold a `-`, so no declared type takes it.
  static let attributesSchemaKey = "CloudEvents-attributes"

  /// The CloudEvents 1.0 attributes that every event carries alike, written once and referred
  /// to by every message's `headers`, so that a document of 10,000 events is not 10,000 copies.
  static let sharedAttributes: JSONValue = {
    var properties = JSONObject()
    properties["specversion"] = ["type": "string", "const": "1.0"]
    properties["id"] = ["type": "string", "minLength": 1]
    properties["source"] = ["type": "string", "format": "uri-reference", "minLength": 1]
    properties["type"] = ["type": "string", "minLength": 1]
    properties["time"] = ["type": "string", "format": "date-time"]
    properties["datacontenttype"] = ["type": "string"]
    properties["eventversion"] = [
      "type": "integer",
      "description": "The schema version of the event, a CloudEvents extension attribute.",
    ]
    return [
      "type": "object",
      "description": "The CloudEvents 1.0 attributes as they travel (in binary mode, as headers).",
      "properties": .object(properties),
      "required": ["specversion", "id", "source", "type"],
    ]
  }()

  /// The CloudEvents 1.0 attributes of the event as they travel (in binary mode, as headers):
  /// the shared ones, narrowed to this event's `type` and `eventversion`, and `subject` for an
  /// event that has one.
  private func headers(_ event: EventDeclaration) -> JSONValue {
    var properties = JSONObject()
    properties["type"] = Self.typeAttribute(event)
    properties["eventversion"] = ["const": .number(JSONNumber(event.version))]
    if event.subject != nil {
      properties["subject"] = ["type": "string", "description": "The identity the event is about, as text."]
    }
    return [
      "allOf": [
        ["$ref": .string("#/components/schemas/" + Self.attributesSchemaKey)],
        ["properties": .object(properties)],
      ]
    ]
  }

  /// The CloudEvents `type` of `event`: its wire name (a `const`), or for an event known by
  /// several types their `enum`, or the `pattern` with the wire name as its example.
  static func typeAttribute(_ event: EventDeclaration) -> JSONValue {
    switch event.acceptedWireNames {
    case nil: ["const": .string(event.wireName)]
    case .names(let names)?: ["enum": .array(names.map(JSONValue.string))]
    case .pattern(let pattern)?: ["pattern": .string(pattern), "examples": [.string(event.wireName)]]
    }
  }

  /// The first line of `doc`, up to the end of its first sentence (a period and a space).
  static func summary(of doc: String) -> String {
    let line = doc.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? doc
    guard let end = line.firstRange(of: ". ") else { return line.trimmingTrailingSpaces }
    return String(line[..<end.lowerBound]) + "."
  }
}

extension String {
  fileprivate var trimmingTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
