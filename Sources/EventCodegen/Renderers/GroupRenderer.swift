import EventSchema

/// Renders a group: an enum with a case per event, its member table, and its shared subject.
struct GroupRenderer {
  let access: AccessLevel

  func render(_ group: GroupDeclaration) -> [Declaration] {
    var doc = SwiftSpelling.doc(group.doc)
    if !doc.isEmpty { doc.append("") }
    doc.append("Subscribing to the group delivers each of its events; publishing a case publishes its event.")
    let cases = group.cases.map { ($0, SwiftSpelling.identifier($0.name), SwiftSpelling.member($0.name)) }
    var members: [Declaration] = cases.map { .enumCase(doc: [], text: "case \($0.1)(\($0.0.event))") }
    let member = TypeReference.runtime("EventGroupMember")
    members.append(
      .property(
        PropertyDecl(
          doc: ["Each member event type and the case that wraps it."], modifiers: [.access(access), .static],
          keyword: .let,
          name: "members", type: .array(.generic(member, .local(group.name))),
          initializer:
            "[\n\(Code.joined(cases.map { "  \(member)(\($0.0.event).self) { .\($0.2)($0) }," }, separator: "\n"))\n]"))
    )
    members.append(
      .property(
        PropertyDecl(
          doc: ["The event this value holds."], modifiers: [.access(access)], name: "event",
          type: .existential(.runtime("Event")),
          getter: [.switch("self", cases.map { ("case .\($0.2)(let event):", [.line("return event")]) })])))
    var declarations: [Declaration] = [
      .type(
        NominalDecl(
          doc: doc, modifiers: [.nonisolated, .access(access)], kind: .enum, name: group.name,
          conformances: [.runtime("EventGroup")],
          members: members))
    ]
    if let subject = group.subjectType {
      declarations.append(
        .extension(
          ExtensionDecl(
            type: .local(group.name), conformances: [.runtime("SubjectIdentifiable")],
            members: [
              .property(
                PropertyDecl(
                  doc: ["What the event is about; all events of the group share it."], modifiers: [.access(access)],
                  name: "eventSubject", type: SwiftSpelling.type(subject),
                  getter: [
                    .switch("self", cases.map { ("case .\($0.2)(let event):", [.line("return event.eventSubject")]) })
                  ]))
            ])))
    }
    return declarations
  }
}
