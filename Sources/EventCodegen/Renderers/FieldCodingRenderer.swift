import EventSchema

/// Renders what records and events share: stored properties, the memberwise initializer, and the
/// `Codable` and `userInfo` coding of their fields, one regular line per field.
struct FieldCodingRenderer {
  let fields: [Field]
  let access: AccessLevel
  /// Whether properties are `var`: value types are, events (facts that happened) are `let`.
  var isMutable = true

  /// `public var amount: Decimal` for each field.
  ///
  /// A deprecated field is stored privately as `_name` behind a deprecated computed property,
  /// so that generated coding reads the storage and compiles without deprecation warnings while
  /// user code that touches the property is warned.
  var properties: [Declaration] {
    let keyword: PropertyDecl.Keyword = isMutable ? .var : .let
    return fields.flatMap { field -> [Declaration] in
      var doc = SwiftSpelling.doc(field.doc)
      if field.keepsOtherKeys {
        if !doc.isEmpty { doc.append("") }
        doc.append("The keys the other properties do not name, with their values, written back beside them.")
      } else if field.wireKey != field.name {
        if !doc.isEmpty { doc.append("") }
        doc.append("Wire key: `\(field.wireKey)`.")
      }
      let name = SwiftSpelling.identifier(field.name)
      if let constant = field.constant {
        // Not stored: a constant is the same in every value, so it is no initializer parameter.
        let type = field.type.nonOptional
        if !doc.isEmpty { doc.append("") }
        doc.append(
          "Always `\(ValueSpelling.expression(constant, of: type).text)`: written on encode, and checked on decode.")
        return [
          .property(
            PropertyDecl(
              doc: doc, attributes: field.deprecated.map { [Availability.deprecated($0)] } ?? [],
              modifiers: [.access(access)], name: name, type: SwiftSpelling.type(type),
              getter: [.line(ValueSpelling.expression(constant, of: type))]))
        ]
      }
      if field.deprecated == nil && !field.isIndirect {
        return [
          .property(
            PropertyDecl(
              doc: doc, modifiers: [.access(access)], keyword: keyword, name: name, type: SwiftSpelling.type(field.type)
            ))
        ]
      }
      if field.isIndirect {
        if !doc.isEmpty { doc.append("") }
        doc.append("Stored out of line: its type contains this one.")
      }
      let storageType: TypeReference =
        field.isIndirect
        ? .generic(.runtime("Indirect"), SwiftSpelling.type(field.type)) : SwiftSpelling.type(field.type)
      let read = Self.value(field)
      return [
        // Internal, not private: the coding extensions live in the other generated file.
        .property(PropertyDecl(modifiers: [], keyword: keyword, name: Self.storage(field), type: storageType)),
        .property(
          PropertyDecl(
            doc: doc, attributes: field.deprecated.map { [Availability.deprecated($0)] } ?? [],
            modifiers: [.access(access)], name: name, type: SwiftSpelling.type(field.type),
            getter: isMutable
              ? [.line("get { \(read) }"), .line("set { \(Self.stored(field, "newValue")) }")]
              : [.line(Code(read))])),
      ]
    }
  }

  /// The stored property behind a field, as generated code refers to it: `self.amount`;
  /// `_amount` behind the property of a deprecated field, or one stored out of line.
  static func storage(_ field: Field) -> String {
    field.deprecated == nil && !field.isIndirect ? SwiftSpelling.member(field.name) : "_\(field.name)"
  }

  /// The field's value, read from its storage: `amount`, or `_amount.value` out of line.
  static func value(_ field: Field) -> String {
    field.isIndirect ? storage(field) + ".value" : storage(field)
  }

  /// `self.amount = value`, storing a field out of line where it is.
  static func assignment(_ field: Field, _ value: Code) -> Code {
    "self.\(stored(field, value))"
  }

  /// `amount = value`, or `_amount = TypedEvents.Indirect(value)` out of line.
  private static func stored(_ field: Field, _ value: Code) -> Code {
    field.isIndirect
      ? "\(storage(field)) = \(TypeReference.runtime("Indirect"))(\(value))" : "\(storage(field)) = \(value)"
  }

  /// The fields stored in each value: all but the constants.
  var storedFields: [Field] { fields.filter { $0.constant == nil } }

  /// The memberwise initializer; fields with defaults get default arguments.
  func memberwiseInitializer(doc: String, deprecated: String?) -> Declaration {
    let fields = storedFields
    let parameters = fields.map { field -> Code in
      let parameter: Code = "\(SwiftSpelling.identifier(field.name)): \(SwiftSpelling.type(field.type))"
      if let value = field.defaultValue {
        return "\(parameter) = \(ValueSpelling.expression(value, of: field.type))"
      }
      if field.keepsOtherKeys { return "\(parameter) = [:]" }
      return field.type.isOptional ? "\(parameter) = nil" : parameter
    }
    let signature: Code =
      parameters.count > 3 || parameters.map(\.text).joined().count > 60
      ? "init(\n  \(Code.joined(parameters, separator: ",\n  "))\n)"
      : "init(\(Code.joined(parameters, separator: ", ")))"
    return .function(
      FunctionDecl(
        doc: [doc], attributes: deprecated.map { [Availability.deprecated($0)] } ?? [],
        modifiers: [.access(access)], signature: signature,
        body: fields.map { .line(Self.assignment($0, Code(SwiftSpelling.identifier($0.name)))) }))
  }

  /// The coding of the fields, written once: a generic reader and writer, from which the
  /// runtime's `FieldCodable` derives JSON, `userInfo`, `==`, `hash(into:)` and `hashValue`.
  ///
  /// `initializerIsDeprecated`: the memberwise initializer is deprecated, so the decoder must not
  /// call it (that would warn in every build) and assigns the fields one by one instead.
  func codingExtension(for type: String, initializerIsDeprecated: Bool) -> Declaration {
    // SPI, as the protocol is: the conformance stays out of the module's public interface.
    .extension(
      ExtensionDecl(
        modifiers: [.spiGenerated, .nonisolated], type: .local(type), conformances: [.runtime("FieldCodable")],
        members: [
          decoder(
            doc:
              "Reads the fields from JSON or `userInfo`; unknown keys are ignored, missing keys take their defaults.",
            signature:
              "init<Reader: \(TypeReference.runtime("FieldReader"))>(fields reader: Reader) throws(Reader.Failure)",
            reader: "reader", oneCall: !initializerIsDeprecated),
          encoder(
            doc: "Writes the fields, by wire key, to JSON, `userInfo` or a hasher.",
            signature:
              "func write<Writer: \(TypeReference.runtime("FieldWriter"))>(fields writer: inout Writer)",
            call: "writer"),
        ]))
  }

  /// A decoding initializer: one `reader.decode(T.self, forKey: "k")` per field, passed to the
  /// memberwise initializer in a single `try self.init(…)` when `oneCall`, else assigned.
  ///
  /// One call rather than `self.x = try …` per field: a throw between two assignments leaves
  /// `self` partly initialized, and the compiler then tracks every field's state to destroy the
  /// assigned ones, which made a clean build of 300 events about a tenth slower in debug and
  /// in release (Benchmarks/compile-cost.sh).
  private func decoder(doc: String, signature: Code, reader: String, oneCall: Bool) -> Declaration {
    let checks: [Statement] = fields.compactMap { field in
      guard let constant = field.constant else { return nil }
      // `as T`: the literal alone would infer `Int` for an `Int32`, and nothing for `.case`.
      let type = field.type.nonOptional
      return .line(
        "try \(reader).decodeConstant(\(ValueSpelling.expression(constant, of: type)) as \(SwiftSpelling.type(type)), forKey: \(SwiftSpelling.stringLiteral(field.wireKey)), required: \(field.type.isOptional ? "false" : "true"))"
      )
    }
    let knownKeys = fields.filter { !$0.keepsOtherKeys }.map { SwiftSpelling.stringLiteral($0.wireKey) }
    let values: [(field: Field, expression: Code)] = storedFields.map { field in
      if field.keepsOtherKeys, case .dictionary(let value) = field.type {
        return (
          field,
          "\(reader).decodeOtherKeys(\(SwiftSpelling.type(value)).self, excluding: [\(knownKeys.joined(separator: ", "))])"
        )
      }
      let key = SwiftSpelling.stringLiteral(field.wireKey)
      switch (field.type, field.defaultValue) {
      case (.optional(let wrapped), nil), (.optional(let wrapped), .some(DefaultValue.none)):
        return (field, "\(reader).decodeIfPresent(\(SwiftSpelling.type(wrapped)).self, forKey: \(key))")
      case (.optional(let wrapped), let value?):
        return (
          field,
          "\(reader).decodeIfPresent(\(SwiftSpelling.type(wrapped)).self, forKey: \(key)) ?? \(ValueSpelling.expression(value, of: field.type))"
        )
      case (let type, let value?):
        return (
          field,
          "\(reader).decode(\(SwiftSpelling.type(type)).self, forKey: \(key), default: \(ValueSpelling.expression(value, of: type)))"
        )
      case (let type, nil):
        return (field, "\(reader).decode(\(SwiftSpelling.type(type)).self, forKey: \(key))")
      }
    }
    var body = checks
    if values.isEmpty {
      // Nothing is stored: the constants' checks are the whole body.
    } else if oneCall {
      let arguments = values.enumerated().map { index, value in
        Statement.line(
          "\(SwiftSpelling.argumentLabel(value.field.name)): \(value.expression)\(index == values.count - 1 ? "" : ",")"
        )
      }
      body.append(.block("try self.init(", arguments, close: ")"))
    } else {
      body += values.map { .line(Self.assignment($0.field, "try \($0.expression)")) }
    }
    return .function(FunctionDecl(doc: [doc], modifiers: [.access(access)], signature: signature, body: body))
  }

  /// An encoding function: `writer.encode(self.x, forKey: "k")` per field.
  private func encoder(doc: String, signature: Code, call: String) -> Declaration {
    let body: [Statement] = fields.map { field in
      if field.keepsOtherKeys { return .line("\(call).encodeOtherKeys(self.\(Self.storage(field)))") }
      let method = field.type.isOptional && field.constant == nil ? "encodeIfPresent" : "encode"
      let value = field.constant == nil ? Self.value(field) : SwiftSpelling.member(field.name)
      return .line("\(call).\(method)(self.\(value), forKey: \(SwiftSpelling.stringLiteral(field.wireKey)))")
    }
    return .function(FunctionDecl(doc: [doc], modifiers: [.access(access)], signature: signature, body: body))
  }
}

/// `@available` attributes.
enum Availability {
  static func deprecated(_ message: String) -> String {
    message.isEmpty
      ? "@available(*, deprecated)" : "@available(*, deprecated, message: \(SwiftSpelling.stringLiteral(message)))"
  }
}
