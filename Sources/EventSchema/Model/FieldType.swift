/// The resolved type of a field: a built-in, a declared or external type, or a composition.
public indirect enum FieldType: Hashable, Sendable, CustomStringConvertible {
  /// A type every schema knows, such as `String` or `Date`.
  case builtin(BuiltinType)
  /// A type declared under `types:` in some file of the run, or listed under `external:`.
  case named(String, NamedTypeKind)
  /// `T?`: the value may be absent.
  case optional(FieldType)
  /// `[T]`.
  case array(FieldType)
  /// `[String: T]`: keys are always strings.
  case dictionary(FieldType)

  /// The type as written in Swift, such as `[String: Money]?`.
  public var description: String {
    switch self {
    case .builtin(let builtin): return builtin.swiftName
    case .named(let name, _): return name
    case .optional(let wrapped): return "\(wrapped)?"
    case .array(let element): return "[\(element)]"
    case .dictionary(let value): return "[String: \(value)]"
    }
  }

  /// Whether the value may be absent.
  public var isOptional: Bool {
    if case .optional = self { return true }
    return false
  }

  /// The type without its outer optional: `Int` for `Int?`, the type itself otherwise.
  public var nonOptional: FieldType {
    if case .optional(let wrapped) = self { return wrapped }
    return self
  }
}

/// What a named field type refers to.
public enum NamedTypeKind: Hashable, Sendable {
  /// A `wraps:` strong identifier over a built-in.
  case wrapper(BuiltinType)
  /// An `enum:` of string raw values.
  case enumeration
  /// A `fields:` value type.
  case record
  /// A type of the user's own, listed under `external:`.
  case external
  /// A choice between types: an enum with a case per member.
  case choice
}
