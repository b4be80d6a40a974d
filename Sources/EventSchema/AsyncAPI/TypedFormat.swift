/// A JSON Schema string `format` that can be read as a Swift type of its own.
///
/// `format` is an annotation in JSON Schema, not an assertion: a document's own examples carry
/// `"id": "ols-activity-001"` in a field with `format: uuid`. So a string with one of these
/// formats is a `String` in Swift unless the configuration asks for the typed form
/// (`typed-formats:` in eventgen-config.yaml), or the field names its type
/// (`x-eventgen-type: UUID`). swift-openapi-generator maps these formats to `String` too. Only
/// `date-time` is always `Date`, and `format: byte` or `contentEncoding: base64` is always
/// `Data`, as there.
public enum TypedFormat: String, CaseIterable, Sendable, Hashable {
  /// `format: uuid` as `UUID`.
  case uuid
  /// `format: uri`, `uri-reference`, `iri` or `iri-reference` as `URL`.
  case uri

  /// The formats this one stands for.
  var formats: [String] {
    switch self {
    case .uuid: ["uuid"]
    case .uri: ["uri", "uri-reference", "iri", "iri-reference"]
    }
  }

  /// The Swift type of a string with this format, when asked for.
  var builtinType: BuiltinType {
    switch self {
    case .uuid: .uuid
    case .uri: .url
    }
  }

  /// The typed format `format` belongs to, if any.
  static func named(_ format: String) -> TypedFormat? {
    allCases.first { $0.formats.contains(format) }
  }
}
