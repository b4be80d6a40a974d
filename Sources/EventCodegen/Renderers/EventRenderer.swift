import EventSchema

/// Renders an event: its struct, its wire name and version, its coding, and its subject.
struct EventRenderer {
  let access: AccessLevel

  func render(_ event: EventDeclaration) -> [Declaration] {
    var doc = SwiftSpelling.doc(event.doc)
    if !doc.isEmpty { doc.append("") }
    doc.append("Wire name `\(event.wireName)`, version \(event.version).")
    if let message = event.deprecated {
      doc.append("")
      doc.append(message.isEmpty ? "Deprecated: publishing it is deprecated." : "Deprecated: \(message)")
    }
    let coding = FieldCodingRenderer(fields: event.fields, access: access, isMutable: false)
    let identity: [Declaration] =
      [
        .property(
          PropertyDecl(
            doc: ["The name on the wire, also the notification name."], modifiers: [.access(access), .static],
            name: "eventName", type: .swift("String"),
            getter: [.line(Code(SwiftSpelling.stringLiteral(event.wireName)))])),
        .property(
          PropertyDecl(
            doc: ["The schema version this type was generated from."], modifiers: [.access(access), .static],
            name: "eventVersion", type: .swift("Int"), getter: [.line("\(event.version)")])),
      ] + acceptedNames(event) + binaryIdentity(event)
    let payload = event.fields.first { $0.isWholePayload }
    var declarations: [Declaration] = [
      .type(
        NominalDecl(
          doc: doc, modifiers: [.nonisolated, .access(access)], kind: .struct, name: event.name,
          conformances: [.runtime(event.binaryContentType == nil ? "Event" : "BinaryEvent")],
          members: identity + coding.properties + [
            coding.memberwiseInitializer(doc: "Creates the event.", deprecated: event.deprecated)
          ])),
      payload.map { wholePayloadCoding(event.name, $0) }
        ?? coding.codingExtension(for: event.name, initializerIsDeprecated: event.deprecated != nil),
    ]
    if event.binaryContentType != nil, let payload { declarations.append(binaryCoding(event.name, payload)) }
    if let subject = event.subject {
      declarations.append(
        .extension(
          ExtensionDecl(
            type: .local(event.name), conformances: [.runtime("SubjectIdentifiable")],
            members: [
              .property(
                PropertyDecl(
                  doc: ["What the event is about: `\(subject.properties.joined(separator: "."))`."],
                  modifiers: [.access(access)], name: "eventSubject", type: SwiftSpelling.type(subject.type),
                  getter: [.line(Code("self." + subject.properties.map(SwiftSpelling.member).joined(separator: ".")))]))
            ] + replayMembers(event))))
    }
    return declarations
  }

  /// The coding of an event whose payload is a choice of objects: its JSON is the member's,
  /// with no key around it, and its `userInfo` holds the member's own keys. The initializers
  /// assign the property rather than call the memberwise initializer, which may be deprecated.
  private func wholePayloadCoding(_ name: String, _ payload: Field) -> Declaration {
    guard payload.wholePayloadKeysAreUserInfo else { return wholeValueCoding(name, payload) }
    let choice = SwiftSpelling.type(payload.type)
    let property = FieldCodingRenderer.storage(payload)
    return .extension(
      ExtensionDecl(
        modifiers: [.nonisolated], type: .local(name),
        members: [
          .function(
            FunctionDecl(
              doc: ["Decodes the member the JSON is: the whole payload, with no key around it."],
              modifiers: [.access(access)],
              signature: "init(from decoder: any \(TypeReference.swift("Decoder"))) throws",
              body: [.line("self.\(property) = try \(choice)(from: decoder)")])),
          .function(
            FunctionDecl(
              doc: ["Encodes the member it holds, with no key around it."],
              modifiers: [.access(access)],
              signature: "func encode(to encoder: any \(TypeReference.swift("Encoder"))) throws",
              body: [.line("try self.\(property).encode(to: encoder)")])),
          .function(
            FunctionDecl(
              doc: ["Reads the member from `userInfo`, which holds the member's own keys."],
              modifiers: [.access(access)],
              signature:
                "init(reading reader: \(TypeReference.runtime("UserInfoReader"))) throws(\(TypeReference.runtime("UserInfoDecodingError")))",
              body: [
                .line(
                  "self.\(property) = try \(TypeReference.runtime("ChoiceCoding")).wholePayload(\(choice).self, from: reader)"
                )
              ])),
          .function(
            FunctionDecl(
              doc: ["Writes the member's own keys into `userInfo`."],
              modifiers: [.access(access)],
              signature: "func write(to writer: inout \(TypeReference.runtime("UserInfoWriter")))",
              body: [.line("\(TypeReference.runtime("ChoiceCoding")).writeWholePayload(self.\(property), to: &writer)")]
            )),
        ]))
  }

  /// The coding of an event whose payload is not an object (a string, a number, an array, or a
  /// choice with such a member): its JSON is the value's, with no key around it, through a
  /// single-value container so that the coder's strategies (dates, data) apply as to a field;
  /// its `userInfo` holds the value under the field's name.
  private func wholeValueCoding(_ name: String, _ payload: Field) -> Declaration {
    let type = SwiftSpelling.type(payload.type)
    let property = FieldCodingRenderer.storage(payload)
    let key = SwiftSpelling.stringLiteral(payload.wireKey)
    let read: Code
    let write: Code
    if case .optional(let wrapped) = payload.type {
      read = "reader.decodeIfPresent(\(SwiftSpelling.type(wrapped)).self, forKey: \(key))"
      write = "writer.encodeIfPresent(self.\(property), forKey: \(key))"
    } else {
      read = "reader.decode(\(type).self, forKey: \(key))"
      write = "writer.encode(self.\(property), forKey: \(key))"
    }
    return .extension(
      ExtensionDecl(
        modifiers: [.nonisolated], type: .local(name),
        members: [
          .function(
            FunctionDecl(
              doc: ["Decodes the whole payload, with no key around it."], modifiers: [.access(access)],
              signature: "init(from decoder: any \(TypeReference.swift("Decoder"))) throws",
              body: [.line("self.\(property) = try decoder.singleValueContainer().decode(\(type).self)")])),
          .function(
            FunctionDecl(
              doc: ["Encodes the whole payload, with no key around it."], modifiers: [.access(access)],
              signature: "func encode(to encoder: any \(TypeReference.swift("Encoder"))) throws",
              body: [
                .line("var container = encoder.singleValueContainer()"),
                .line("try container.encode(self.\(property))"),
              ])),
          .function(
            FunctionDecl(
              doc: ["Reads the payload from `userInfo`, where it is under `\(payload.wireKey)`."],
              modifiers: [.access(access)],
              signature:
                "init(reading reader: \(TypeReference.runtime("UserInfoReader"))) throws(\(TypeReference.runtime("UserInfoDecodingError")))",
              body: [.line("self.\(property) = try \(read)")])),
          .function(
            FunctionDecl(
              doc: ["Writes the payload into `userInfo` under `\(payload.wireKey)`."], modifiers: [.access(access)],
              signature: "func write(to writer: inout \(TypeReference.runtime("UserInfoWriter")))",
              body: [.line(write)])),
        ]))
  }

  /// A binary event's media type, which its envelopes carry.
  private func binaryIdentity(_ event: EventDeclaration) -> [Declaration] {
    guard let type = event.binaryContentType else { return [] }
    return [
      .property(
        PropertyDecl(
          doc: ["The media type of the event's bytes, which its envelopes carry."],
          modifiers: [.access(access), .static], name: "dataContentType", type: .swift("String"),
          getter: [.line(Code(SwiftSpelling.stringLiteral(type)))]))
    ]
  }

  /// What a binary event's envelopes read and write: its bytes, which are its data, or the
  /// UTF-8 text of its value (`TypedEvents.TextPayload`) for one of a `text/*` type.
  private func binaryCoding(_ name: String, _ payload: Field) -> Declaration {
    let property = FieldCodingRenderer.storage(payload)
    let data = TypeReference.foundation("Data")
    let isBytes = payload.type == .builtin(.data)
    let text = TypeReference.runtime("TextPayload")
    return .extension(
      ExtensionDecl(
        modifiers: [.nonisolated], type: .local(name),
        members: [
          .function(
            FunctionDecl(
              doc: [isBytes ? "The event whose bytes are `bytes`." : "The event whose text `bytes` hold."],
              modifiers: [.access(access)], signature: isBytes ? "init(bytes: \(data))" : "init(bytes: \(data)) throws",
              body: [
                .line(
                  isBytes
                    ? "self.\(property) = bytes"
                    : "self.\(property) = try \(text).value(\(SwiftSpelling.type(payload.type)).self, from: bytes)")
              ])),
          .property(
            PropertyDecl(
              doc: [isBytes ? "The event's bytes: its data." : "The event's data: its value's text, as UTF-8."],
              modifiers: [.access(access)], name: "bytes", type: data,
              getter: [.line(isBytes ? "self.\(property)" : "\(text).bytes(of: self.\(property))")])),
        ]))
  }

  /// The other CloudEvents types the backend sends the event under, for the catalog.
  private func acceptedNames(_ event: EventDeclaration) -> [Declaration] {
    let doc: [String]
    let value: Code
    switch event.acceptedWireNames {
    case nil:
      return []
    case .names(let names)?:
      doc = ["Every wire name the event is known by when it comes in: the envelope's `type` allows these."]
      value = ".oneOf([\(names.map(SwiftSpelling.stringLiteral).joined(separator: ", "))])"
    case .pattern(let pattern)?:
      doc = [
        "Every wire name the event is known by when it comes in: those the envelope's `type` pattern",
        "matches. Published from Swift, it carries ``eventName`` unless the envelope names another.",
      ]
      value = ".matching(\(SwiftSpelling.stringLiteral(pattern)))"
    }
    return [
      .property(
        PropertyDecl(
          doc: doc, modifiers: [.access(access), .static], name: "acceptedEventNames",
          type: .runtime("EventNames"), getter: [.line(value)]))
    ]
  }

  /// `replay: { per-subject: N }`: every bus keeps the latest event of N subjects.
  private func replayMembers(_ event: EventDeclaration) -> [Declaration] {
    guard let limit = event.replayPerSubject else { return [] }
    return [
      .property(
        PropertyDecl(
          doc: ["Every bus keeps the latest event of up to \(limit) subjects, for replay (the schema's `replay`)."],
          modifiers: [.access(access), .static], name: "latestKeptPerSubject", type: .optional(.swift("Int")),
          getter: [.line("\(limit)")]))
    ]
  }
}
