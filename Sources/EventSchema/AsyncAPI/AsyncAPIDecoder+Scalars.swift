/// JSON Schema scalars → built-in types: formats, integer widths from bounds, `const` values.
extension AsyncAPIDecoder {
  /// The type of a `const` without `type`: what its value is.
  static func constantType(_ node: YAMLNode) -> BuiltinType {
    guard case .scalar(let scalar) = node.content, scalar.style == .plain, !scalar.isNull else { return .string }
    if scalar.value == "true" || scalar.value == "false" { return .bool }
    if Int64(scalar.value) != nil { return .int }
    if Double(scalar.value) != nil { return .double }
    return .string
  }

  /// `Date` for `date-time`, `Data` for base64 (`format: byte` or `contentEncoding: base64`),
  /// the typed form of a format in ``typedFormats``; else `String`, as `format` is an annotation
  /// (``TypedFormat``).
  func stringType(_ node: YAMLNode) -> BuiltinType {
    if field("contentEncoding", of: node).map(scalarText) == "base64" { return .data }
    switch field("format", of: node).map(scalarText) {
    case "date-time": return .date
    case "byte": return .data
    case let format?:
      guard let typed = TypedFormat.named(format), typedFormats.contains(typed) else { return .string }
      return typed.builtinType
    case nil: return .string
    }
  }

  /// `format: int32`/`int64`, else the narrowest width that holds both bounds, else `Int`.
  func integerType(_ node: YAMLNode) -> BuiltinType {
    let minimum = field("minimum", of: node).map(scalarText).flatMap { Int64($0) }
    let maximumText = field("maximum", of: node).map(scalarText)
    let maximum =
      maximumText.flatMap { UInt64($0) } ?? maximumText.flatMap { Int64($0) }.map { $0 < 0 ? 0 : UInt64($0) }
    switch field("format", of: node).map(scalarText) {
    case "int32": return .int32
    case "int64": return .int64
    default: break
    }
    guard let minimum, let maximum else { return .int }
    let candidates: [BuiltinType] =
      minimum >= 0 ? [.uint8, .uint16, .uint32, .uint64] : [.int8, .int16, .int32, .int64]
    return candidates.first { type in
      guard let bounds = type.integerBounds else { return false }
      return bounds.min <= minimum && maximum <= bounds.max
    } ?? .int
  }

  func numberType(_ node: YAMLNode) -> BuiltinType {
    switch field("format", of: node).map(scalarText) {
    case "float": return .float
    case "decimal": return .decimal
    default: return .double
    }
  }
}
