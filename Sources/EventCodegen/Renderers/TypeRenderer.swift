import EventSchema

/// Renders the entries under `types:`: strong identifiers, enums and value types.
struct TypeRenderer {
  let access: AccessLevel

  func render(_ type: EventSchema.TypeDeclaration) -> [Declaration] {
    var doc = SwiftSpelling.doc(type.doc)
    if let message = type.deprecated {
      if !doc.isEmpty { doc.append("") }
      doc.append(message.isEmpty ? "Deprecated." : "Deprecated: \(message)")
    }
    switch type.kind {
    case .wrapper(let raw):
      return [wrapper(type, raw: raw, doc: doc)]
    case .enumeration(let cases, let frozen):
      return frozen ? [frozenEnum(type, cases: cases, doc: doc)] : [openEnum(type, cases: cases, doc: doc)]
    case .record(let fields):
      return record(type, fields: fields, doc: doc)
    }
  }

  private func wrapper(_ type: EventSchema.TypeDeclaration, raw: BuiltinType, doc: [String]) -> Declaration {
    .type(
      NominalDecl(
        doc: doc, modifiers: [.nonisolated, .access(access)], kind: .struct, name: type.name,
        conformances: [.runtime("StrongIdentifier")],
        members: [
          .property(
            PropertyDecl(
              doc: ["The wrapped value."], modifiers: [.access(access)], name: "rawValue",
              type: SwiftSpelling.builtin(raw))),
          .function(
            FunctionDecl(
              doc: ["Creates the identifier."],
              attributes: type.deprecated.map { [Availability.deprecated($0)] } ?? [],
              modifiers: [.access(access)], signature: "init(rawValue: \(SwiftSpelling.builtin(raw)))",
              body: [.line("self.rawValue = rawValue")])),
        ]))
  }

  private func frozenEnum(_ type: EventSchema.TypeDeclaration, cases: [EnumCase], doc: [String]) -> Declaration {
    var doc = doc
    if !doc.isEmpty { doc.append("") }
    doc.append("Frozen: decoding an unknown raw value is an error.")
    return .type(
      NominalDecl(
        doc: doc, modifiers: [.nonisolated, .access(access)], kind: .enum, name: type.name,
        conformances: [.swift("String"), .runtime("StringEnumeration"), .swift("CaseIterable")],
        members: cases.map { enumCase in
          let name = SwiftSpelling.identifier(enumCase.name)
          return .enumCase(
            doc: [],
            text: enumCase.rawValue == enumCase.name
              ? "case \(name)" : "case \(name) = \(SwiftSpelling.stringLiteral(enumCase.rawValue))")
        }))
  }

  private func openEnum(_ type: EventSchema.TypeDeclaration, cases: [EnumCase], doc: [String]) -> Declaration {
    var doc = doc
    if !doc.isEmpty { doc.append("") }
    doc.append("Open: a raw value this version does not know decodes as `unknown` and is written back unchanged.")
    var members: [Declaration] = cases.map { .enumCase(doc: [], text: "case \(SwiftSpelling.identifier($0.name))") }
    members.append(
      .enumCase(
        doc: ["A raw value this version of the schema does not know, kept as is."],
        text: "case unknown(\(TypeReference.swift("String")))"))
    members.append(
      .function(
        FunctionDecl(
          doc: ["The case for `rawValue`, or `unknown(rawValue)`."],
          modifiers: [.access(access)], signature: "init(rawValue: \(TypeReference.swift("String")))",
          body: [
            .switch(
              "rawValue",
              cases.map {
                (
                  "case \(SwiftSpelling.stringLiteral($0.rawValue)):",
                  [.line("self = .\(SwiftSpelling.member($0.name))")]
                )
              }
                + [("default:", [.line("self = .unknown(rawValue)")])])
          ])))
    members.append(
      .property(
        PropertyDecl(
          doc: ["The string on the wire."], modifiers: [.access(access)], name: "rawValue", type: .swift("String"),
          getter: [
            .switch(
              "self",
              cases.map {
                (
                  "case .\(SwiftSpelling.member($0.name)):",
                  [.line("return \(SwiftSpelling.stringLiteral($0.rawValue))")]
                )
              }
                + [("case .unknown(let rawValue):", [.line("return rawValue")])])
          ])))
    members.append(
      .property(
        PropertyDecl(
          doc: ["The cases this version of the schema knows."], modifiers: [.access(access), .static], keyword: .let,
          name: "knownCases", type: .array(.local(type.name)),
          initializer: Code("[" + cases.map { ".\(SwiftSpelling.member($0.name))" }.joined(separator: ", ") + "]"))))
    return .type(
      NominalDecl(
        doc: doc, modifiers: [.nonisolated, .access(access)], kind: .enum, name: type.name,
        conformances: [.runtime("StringEnumeration")],
        members: members))
  }

  private func record(_ type: EventSchema.TypeDeclaration, fields: [Field], doc: [String]) -> [Declaration] {
    let coding = FieldCodingRenderer(fields: fields, access: access)
    return [
      .type(
        NominalDecl(
          doc: doc, modifiers: [.nonisolated, .access(access)], kind: .struct, name: type.name,
          conformances: [.swift("Hashable"), .swift("Codable"), .runtime("UserInfoCodable")],
          members: coding.properties + [
            coding.memberwiseInitializer(doc: "Creates a value.", deprecated: type.deprecated)
          ])),
      coding.codingExtension(for: type.name, initializerIsDeprecated: type.deprecated != nil),
    ]
  }
}
