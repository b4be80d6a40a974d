import CYAML

/// Builds a ``YAMLNode`` tree from libyaml's event stream, keeping every node's position.
///
/// It never recurses, so deep input cannot overflow the stack, and it stops at
/// ``maximumDepth``. Aliases are refused rather than expanded, which rules out alias bombs;
/// anchors are refused with them, since an anchor is only useful to an alias.
public struct YAMLComposer {
  /// The deepest nesting of sequences and mappings a schema may use.
  public static let maximumDepth = 64

  /// The result of composing one file: its root node, or the errors that stopped it.
  public enum Result: Sendable {
    /// The file holds one document with this root node.
    case document(YAMLNode)
    /// The file could not be read as YAML.
    case failure([Diagnostic])
  }

  private let path: String

  /// Creates a composer for the file at `path` (used in locations only).
  public init(path: String) {
    self.path = path
  }

  /// A sequence or mapping being built. A struct mutated in place on the stack, so appending
  /// stays amortised O(1) (an enum payload would be copied on every append).
  private struct Frame {
    var start: SourceLocation
    var isMapping: Bool
    var flow = false
    var items: [YAMLNode] = []
    var pairs: [YAMLPair] = []
    var key: YAMLNode?
  }

  /// Parses `bytes` (UTF-8, or UTF-16 with a byte-order mark) into one document.
  public func compose(_ bytes: [UInt8]) -> Result {
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
      return .failure([Diagnostic(.error, at: location(line: 1, column: 1), "the schema file is empty")])
    }
    let path = path
    if let root = bytes.withUnsafeBufferPointer({
      JSONComposer.compose($0, path: path, maximumDepth: Self.maximumDepth)
    }) {
      return .document(root)
    }
    return composeYAML(bytes)
  }

  /// Parses `bytes` with libyaml, whatever they hold.
  func composeYAML(_ bytes: [UInt8]) -> Result {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else {
      return .failure([Diagnostic(.error, at: location(line: 1, column: 1), "could not start the YAML parser")])
    }
    defer { yaml_parser_delete(&parser) }
    return bytes.withUnsafeBufferPointer { buffer in
      // libyaml reads the buffer lazily: it must stay valid for the whole parse.
      yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
      return run(&parser, bytes: buffer)
    }
  }

  private func run(_ parser: inout yaml_parser_t, bytes: UnsafeBufferPointer<UInt8>) -> Result {
    var stack: [Frame] = []
    var root: YAMLNode?
    var documents = 0
    while true {
      var event = yaml_event_t()
      guard yaml_parser_parse(&parser, &event) == 1 else {
        return .failure([parserError(parser, bytes: bytes)])
      }
      defer { yaml_event_delete(&event) }
      let start = location(event.start_mark)
      var completed: YAMLNode?
      switch event.type {
      case YAML_STREAM_END_EVENT:
        guard let root else {
          return .failure([Diagnostic(.error, at: start, "the schema file is empty")])
        }
        return .document(root)
      case YAML_DOCUMENT_START_EVENT:
        documents += 1
        if documents > 1 {
          return .failure([Diagnostic(.error, at: start, "a schema file holds one YAML document; found a second one")])
        }
      case YAML_ALIAS_EVENT:
        return .failure([
          Diagnostic(.error, at: start, "aliases (`*name`) are not supported in event schemas; write the value out")
        ])
      case YAML_SCALAR_EVENT:
        let data = event.data.scalar
        if data.anchor != nil { return .failure([anchorError(at: start)]) }
        let text = string(data.value, length: data.length)
        completed = YAMLNode(.scalar(YAMLScalar(text, style: style(data.style))), at: start)
      case YAML_SEQUENCE_START_EVENT:
        if event.data.sequence_start.anchor != nil { return .failure([anchorError(at: start)]) }
        if let failure = depthCheck(stack.count, at: start) { return failure }
        let flow = event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
        stack.append(Frame(start: start, isMapping: false, flow: flow))
      case YAML_MAPPING_START_EVENT:
        if event.data.mapping_start.anchor != nil { return .failure([anchorError(at: start)]) }
        if let failure = depthCheck(stack.count, at: start) { return failure }
        stack.append(Frame(start: start, isMapping: true))
      case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
        if let frame = stack.popLast() {
          completed = YAMLNode(
            frame.isMapping ? .mapping(frame.pairs) : .sequence(frame.items, flow: frame.flow), at: frame.start)
        }
      default:
        break  // Stream start, document end and no-op events carry nothing for the tree.
      }
      if let node = completed {
        attach(node, to: &stack, root: &root)
      }
    }
  }

  private func attach(_ node: YAMLNode, to stack: inout [Frame], root: inout YAMLNode?) {
    guard !stack.isEmpty else {
      root = node
      return
    }
    let top = stack.count - 1
    if !stack[top].isMapping {
      stack[top].items.append(node)
    } else if let key = stack[top].key {
      stack[top].pairs.append(YAMLPair(key: key, value: node))
      stack[top].key = nil
    } else {
      stack[top].key = node
    }
  }

  private func depthCheck(_ depth: Int, at location: SourceLocation) -> Result? {
    guard depth >= Self.maximumDepth else { return nil }
    return .failure([
      Diagnostic(
        .error, at: location, "nesting is deeper than \(Self.maximumDepth) levels; a schema never needs that much")
    ])
  }

  private func anchorError(at location: SourceLocation) -> Diagnostic {
    Diagnostic(.error, at: location, "anchors (`&name`) are not supported in event schemas; write the value out")
  }

  private func parserError(_ parser: yaml_parser_t, bytes: UnsafeBufferPointer<UInt8>) -> Diagnostic {
    let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
    if parser.error == YAML_READER_ERROR {
      // Reader errors carry a byte offset only; count lines and characters up to it.
      let at = position(ofByte: parser.problem_offset, in: bytes)
      if problem.contains("UTF-8") || problem.contains("UTF-16") {
        return Diagnostic(.error, at: at, "the file is not valid UTF-8 text (\(problem))")
      }
      return Diagnostic(.error, at: at, "the file cannot be read as YAML text (\(problem))")
    }
    let mark = parser.problem_mark
    let at = location(mark)
    if byte(atLine: mark.line, column: mark.column, in: bytes) == 0x09 {
      return Diagnostic(.error, at: at, "YAML does not allow tab characters here; indent with spaces")
    }
    var message = "YAML syntax error: \(problem)"
    if let context = parser.context.map({ String(cString: $0) }) {
      let contextMark = location(parser.context_mark)
      message += " \(context)"
      if contextMark != at { message += " started at \(contextMark.line):\(contextMark.column)" }
    }
    return Diagnostic(.error, at: at, message)
  }

  /// The byte at libyaml's 0-based line and column. Its `index` counts characters, not bytes,
  /// so it cannot index the buffer once a multi-byte character came before.
  private func byte(atLine line: Int, column: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UInt8? {
    var offset = 0
    var linesLeft = line
    while linesLeft > 0, offset < bytes.count {
      if bytes[offset] == 0x0A { linesLeft -= 1 }
      offset += 1
    }
    var charactersLeft = column
    while charactersLeft > 0, offset < bytes.count {
      offset += 1
      // Continuation bytes (10xxxxxx) belong to the character already counted.
      while offset < bytes.count, bytes[offset] & 0xC0 == 0x80 { offset += 1 }
      charactersLeft -= 1
    }
    return offset < bytes.count ? bytes[offset] : nil
  }

  private func position(ofByte offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> SourceLocation {
    var line = 1
    var column = 1
    for byte in bytes.prefix(offset) {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1  // Count characters, not the continuation bytes of one.
      }
    }
    return location(line: line, column: column)
  }

  private func location(_ mark: yaml_mark_t) -> SourceLocation {
    // libyaml's marks are 0-based.
    location(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
  }

  private func location(line: Int, column: Int) -> SourceLocation {
    SourceLocation(file: path, line: line, column: column)
  }

  private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?, length: Int) -> String {
    guard let pointer else { return "" }
    return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
  }

  private func style(_ style: yaml_scalar_style_t) -> YAMLScalar.Style {
    switch style {
    case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
    case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
    case YAML_LITERAL_SCALAR_STYLE: return .literal
    case YAML_FOLDED_SCALAR_STYLE: return .folded
    default: return .plain
    }
  }
}
