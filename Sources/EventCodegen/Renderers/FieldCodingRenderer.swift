import EventSchema

/// Renders what records and events share: stored properties, the memberwise initializer, and the
/// `Codable` and `userInfo` coding of their fields, one regular line per field.
struct FieldCodingRenderer {
  let fields: [Field]
  let access: String

  /// `public var amount: Decimal` for each field.
  ///
  /// A deprecated field is stored privately as `_name` behind a deprecated computed property,
  /// so that generated coding reads the storage and compiles without deprecation warnings while
  /// user code that touches the property is warned.
  var properties: [Declaration] {
    fields.flatMap { field -> [Declaration] in
      var doc = Swift.doc(field.doc)
      if field.wireKey != field.name {
        if !doc.isEmpty { doc.append("") }
        doc.append("Wire key: `\(field.wireKey)`.")
      }
      let name = Swift.identifier(field.name)
      guard let message = field.deprecated else {
        return [.property(PropertyDecl(doc: doc, modifiers: access, name: name, type: "\(field.type)"))]
      }
      return [
        .property(PropertyDecl(modifiers: "private ", name: Self.storage(field), type: "\(field.type)")),
        .property(
          PropertyDecl(
            doc: doc, attributes: [Availability.deprecated(message)], modifiers: access, name: name, type: "\(field.type)",
            getter: [
              .line("get { \(Self.storage(field)) }"),
              .line("set { \(Self.storage(field)) = newValue }"),
            ])),
      ]
    }
  }

  /// The stored property behind a field, as generated code refers to it: `self.amount`.
  static func storage(_ field: Field) -> String {
    field.deprecated == nil ? Swift.member(field.name) : "_\(field.name)"
  }

  /// The memberwise initializer; fields with defaults get default arguments.
  func memberwiseInitializer(doc: String, deprecated: String?) -> Declaration {
    let parameters = fields.map { field -> String in
      var parameter = "\(Swift.identifier(field.name)): \(field.type)"
      if let value = field.defaultValue {
        parameter += " = \(ValueSpelling.expression(value, of: field.type))"
      } else if field.type.isOptional {
        parameter += " = nil"
      }
      return parameter
    }
    let signature =
      parameters.count > 3 || parameters.joined().count > 60
      ? "\(access)init(\n  \(parameters.joined(separator: ",\n  "))\n)"
      : "\(access)init(\(parameters.joined(separator: ", ")))"
    return .function(
      FunctionDecl(
        doc: [doc], attributes: deprecated.map { [Availability.deprecated($0)] } ?? [],
        signature: signature,
        body: fields.map { .line("self.\(Self.storage($0)) = \(Swift.identifier($0.name))") }))
  }

  /// `CodingKeys`, `init(from:)`, `encode(to:)`, `init(reading:)` and `write(to:)`.
  var codingMembers: [Declaration] {
    [codingKeys, jsonDecoder, jsonEncoder, userInfoReader, userInfoWriter]
  }

  private var codingKeys: Declaration {
    .type(
      NominalDecl(
        modifiers: "private ", kind: .enum, name: "CodingKeys", conformances: fields.isEmpty ? ["CodingKey"] : ["String", "CodingKey"],
        members: fields.map { field in
          let name = Swift.identifier(field.name)
          return .enumCase(doc: [], text: field.wireKey == field.name ? "case \(name)" : "case \(name) = \(Swift.stringLiteral(field.wireKey))")
        }))
  }

  private var jsonDecoder: Declaration {
    var body: [Statement] = []
    if !fields.isEmpty {
      body.append(.line("let container = try decoder.container(keyedBy: CodingKeys.self)"))
    }
    for field in fields {
      let key = ".\(Swift.member(field.name))"
      let expression: String
      switch (field.type, field.defaultValue) {
      case (.optional(let wrapped), nil), (.optional(let wrapped), .some(DefaultValue.none)):
        expression = "try container.decodeIfPresent(\(wrapped).self, forKey: \(key))"
      case (.optional(let wrapped), let value?):
        expression = "try container.decodeIfPresent(\(wrapped).self, forKey: \(key)) ?? \(ValueSpelling.expression(value, of: field.type))"
      case (let type, let value?):
        expression = "try container.decodeIfPresent(\(type).self, forKey: \(key)) ?? \(ValueSpelling.expression(value, of: type))"
      case (let type, nil):
        expression = "try container.decode(\(type).self, forKey: \(key))"
      }
      body.append(.line("self.\(Self.storage(field)) = \(expression)"))
    }
    return .function(
      FunctionDecl(
        doc: ["Decodes from JSON or another `Decoder`; unknown keys are ignored, missing keys take their defaults."],
        signature: "\(access)init(from decoder: any Decoder) throws", body: body))
  }

  private var jsonEncoder: Declaration {
    var body: [Statement] = []
    // An event without fields is still an object in JSON: `{}`.
    body.append(.line(fields.isEmpty ? "_ = encoder.container(keyedBy: CodingKeys.self)" : "var container = encoder.container(keyedBy: CodingKeys.self)"))
    for field in fields {
      let method = field.type.isOptional ? "encodeIfPresent" : "encode"
      body.append(.line("try container.\(method)(self.\(Self.storage(field)), forKey: .\(Swift.member(field.name)))"))
    }
    return .function(
      FunctionDecl(
        doc: ["Encodes to JSON or another `Encoder`, with the schema's wire keys."],
        signature: "\(access)func encode(to encoder: any Encoder) throws", body: body))
  }

  private var userInfoReader: Declaration {
    let body: [Statement] = fields.map { field in
      let key = Swift.stringLiteral(field.wireKey)
      let expression: String
      switch (field.type, field.defaultValue) {
      case (.optional(let wrapped), nil), (.optional(let wrapped), .some(DefaultValue.none)):
        expression = "try reader.decodeIfPresent(\(wrapped).self, forKey: \(key))"
      case (.optional(let wrapped), let value?):
        expression = "try reader.decodeIfPresent(\(wrapped).self, forKey: \(key)) ?? \(ValueSpelling.expression(value, of: field.type))"
      case (let type, let value?):
        expression = "try reader.decode(\(type).self, forKey: \(key), default: \(ValueSpelling.expression(value, of: type)))"
      case (let type, nil):
        expression = "try reader.decode(\(type).self, forKey: \(key))"
      }
      return .line("self.\(Self.storage(field)) = \(expression)")
    }
    return .function(
      FunctionDecl(
        doc: ["Reads the fields from a `userInfo` dictionary; see ``UserInfoReader``."],
        signature: "\(access)init(reading reader: UserInfoReader) throws(UserInfoDecodingError)",
        body: body))
  }

  private var userInfoWriter: Declaration {
    let body: [Statement] = fields.map { field in
      let method = field.type.isOptional ? "encodeIfPresent" : "encode"
      return .line("writer.\(method)(self.\(Self.storage(field)), forKey: \(Swift.stringLiteral(field.wireKey)))")
    }
    return .function(
      FunctionDecl(
        doc: ["Writes the fields as property-list values into a `userInfo` dictionary."],
        signature: "\(access)func write(to writer: inout UserInfoWriter)",
        body: body))
  }
}

/// `@available` attributes.
enum Availability {
  static func deprecated(_ message: String) -> String {
    message.isEmpty ? "@available(*, deprecated)" : "@available(*, deprecated, message: \(Swift.stringLiteral(message)))"
  }
}
