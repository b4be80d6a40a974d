import EventSchema

extension ContractExporter {
  /// The OpenAPI 3.1.0 description of `TypedEventsHTTPServer`'s `EventsEndpoint` serving these
  /// events at `path`: what a partner team generates a client from.
  ///
  /// - `info`: `title` (default ``defaultTitle``), `version` (default ``defaultVersion``), and
  ///   `x-eventgen-generated`, which marks the document as generated.
  /// - **`GET`** (`readEvents`): `after`, `type` (repeatable), `subject` and `limit` in the
  ///   query, `Last-Event-ID` as a header; 200 is a page (`application/cloudevents-batch+json`,
  ///   its `Last-Event-ID` header where the next page starts) or a stream of Server-Sent Events
  ///   (`text/event-stream`), by `Accept`. **`HEAD`** (`checkEvents`) answers the same without a
  ///   body. **`POST`** (`appendEvents`) takes a structured CloudEvent
  ///   (`application/cloudevents+json`), a batch (`application/cloudevents-batch+json`), or an
  ///   event's data (`application/json`) with its attributes as `ce-` headers (the binary
  ///   mode); 201 or 200 lists each event's position.
  /// - **Every refusal the endpoint makes** is a response of `components.responses`, an RFC
  ///   9457 problem (`application/problem+json`), under its status.
  /// - **Schemas**: the payload schemas of ``ContractExporter``, but an unsigned 64-bit integer
  ///   says `format: uint64` (the OpenAPI Format Registry's, 0 to 2^64 − 1) instead of its
  ///   `maximum`, which OpenAPI tools read as a signed 64-bit integer and cannot (OpenAPIKit,
  ///   and so swift-openapi-generator, refuses the document); the CloudEvents attributes
  ///   (`CloudEvents-attributes`, as in the AsyncAPI document); `<EventName>-CloudEvent`, the
  ///   structured event of each type (its `type`, `eventversion`, `subject` and `data`);
  ///   `CloudEvent`, one of them; `Batch`, at least one of them; `StoredCloudEvent`, an event
  ///   as a page holds it (any type the store holds, the catalog's or not); `AppendAnswer`;
  ///   and `Problem`.
  /// - **Security**: a bearer token (`Authorization: Bearer …`), as the endpoint's access
  ///   policy reads it; the policy is the app's own.
  public func openAPIDocument(title: String? = nil, version: String? = nil, path: String = "/events") -> JSONValue {
    let payloads = PayloadSchemas(schema: schema, definitionsPointer: "#/components/schemas/")
    var schemas = Self.boundedByInt64(payloads.definitions)
    schemas[Self.attributesSchemaKey] = Self.sharedAttributes
    let events = schema.files.flatMap(\.events).sorted { $0.name < $1.name }
    for event in events {
      schemas[Self.cloudEventSchemaKey(event)] = cloudEventSchema(event)
    }
    schemas["CloudEvent"] = [
      "description": "A structured CloudEvent of one of the endpoint's event types.",
      "oneOf": .array(events.map { Self.reference(Self.cloudEventSchemaKey($0)) }),
    ]
    schemas["Batch"] = [
      "description": "A CloudEvents batch: at least one structured event.",
      "type": "array", "minItems": 1, "items": Self.reference("CloudEvent"),
    ]
    schemas["StoredCloudEvent"] = Self.storedCloudEvent
    schemas["AppendAnswer"] = Self.appendAnswer
    schemas["Problem"] = Self.problem
    schemas["Data"] = [
      "description": "The data of one of the endpoint's event types: the body of the binary mode.",
      "oneOf": .array(events.map { Self.reference($0.name) }),
    ]

    var responses = JSONObject()
    for (status, text) in Self.problemStatuses {
      responses["Problem\(status)"] = [
        "description": .string(text),
        "content": ["application/problem+json": ["schema": Self.reference("Problem")]],
      ]
    }
    return [
      "openapi": "3.1.0",
      "info": [
        "title": .string(title ?? defaultTitle),
        "version": .string(version ?? defaultVersion),
        "description": .string(
          "The events over HTTP, as TypedEventsHTTPServer's EventsEndpoint serves them: pages and Server-Sent "
            + "Events to read, CloudEvents in the HTTP binding's three modes to append."),
        "x-eventgen-generated": .string(generatedNote(command: "eventgen openapi")),
      ],
      "security": [["bearer": []]],
      "paths": [path: pathItem()],
      "components": [
        "schemas": .object(schemas),
        "responses": .object(responses),
        "securitySchemes": [
          "bearer": [
            "type": "http", "scheme": "bearer",
            "description":
              "The endpoint's access policy reads the token; the app decides who may read and append what.",
          ]
        ],
      ],
    ]
  }

  /// The key of an event's structured CloudEvent under `components.schemas`: its Swift name and
  /// `-CloudEvent`, which no Swift type name can be.
  static func cloudEventSchemaKey(_ event: EventDeclaration) -> String {
    event.name + "-CloudEvent"
  }

  static func reference(_ key: String) -> JSONValue {
    ["$ref": .string("#/components/schemas/\(JSONPointer.escaped(key))")]
  }

  /// The structured CloudEvent of `event`: the shared attributes, and this event's `type`,
  /// `eventversion`, `subject` (required for an event that has one: the endpoint checks it is
  /// the data's) and `data`.
  private func cloudEventSchema(_ event: EventDeclaration) -> JSONValue {
    var properties = JSONObject()
    properties["type"] = Self.typeAttribute(event)
    properties["data"] = Self.reference(event.name)
    var required: [JSONValue] = ["data"]
    if event.subject != nil {
      properties["subject"] = ["type": "string", "description": "The identity the event is about, as text."]
      required.append("subject")
    }
    var object = JSONObject()
    object["title"] = .string(event.wireName)
    if let doc = event.doc { object["description"] = .string(doc) }
    object["allOf"] = [
      Self.reference(Self.attributesSchemaKey),
      ["properties": .object(properties), "required": .array(required)],
    ]
    return .object(object)
  }

  /// The path's operations.
  private func pathItem() -> JSONValue {
    let problems = { (statuses: [Int]) -> JSONObject in
      var responses = JSONObject()
      for status in statuses {
        responses["\(status)"] = ["$ref": .string("#/components/responses/Problem\(status)")]
      }
      return responses
    }
    let readParameters: JSONValue = [
      [
        "name": "after", "in": "query", "schema": ["type": "string"],
        "description": "The position to read after: an event's id in a stream, a page's Last-Event-ID.",
      ],
      [
        "name": "type", "in": "query", "style": "form", "explode": true,
        "schema": ["type": "array", "items": ["type": "string"]],
        "description": "The wire type names to read; all when none is given.",
      ],
      [
        "name": "subject", "in": "query", "schema": ["type": "string"],
        "description": "The subject to read; a UUID matches in any case.",
      ],
      [
        "name": "limit", "in": "query", "schema": ["type": "integer", "minimum": 1],
        "description": "The most events of a page; the endpoint caps it.",
      ],
      [
        "name": "Last-Event-ID", "in": "header", "schema": ["type": "string"],
        "description": "What a reconnecting EventSource sends: the position to go on after, before `after`.",
      ],
    ]
    var read = problems([400, 401, 403, 406, 429, 503])
    read["200"] = [
      "description": "A page (application/cloudevents-batch+json) or a stream (text/event-stream), by Accept.",
      "headers": [
        "Last-Event-ID": [
          "description": "Where the next page starts (pages only).", "schema": ["type": "string"],
        ]
      ],
      "content": [
        "application/cloudevents-batch+json": [
          "schema": ["type": "array", "items": Self.reference("StoredCloudEvent")]
        ],
        "text/event-stream": [
          "schema": [
            "type": "string",
            "description":
              "Server-Sent Events: a frame per event, its `id` the position, `event` the wire type, `data` the structured CloudEvent on one line.",
          ]
        ],
      ],
    ]
    var check = problems([400, 401, 403, 406, 429, 503])
    check["200"] = ["description": "What the GET would answer, without its body."]
    var append = problems([400, 401, 403, 408, 409, 413, 415, 422, 503])
    let answer: JSONValue = [
      "description": "Each event's position, and whether it was stored before.",
      "content": ["application/json": ["schema": Self.reference("AppendAnswer")]],
    ]
    append["201"] = answer
    append["200"] = answer
    let binaryHeaders: [JSONValue] = ["specversion", "id", "source", "type", "subject", "time"].map { name in
      [
        "name": .string("ce-\(name)"), "in": "header", "schema": ["type": "string"],
        "description": .string("The binary mode's `\(name)` attribute, percent-encoded."),
      ]
    }
    return [
      "get": [
        "operationId": "readEvents", "summary": "Read events: a page, or a stream of Server-Sent Events.",
        "parameters": readParameters, "responses": .object(read),
      ],
      "head": [
        "operationId": "checkEvents", "summary": "What a GET would answer, without a body or a stream.",
        "parameters": readParameters, "responses": .object(check),
      ],
      "post": [
        "operationId": "appendEvents",
        "summary": "Append CloudEvents: each once by source and id, all checked before any is appended.",
        "parameters": .array(binaryHeaders),
        "requestBody": [
          "required": true,
          "content": [
            "application/cloudevents+json": ["schema": Self.reference("CloudEvent")],
            "application/cloudevents-batch+json": ["schema": Self.reference("Batch")],
            "application/json": ["schema": Self.reference("Data")],
          ],
        ],
        "responses": .object(append),
      ],
    ]
  }

  /// The statuses of the endpoint's problems, and what each means.
  static let problemStatuses: [(Int, String)] = [
    (400, "The request is malformed: its JSON, an attribute, a parameter or a position."),
    (401, "No principal: the token is missing or not known."),
    (403, "The principal may not read or append these events."),
    (406, "Accept names neither a page nor a stream."),
    (408, "The body did not arrive in time; the connection is closed."),
    (409, "The store refuses the events themselves."),
    (413, "The body, or the batch, is too large."),
    (415, "The body is no CloudEvent in any mode."),
    (422, "An event's type is not known, its data does not decode, or its subject is not its data's."),
    (429, "The principal holds as many streams open as it may."),
    (503, "The store cannot be reached, or the endpoint's service is not running; try again."),
  ]

  /// An event as a page holds it: any type the store holds.
  static let storedCloudEvent: JSONValue = [
    "description": "A stored event as a structured CloudEvent.",
    "allOf": [
      ["$ref": .string("#/components/schemas/\(attributesSchemaKey)")],
      ["properties": ["subject": ["type": "string"], "data": [:]]],
    ],
  ]

  static let appendAnswer: JSONValue = [
    "type": "object",
    "required": ["events"],
    "properties": [
      "events": [
        "type": "array",
        "items": [
          "type": "object",
          "required": ["id", "source", "position", "duplicate"],
          "properties": [
            "id": ["type": "string"],
            "source": ["type": "string"],
            "position": ["type": "string", "description": "The event's position: read after it with `after`."],
            "duplicate": ["type": "boolean", "description": "Whether the store held the event before."],
          ],
        ],
      ]
    ],
  ]

  /// An RFC 9457 problem, as the endpoint writes one.
  static let problem: JSONValue = [
    "type": "object",
    "required": ["type", "title", "status", "detail"],
    "properties": [
      "type": ["type": "string", "description": "`urn:typedevents:problem:` and the kind of problem."],
      "title": ["type": "string"],
      "status": ["type": "integer"],
      "detail": ["type": "string", "description": "What was refused, and where."],
      "event": ["type": "integer", "description": "In a POST, the index of the event refused."],
    ],
  ]
}

extension ContractExporter {
  /// `value` with each `maximum` beyond `Int64.max` (an unsigned 64-bit integer's) replaced by
  /// `format: uint64`, at any depth.
  static func boundedByInt64(_ object: JSONObject) -> JSONObject {
    var result = JSONObject()
    let beyond = object["maximum"].map { value -> Bool in
      guard case .number(let number) = value else { return false }
      return Int64(number.text) == nil && UInt64(number.text) != nil
    }
    for member in object.members {
      if member.key == "maximum" && beyond == true {
        if object["type"] == nil { result["format"] = "uint64" }
        continue
      }
      result[member.key] = boundedByInt64(member.value)
      if member.key == "type" && beyond == true { result["format"] = "uint64" }
    }
    return result
  }

  static func boundedByInt64(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let object): .object(boundedByInt64(object))
    case .array(let elements): .array(elements.map(boundedByInt64))
    default: value
    }
  }
}
