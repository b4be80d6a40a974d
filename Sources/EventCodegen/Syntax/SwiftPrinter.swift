/// Prints ``SwiftFile``s as a person would format them: two-space indentation, one blank line
/// between declarations, none between consecutive enum cases or stored properties, and a
/// trailing newline.
struct SwiftPrinter {
  private var output = ""
  private var indentation = 0

  /// The text of `file`.
  static func print(_ file: SwiftFile) -> String {
    var printer = SwiftPrinter()
    // Generated files run to hundreds of kilobytes: grow in few steps.
    printer.output.reserveCapacity(1 << 16)
    for line in file.header { printer.emit("// \(line)".trimmingTrailingSpaces) }
    printer.emit("")
    for line in file.imports { printer.emit(line) }
    for declaration in file.declarations {
      printer.emit("")
      printer.print(declaration)
    }
    return printer.output
  }

  /// Writes `text` at the current indentation; its later lines keep their own relative indentation.
  private mutating func emit(_ text: String) {
    var text = text
    guard text.withUTF8(Self.containsNewline) else {
      emitLine(Substring(text))
      return
    }
    // Split on UTF-8 bytes: splitting Characters walks grapheme clusters, a tenth of a run.
    for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      emitLine(Substring(line))
    }
  }

  /// Whether `bytes` holds a line feed.
  private static func containsNewline(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    // A pointer loop: the plugin runs a debug eventgen, where the generic `contains` ran
    // unspecialised, a call per byte (a seventh of a debug run, callgrind).
    guard var byte = bytes.baseAddress else { return false }
    let end = byte + bytes.count
    let newline = UInt8(ascii: "\n")
    while byte < end {
      if byte.pointee == newline { return true }
      byte += 1
    }
    return false
  }

  private mutating func emitLine(_ line: Substring) {
    if !line.isEmpty {
      output += Self.indent(indentation)
      output += line
    }
    output += "\n"
  }

  /// The leading white space of each level, made once.
  private static let indents = (0..<16).map { String(repeating: "  ", count: $0) }

  private static func indent(_ level: Int) -> String {
    level < indents.count ? indents[level] : String(repeating: "  ", count: level)
  }

  private mutating func doc(_ lines: [String]) {
    for line in lines {
      emit(line.isEmpty ? "///" : "/// \(line)")
    }
  }

  private mutating func print(_ declaration: Declaration) {
    switch declaration {
    case .type(let type):
      doc(type.doc)
      type.attributes.forEach { emit($0) }
      members(
        "\(type.modifiers.spelling)\(type.kind.rawValue) \(type.name)\(Self.conformances(type.conformances)) {",
        type.members)
    case .extension(let declaration):
      doc(declaration.doc)
      declaration.attributes.forEach { emit($0) }
      let conformances = Self.conformances(declaration.conformances)
      let whereClause = declaration.sameType.map { " where \($0.parameter) == \($0.type.spelling)" } ?? ""
      members(
        "\(declaration.modifiers.spelling)extension \(declaration.type.spelling)\(conformances)\(whereClause) {",
        declaration.members)
    case .property(let property):
      doc(property.doc)
      property.attributes.forEach { emit($0) }
      let head =
        "\(property.modifiers.spelling)\(property.keyword.rawValue) \(property.name): \(property.type.spelling)"
      if let getter = property.getter {
        // A one-expression getter that fits stays on one line: `var eventName: String { "A.B" }`.
        if getter.count == 1, case .line(let expression) = getter[0], !expression.text.contains("\n"),
          head.count + expression.text.count + 6 + indentation * 2 <= 100
        {
          emit("\(head) { \(expression.text) }")
        } else {
          block(head + " {", getter)
        }
      } else {
        emit(head + (property.initializer.map { " = \($0.text)" } ?? ""))
      }
    case .function(let function):
      doc(function.doc)
      function.attributes.forEach { emit($0) }
      block(function.modifiers.spelling + function.signature.text + " {", function.body)
    case .typeAlias(let alias):
      doc(alias.doc)
      emit("\(alias.modifiers.spelling)typealias \(alias.name) = \(alias.type.spelling)")
    case .enumCase(let lines, let text):
      doc(lines)
      emit(text.text)
    case .comment(let lines):
      lines.forEach { emit("// \($0)".trimmingTrailingSpaces) }
    case .line(let code):
      emit(code.text)
    case .conditional(let condition, let declarations):
      emit("#if \(condition)")
      for (index, declaration) in declarations.enumerated() {
        if index > 0 { emit("") }
        print(declaration)
      }
      emit("#endif")
    }
  }

  /// `: A, B`, or nothing.
  private static func conformances(_ types: [TypeReference]) -> String {
    types.isEmpty ? "" : ": " + types.map(\.spelling).joined(separator: ", ")
  }

  private mutating func members(_ opening: String, _ members: [Declaration]) {
    guard !members.isEmpty else {
      emit(opening + "}")
      return
    }
    emit(opening)
    indentation += 1
    var previous: Declaration?
    for member in members {
      if let previous, !Self.staysTogether(previous, member) { emit("") }
      print(member)
      previous = member
    }
    indentation -= 1
    emit("}")
  }

  /// Enum cases and stored properties without docs form one paragraph.
  private static func staysTogether(_ first: Declaration, _ second: Declaration) -> Bool {
    switch (first, second) {
    case (.enumCase, .enumCase(let doc, _)):
      return doc.isEmpty
    case (.property(let a), .property(let b)):
      return a.getter == nil && b.getter == nil && b.doc.isEmpty && a.modifiers.spelling == b.modifiers.spelling
    default:
      return false
    }
  }

  private mutating func block(_ opening: String, _ body: [Statement]) {
    guard !body.isEmpty else {
      emit(opening + "}")
      return
    }
    emit(opening)
    indentation += 1
    body.forEach { statement($0) }
    indentation -= 1
    emit("}")
  }

  private mutating func statement(_ statement: Statement) {
    switch statement {
    case .line(let code):
      emit(code.text)
    case .block(let opening, let body, let close):
      emit(opening.text)
      indentation += 1
      body.forEach { self.statement($0) }
      indentation -= 1
      emit(close)
    case .switch(let subject, let cases):
      emit("switch \(subject.text) {")
      for (label, body) in cases {
        emit(label.text)
        indentation += 1
        body.forEach { self.statement($0) }
        indentation -= 1
      }
      emit("}")
    }
  }
}

extension String {
  fileprivate var trimmingTrailingSpaces: String {
    var copy = self
    while copy.last == " " { copy.removeLast() }
    return copy
  }
}
