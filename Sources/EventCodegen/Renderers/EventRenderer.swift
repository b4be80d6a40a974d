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
    var declarations: [Declaration] = [
      .type(
        NominalDecl(
          doc: doc, modifiers: [.nonisolated, .access(access)], kind: .struct, name: event.name,
          conformances: [.runtime("Event")],
          members: [
            .property(
              PropertyDecl(
                doc: ["The name on the wire, also the notification name."], modifiers: [.access(access), .static],
                name: "eventName", type: .swift("String"),
                getter: [.line(Code(SwiftSpelling.stringLiteral(event.wireName)))])),
            .property(
              PropertyDecl(
                doc: ["The schema version this type was generated from."], modifiers: [.access(access), .static],
                name: "eventVersion", type: .swift("Int"), getter: [.line("\(event.version)")])),
          ] + coding.properties + [
            coding.memberwiseInitializer(doc: "Creates the event.", deprecated: event.deprecated)
          ])),
      coding.codingExtension(for: event.name, initializerIsDeprecated: event.deprecated != nil),
    ]
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
