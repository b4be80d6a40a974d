/// Reads type expressions: `String`, `Money?`, `[Tag]`, `[String: [Int]?]`.
///
/// A type reaches the parser either as text (`"[String]"`, `Money?`) or, when written bare in
/// YAML, as nodes: `[String]` is a flow sequence of one item and `[String: Int]` a sequence
/// holding a one-pair mapping. Both spellings give the same expression with exact positions.
enum TypeExpressionParser {
  /// Reads the type written at `node`, or reports why it is not one.
  static func parse(_ node: YAMLNode, log: inout DiagnosticLog) -> TypeExpression? {
    switch node.content {
    case .scalar(let scalar):
      guard !scalar.isNull else {
        log.error("expected a type, found null", at: node.location)
        return nil
      }
      return parse(text: scalar.value, at: node.location.advanced(by: scalar.contentOffset), log: &log)
    case .sequence(let items, _):
      guard items.count == 1, let item = items.first else {
        log.error(
          "an array type holds exactly one element type, as in `[String]`; found \(items.count)", at: node.location)
        return nil
      }
      if case .mapping(let pairs) = item.content {
        guard pairs.count == 1, let pair = pairs.first else {
          log.error("a dictionary type has one key and one value type, as in `[String: Int]`", at: item.location)
          return nil
        }
        guard let key = parse(pair.key, log: &log), let value = parse(pair.value, log: &log) else { return nil }
        return .dictionary(key: key, value: value, node.location)
      }
      return parse(item, log: &log).map { .array($0, node.location) }
    case .mapping:
      log.error("expected a type, found a mapping", at: node.location)
      return nil
    }
  }

  /// Reads a type from text whose first character is at `location`.
  static func parse(text: String, at location: SourceLocation, log: inout DiagnosticLog) -> TypeExpression? {
    simpleName(text, at: location) ?? scan(text: text, at: location, log: &log)
  }

  /// Reads a type from text by the general scanner, character by character.
  static func scan(text: String, at location: SourceLocation, log: inout DiagnosticLog) -> TypeExpression? {
    var scanner = Scanner(characters: Array(text), origin: location)
    do {
      let expression = try scanner.type()
      scanner.skipSpaces()
      if let extra = scanner.peek {
        throw ScanError(message: "unexpected `\(extra)` after the type", offset: scanner.index)
      }
      return expression
    } catch let error as ScanError {
      log.error(error.message, at: location.advanced(by: error.offset))
      return nil
    } catch {
      return nil  // Scanner throws ScanError only.
    }
  }

  /// Most fields are a plain ASCII name, perhaps optional (`String`, `Money?`): read without
  /// splitting the text into `Character`s, a tenth of a generator run at 1,000 events
  /// (callgrind). The scanner reads the same text to the same expression.
  private static func simpleName(_ text: String, at location: SourceLocation) -> TypeExpression? {
    let bytes = text.utf8
    let nameEnd =
      bytes.firstIndex { byte in
        !(UInt8(ascii: "a")...UInt8(ascii: "z") ~= byte || UInt8(ascii: "A")...UInt8(ascii: "Z") ~= byte
          || UInt8(ascii: "0")...UInt8(ascii: "9") ~= byte || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "."))
      } ?? bytes.endIndex
    guard nameEnd != bytes.startIndex, bytes[nameEnd...].allSatisfy({ $0 == UInt8(ascii: "?") }) else { return nil }
    var result = TypeExpression.named(Located(value: String(text[..<nameEnd]), location: location))
    for _ in bytes[nameEnd...] { result = .optional(result, location) }
    return result
  }

  private struct ScanError: Error {
    var message: String
    var offset: Int
  }

  private struct Scanner {
    let characters: [Character]
    let origin: SourceLocation
    var index = 0
    var depth = 0

    init(characters: [Character], origin: SourceLocation) {
      self.characters = characters
      self.origin = origin
    }

    var peek: Character? { index < characters.count ? characters[index] : nil }

    mutating func skipSpaces() {
      while peek == " " { index += 1 }
    }

    mutating func type() throws -> TypeExpression {
      skipSpaces()
      let start = origin.advanced(by: index)
      depth += 1
      defer { depth -= 1 }
      guard depth <= YAMLComposer.maximumDepth else {
        throw ScanError(message: "the type is nested too deeply", offset: index)
      }
      var result: TypeExpression
      if peek == "[" {
        index += 1
        let first = try type()
        skipSpaces()
        if peek == ":" {
          index += 1
          let value = try type()
          result = .dictionary(key: first, value: value, start)
        } else {
          result = .array(first, start)
        }
        skipSpaces()
        guard peek == "]" else {
          throw ScanError(
            message: peek.map { "expected `]`, found `\($0)`" } ?? "expected `]` to close the type", offset: index)
        }
        index += 1
      } else {
        let nameStart = index
        while let character = peek, character.isLetter || character.isNumber || character == "_" || character == "." {
          index += 1
        }
        guard index > nameStart else {
          let found = peek.map { "`\($0)`" } ?? "nothing"
          throw ScanError(message: "expected a type name, found \(found)", offset: index)
        }
        let name = String(characters[nameStart..<index])
        result = .named(Located(value: name, location: start))
      }
      skipSpaces()
      while peek == "?" {
        result = .optional(result, start)
        index += 1
        skipSpaces()
      }
      return result
    }
  }
}
