extension JSONValue {
  /// The value as pretty-printed JSON: two spaces per level, one member or element per line,
  /// `"key": value` with one space, `{}` and `[]` for empty containers, and a newline at the end.
  ///
  /// Strings are written as UTF-8 with only what JSON requires escaped (`"`, `\` and the
  /// control characters below U+0020), so the same value always gives the same bytes.
  public var prettyPrinted: String {
    var output = ""
    Self.write(self, depth: 0, into: &output)
    output += "\n"
    return output
  }

  private static func write(_ value: JSONValue, depth: Int, into output: inout String) {
    switch value {
    case .null: output += "null"
    case .bool(let flag): output += flag ? "true" : "false"
    case .number(let number): output += number.portableText
    case .string(let text): writeString(text, into: &output)
    case .array(let elements):
      guard !elements.isEmpty else {
        output += "[]"
        return
      }
      output += "[\n"
      for (index, element) in elements.enumerated() {
        indent(depth + 1, into: &output)
        write(element, depth: depth + 1, into: &output)
        output += index == elements.count - 1 ? "\n" : ",\n"
      }
      indent(depth, into: &output)
      output += "]"
    case .object(let object):
      guard !object.isEmpty else {
        output += "{}"
        return
      }
      output += "{\n"
      for (index, member) in object.members.enumerated() {
        indent(depth + 1, into: &output)
        writeString(member.key, into: &output)
        output += ": "
        write(member.value, depth: depth + 1, into: &output)
        output += index == object.members.count - 1 ? "\n" : ",\n"
      }
      indent(depth, into: &output)
      output += "}"
    }
  }

  private static func indent(_ depth: Int, into output: inout String) {
    output += String(repeating: "  ", count: depth)
  }

  private static let hexDigits = Array("0123456789abcdef")

  static func writeString(_ text: String, into output: inout String) {
    output += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{08}": output += "\\b"
      case "\u{0C}": output += "\\f"
      case "\u{00}"..."\u{1F}":
        let value = Int(scalar.value)
        output += "\\u00"
        output.append(hexDigits[value >> 4])
        output.append(hexDigits[value & 0xF])
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }
}
