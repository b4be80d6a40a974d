import EventSchema

/// Spelling schema names and values as Swift source.
enum SwiftSpelling {
  /// `name`, in backticks when it is a keyword.
  static func identifier(_ name: String) -> String {
    SwiftNames.keywords.contains(name) ? "`\(name)`" : name
  }

  /// `name` as an argument label in a call: there only `inout` needs backticks, and any other
  /// keyword in backticks draws a warning.
  static func argumentLabel(_ name: String) -> String {
    name == "inout" ? "`inout`" : name
  }

  /// A field type as a reference: every name from the standard library or Foundation
  /// module-qualified (`Swift.String`, `Foundation.Date`), so that a type the module declares
  /// under the same name cannot capture it. Schema types are the module's own and stay bare.
  static func type(_ type: FieldType) -> TypeReference {
    switch type {
    case .builtin(let builtin): self.builtin(builtin)
    case .named(let name, _): .local(name)
    case .optional(let wrapped): .optional(self.type(wrapped))
    case .array(let element): .array(self.type(element))
    case .dictionary(let value): .dictionary(self.type(value))
    }
  }

  /// `Swift.Int64`, `Foundation.Decimal`.
  static func builtin(_ type: BuiltinType) -> TypeReference {
    switch type {
    case .decimal, .date, .uuid, .url, .data: .foundation(type.swiftName)
    case .json: .runtime(type.swiftName)
    default: .swift(type.swiftName)
    }
  }

  /// `name` after a dot, as in `self.name` or `.name`.
  static func member(_ name: String) -> String {
    identifier(name)
  }

  /// A string literal whose value is exactly `text`: quotes, backslashes, `\(`, control
  /// characters and line breaks are escaped; other Unicode is kept as is.
  static func stringLiteral(_ text: String) -> String {
    // Most names and keys are plain printable ASCII: nothing to escape.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
      return "\"\(text)\""
    }
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\0": result += "\\0"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
          || scalar.properties.generalCategory == .lineSeparator
          || scalar.properties.generalCategory == .paragraphSeparator
        {
          result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }

  /// Doc comment lines for `text`, split at line breaks.
  static func doc(_ text: String?) -> [String] {
    guard let text, !text.isEmpty else { return [] }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }
}
