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
    case .choice(let choice):
      return [self.choice(type, choice, doc: doc)]
    }
  }

  /// An enum with a case per member, coded exactly as the member it holds.
  private func choice(_ type: EventSchema.TypeDeclaration, _ choice: Choice, doc: [String]) -> Declaration {
    var doc = doc
    if !doc.isEmpty { doc.append("") }
    let runtime = TypeReference.runtime("ChoiceCoding")
    let name = SwiftSpelling.stringLiteral(type.name)
    var tagKey: String?
    switch choice.selection {
    case .discriminator(let key):
      tagKey = key
      doc.append(
        "Decoded by the string under `\(key)`; a value whose `\(key)` no member has decodes as `UNRECOGNIZED`, and one without `\(key)` is the one member it matches."
      )
    case .exactlyOne: doc.append("Decoding tries every member: exactly one must match (`oneOf`).")
    case .first: doc.append("Decoding tries the members in order and takes the first that matches (`anyOf`).")
    }
    var members: [Declaration] = choice.members.map { member in
      .enumCase(doc: [], text: "case \(SwiftSpelling.identifier(member.name))(\(SwiftSpelling.type(member.type)))")
    }
    if let tagKey {
      members.append(
        .enumCase(
          doc: ["A value whose `\(tagKey)` no member of this version has, kept as JSON and written back unchanged."],
          text: "case UNRECOGNIZED(\(TypeReference.runtime("JSONValue")))"))
    }
    let tried = choice.selection == .first ? "first" : "exactlyOne"
    let candidates = choice.members.map { member -> Statement in
      .line(
        "(\(SwiftSpelling.stringLiteral(member.name)), { .\(SwiftSpelling.member(member.name))(try \(runtime).decode(\(SwiftSpelling.type(member.type)).self, from: $0)) }),"
      )
    }
    let listCandidates = choice.members.map { member -> Statement in
      .line(
        "(\(SwiftSpelling.stringLiteral(member.name)), { value throws(\(TypeReference.runtime("UserInfoDecodingError"))) in .\(SwiftSpelling.member(member.name))(try \(SwiftSpelling.type(member.type))(propertyListValue: value)) }),"
      )
    }
    let tryMembers: Statement = .block(
      "self = try \(runtime).\(tried)(decoder, choice: \(name), [", candidates, close: "])")
    let tryListMembers: Statement = .block(
      "self = try \(runtime).\(tried)(propertyList: value, choice: \(name), [", listCandidates, close: "])")
    let decodeBody: [Statement]
    let listBody: [Statement]
    if let tagKey {
      let key = SwiftSpelling.stringLiteral(tagKey)
      let tagged = choice.members.compactMap { member -> (member: Choice.Member, tag: String)? in
        member.tag.map { (member, $0) }
      }
      decodeBody = [
        .switch(
          "try \(runtime).tag(in: decoder, key: \(key))",
          tagged.map {
            (
              "case \(SwiftSpelling.stringLiteral($0.tag))?:",
              [
                .line(
                  "self = .\(SwiftSpelling.member($0.member.name))(try \(runtime).decode(\(SwiftSpelling.type($0.member.type)).self, from: decoder))"
                )
              ]
            )
          } + [
            ("case nil:", [tryMembers]),
            (
              "default:",
              [
                .line(
                  "self = .UNRECOGNIZED(try \(runtime).decode(\(TypeReference.runtime("JSONValue")).self, from: decoder))"
                )
              ]
            ),
          ])
      ]
      listBody = [
        .switch(
          "\(runtime).tag(inPropertyList: value, key: \(key))",
          tagged.map {
            (
              "case \(SwiftSpelling.stringLiteral($0.tag))?:",
              [
                .line(
                  "self = .\(SwiftSpelling.member($0.member.name))(try \(SwiftSpelling.type($0.member.type))(propertyListValue: value))"
                )
              ]
            )
          } + [
            // A string is the JSON text that `UNRECOGNIZED` writes into `userInfo`.
            (
              "case nil where value is \(TypeReference.swift("String")):",
              [.line("self = .UNRECOGNIZED(try \(runtime).unrecognized(propertyList: value))")]
            ),
            ("case nil:", [tryListMembers]),
            ("default:", [.line("self = .UNRECOGNIZED(try \(runtime).unrecognized(propertyList: value))")]),
          ])
      ]
    } else {
      decodeBody = [tryMembers]
      listBody = [tryListMembers]
    }
    var allCases = choice.members.map { (label: SwiftSpelling.member($0.name), type: SwiftSpelling.type($0.type)) }
    if tagKey != nil { allCases.append(("UNRECOGNIZED", TypeReference.runtime("JSONValue"))) }
    members.append(
      .function(
        FunctionDecl(
          doc: ["Decodes the member the JSON is."], modifiers: [.access(access)],
          signature: "init(from decoder: any \(TypeReference.swift("Decoder"))) throws", body: decodeBody)))
    members.append(
      .function(
        FunctionDecl(
          doc: ["Encodes the member it holds, exactly as that member encodes."], modifiers: [.access(access)],
          signature: "func encode(to encoder: any \(TypeReference.swift("Encoder"))) throws",
          body: [
            .switch(
              "self",
              allCases.map { ("case .\($0.label)(let value):", [.line("try \(runtime).encode(value, to: encoder)")]) })
          ])))
    members.append(
      .property(
        PropertyDecl(
          doc: ["The property-list form of the member it holds."], modifiers: [.access(access)],
          name: "propertyListValue", type: .local("Any"),
          getter: [
            .switch(
              "self", allCases.map { ("case .\($0.label)(let value):", [.line("return value.propertyListValue")]) })
          ])))
    members.append(
      .function(
        FunctionDecl(
          doc: ["Reads the member a property-list value is."], modifiers: [.access(access)],
          signature:
            "init(propertyListValue value: Any) throws(\(TypeReference.runtime("UserInfoDecodingError")))",
          body: listBody)))
    if choice.isIndirect {
      doc.append("")
      doc.append("Indirect: a member contains this choice.")
    }
    return .type(
      NominalDecl(
        doc: doc, modifiers: [.nonisolated, .access(access)] + (choice.isIndirect ? [.indirect] : []), kind: .enum,
        name: type.name, conformances: [.runtime("SchemaChoice")], members: members))
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
    doc.append("Open: a raw value this version does not know decodes as `UNRECOGNIZED` and is written back unchanged.")
    var members: [Declaration] = cases.map { .enumCase(doc: [], text: "case \(SwiftSpelling.identifier($0.name))") }
    members.append(
      .enumCase(
        doc: ["A raw value this version of the schema does not know, kept as is."],
        text: "case UNRECOGNIZED(\(TypeReference.swift("String")))"))
    members.append(
      .function(
        FunctionDecl(
          doc: ["The case for `rawValue`, or `UNRECOGNIZED(rawValue)`."],
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
                + [("default:", [.line("self = .UNRECOGNIZED(rawValue)")])])
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
                + [("case .UNRECOGNIZED(let rawValue):", [.line("return rawValue")])])
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
