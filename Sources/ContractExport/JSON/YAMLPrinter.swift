extension JSONValue {
  /// The value as block-style YAML that YAML 1.1 and 1.2 readers (libyaml, PyYAML, SnakeYAML)
  /// read as this very JSON: two spaces per level, every string double-quoted with JSON's
  /// escapes (so no string is read as a number, a boolean or a date), keys plain only where
  /// no reader can take them for anything but a string, `{}` and `[]` for empty containers,
  /// and a newline at the end.
  public var yamlText: String {
    var output = ""
    Self.writeYAML(self, indent: 0, into: &output)
    if !output.hasSuffix("\n") { output += "\n" }
    return output
  }

  /// Writes `value` where a value starts: inline for scalars and empty containers, else on
  /// the following lines at `indent`.
  private static func writeYAML(_ value: JSONValue, indent: Int, into output: inout String) {
    switch value {
    case .object(let object) where !object.isEmpty:
      for member in object.members {
        output += String(repeating: " ", count: indent)
        writeMember(member.key, member.value, indent: indent, into: &output)
      }
    case .array(let elements) where !elements.isEmpty:
      for element in elements {
        output += String(repeating: " ", count: indent) + "-"
        writeElement(element, indent: indent, into: &output)
      }
    default:
      output += scalar(value) + "\n"
    }
  }

  /// `key: value`, the value inline or on the lines below, one level deeper.
  private static func writeMember(_ key: String, _ value: JSONValue, indent: Int, into output: inout String) {
    output += yamlKey(key) + ":"
    if isBlock(value) {
      output += "\n"
      writeYAML(value, indent: indent + 2, into: &output)
    } else {
      output += " " + scalar(value) + "\n"
    }
  }

  /// After a `-`: a scalar on the same line, an object's first member on it and the others
  /// below, aligned with it; an array on the lines below.
  private static func writeElement(_ value: JSONValue, indent: Int, into output: inout String) {
    switch value {
    case .object(let object) where !object.isEmpty:
      for (index, member) in object.members.enumerated() {
        output += index == 0 ? " " : String(repeating: " ", count: indent + 2)
        writeMember(member.key, member.value, indent: indent + 2, into: &output)
      }
    case .array(let elements) where !elements.isEmpty:
      output += "\n"
      writeYAML(value, indent: indent + 2, into: &output)
    default:
      output += " " + scalar(value) + "\n"
    }
  }

  private static func isBlock(_ value: JSONValue) -> Bool {
    switch value {
    case .object(let object): return !object.isEmpty
    case .array(let elements): return !elements.isEmpty
    default: return false
    }
  }

  private static func scalar(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .number(let number): return number.portableText
    case .string(let text):
      var quoted = ""
      writeString(text, into: &quoted)
      return quoted
    case .object: return "{}"
    case .array: return "[]"
    }
  }

  /// Words that a YAML 1.1 reader takes for booleans or null.
  private static let specialWords: Set<String> = [
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
    "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "~",
  ]

  /// A key as written: plain when it is a letter, `_` or `$` followed by letters, digits, `_`,
  /// `$`, `.` and `-`, and no special word; double-quoted otherwise.
  private static func yamlKey(_ key: String) -> String {
    let scalars = Array(key.unicodeScalars)
    func isLetter(_ scalar: Unicode.Scalar) -> Bool {
      ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar == "$"
    }
    let plain =
      !scalars.isEmpty && isLetter(scalars[0]) && !specialWords.contains(key)
      && scalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" }
    if plain { return key }
    var quoted = ""
    writeString(key, into: &quoted)
    return quoted
  }
}
