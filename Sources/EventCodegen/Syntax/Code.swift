/// A module that generated code names and may have to import. The standard library is always
/// there, so `Swift.` names need no import.
enum Module: Int, CaseIterable {
  // In the order the imports are written.
  case foundation
  case typedEvents

  var name: String {
    switch self {
    case .foundation: "Foundation"
    case .typedEvents: "TypedEvents"
    }
  }
}

/// A set of ``Module``s.
struct Modules: OptionSet, Hashable {
  let rawValue: UInt8

  init(rawValue: UInt8) {
    self.rawValue = rawValue
  }

  init(_ module: Module) {
    rawValue = 1 << module.rawValue
  }

  func contains(_ module: Module) -> Bool { contains(Modules(module)) }
}

/// A reference to a type, spelled module-qualified where the type is not the module's own
/// (`Swift.String`, `Foundation.Date`, `TypedEvents.Event`), so that a type the generating
/// module declares under the same name cannot capture it.
indirect enum TypeReference: Equatable {
  /// A standard library type: `Swift.String`.
  case swift(String)
  /// A Foundation type or a member of one: `Foundation.Date`, `Foundation.Notification.Name`.
  case foundation(String)
  /// A type of the TypedEvents runtime: `TypedEvents.Event`.
  case runtime(String)
  /// A type the generated code declares, or that the schema names: `Listing`.
  case local(String)
  /// `T?`.
  case optional(TypeReference)
  /// `[T]`.
  case array(TypeReference)
  /// `[Swift.String: T]`.
  case dictionary(TypeReference)
  /// `T<U>`.
  case generic(TypeReference, TypeReference)
  /// `any T`.
  case existential(TypeReference)
  /// `T.Type`.
  case metatype(TypeReference)

  /// The reference as Swift source.
  var spelling: String {
    switch self {
    case .swift(let name): "Swift.\(name)"
    case .foundation(let name): "Foundation.\(name)"
    case .runtime(let name): "TypedEvents.\(name)"
    case .local(let name): name
    case .optional(let wrapped): "\(wrapped.spelling)?"
    case .array(let element): "[\(element.spelling)]"
    case .dictionary(let value): "[Swift.String: \(value.spelling)]"
    case .generic(let base, let argument): "\(base.spelling)<\(argument.spelling)>"
    case .existential(let base): "any \(base.spelling)"
    case .metatype(let base): "\(base.spelling).Type"
    }
  }

  /// The modules the reference names.
  var modules: Modules {
    switch self {
    case .swift, .local: []
    case .foundation: Modules(.foundation)
    case .runtime: Modules(.typedEvents)
    case .optional(let inner), .array(let inner), .dictionary(let inner), .existential(let inner),
      .metatype(let inner):
      inner.modules
    case .generic(let base, let argument): base.modules.union(argument.modules)
    }
  }
}

/// Swift source text, and the modules it names: what ``Imports`` reads where the tree holds
/// text rather than structure (signatures, expressions, statements).
///
/// Interpolating a ``TypeReference`` or other `Code` records its modules; interpolating a
/// `String` adds text that names none (identifiers, literals, keys), so a module-qualified
/// name is written as a ``TypeReference``, never as a string.
struct Code: Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
  var text: String
  var modules: Modules

  init(_ text: String, modules: Modules = []) {
    self.text = text
    self.modules = modules
  }

  init(stringLiteral value: String) {
    self.init(value)
  }

  init(stringInterpolation: Interpolation) {
    self.init(stringInterpolation.text, modules: stringInterpolation.modules)
  }

  var description: String { text }

  /// `parts` joined by `separator`, with all their modules.
  static func joined(_ parts: [Code], separator: String = "") -> Code {
    Code(parts.map(\.text).joined(separator: separator), modules: parts.reduce(into: []) { $0.formUnion($1.modules) })
  }

  struct Interpolation: StringInterpolationProtocol {
    var text = ""
    var modules: Modules = []

    init(literalCapacity: Int, interpolationCount: Int) {
      text.reserveCapacity(literalCapacity + 16 * interpolationCount)
    }

    mutating func appendLiteral(_ literal: String) {
      text += literal
    }

    mutating func appendInterpolation(_ type: TypeReference) {
      text += type.spelling
      modules.formUnion(type.modules)
    }

    mutating func appendInterpolation(_ code: Code) {
      text += code.text
      modules.formUnion(code.modules)
    }

    /// Text that names no module: an identifier, a literal, a key.
    mutating func appendInterpolation(_ text: String) {
      self.text += text
    }

    mutating func appendInterpolation(_ number: Int) {
      text += String(number)
    }
  }
}
