/// Small typed reads of YAML nodes that report what they expected and what they found.
struct NodeReader {
  var log = DiagnosticLog()

  /// The pairs of a mapping, with keys read as strings and duplicates reported.
  ///
  /// libyaml does not report duplicate keys; the first occurrence wins and each later one is an
  /// error that points at the first.
  mutating func entries(of node: YAMLNode, what: String) -> [(key: Located<String>, value: YAMLNode)]? {
    guard case .mapping(let pairs) = node.content else {
      if case .scalar(let scalar) = node.content, scalar.isNull { return [] }
      log.error("expected a mapping for \(what), found \(node.kindDescription)", at: node.location)
      return nil
    }
    var seen: [String: SourceLocation] = [:]
    var result: [(key: Located<String>, value: YAMLNode)] = []
    for pair in pairs {
      guard let key = string(pair.key, what: "a key") else { continue }
      if let first = seen[key] {
        log.error("duplicate key `\(key)` (first at line \(first.line), column \(first.column))", at: pair.key.location)
        continue
      }
      seen[key] = pair.key.location
      result.append((Located(value: key, location: pair.key.location), pair.value))
    }
    return result
  }

  /// The pairs of a mapping whose keys must come from `allowed`; unknown keys are reported with a hint.
  mutating func fields(
    of node: YAMLNode, what: String, allowed: [String]
  ) -> [String: (key: Located<String>, value: YAMLNode)]? {
    guard let entries = entries(of: node, what: what) else { return nil }
    var result: [String: (key: Located<String>, value: YAMLNode)] = [:]
    for entry in entries {
      guard allowed.contains(entry.key.value) else {
        let hint =
          Suggestions.closest(to: entry.key.value, among: allowed)
          .map { "; did you mean `\($0)`?" } ?? "; expected one of: \(allowed.joined(separator: ", "))"
        log.error("unknown key `\(entry.key.value)` in \(what)\(hint)", at: entry.key.location)
        continue
      }
      result[entry.key.value] = entry
    }
    return result
  }

  /// The items of a sequence.
  mutating func items(of node: YAMLNode, what: String) -> [YAMLNode]? {
    guard case .sequence(let items, _) = node.content else {
      log.error("expected a sequence for \(what), found \(node.kindDescription)", at: node.location)
      return nil
    }
    return items
  }

  /// The text of a non-null scalar.
  mutating func string(_ node: YAMLNode, what: String) -> String? {
    guard case .scalar(let scalar) = node.content, !scalar.isNull else {
      log.error("expected a string for \(what), found \(node.kindDescription)", at: node.location)
      return nil
    }
    return scalar.value
  }

  /// A located string.
  mutating func located(_ node: YAMLNode, what: String) -> Located<String>? {
    string(node, what: what).map { Located(value: $0, location: node.location) }
  }

  /// An unquoted `true` or `false`.
  mutating func bool(_ node: YAMLNode, what: String) -> Bool? {
    if case .scalar(let scalar) = node.content, scalar.style == .plain {
      switch scalar.value {
      case "true", "True", "TRUE": return true
      case "false", "False", "FALSE": return false
      default: break
      }
    }
    log.error("expected `true` or `false` for \(what)", at: node.location)
    return nil
  }

  /// An unquoted integer.
  mutating func integer(_ node: YAMLNode, what: String) -> Int? {
    if case .scalar(let scalar) = node.content, scalar.style == .plain, let value = Int(scalar.value) {
      return value
    }
    log.error("expected an integer for \(what)", at: node.location)
    return nil
  }

  /// A `deprecated:` value: a message, or `true` for none. `false` means not deprecated.
  mutating func deprecation(_ node: YAMLNode?) -> String? {
    guard let node else { return nil }
    if case .scalar(let scalar) = node.content, scalar.style == .plain {
      if ["true", "True", "TRUE"].contains(scalar.value) { return "" }
      if ["false", "False", "FALSE"].contains(scalar.value) { return nil }
    }
    return string(node, what: "`deprecated` (a message, or `true`)")
  }

  /// A `doc:` value.
  mutating func doc(_ node: YAMLNode?) -> String? {
    guard let node else { return nil }
    return string(node, what: "`doc`")
  }

  /// A `default:` value, kept as written until its field's type is known.
  func literal(_ node: YAMLNode) -> Located<Literal> {
    // Iterative in spirit: the composer already bounds the depth of any node tree.
    switch node.content {
    case .scalar(let scalar):
      let value: Literal = scalar.isNull ? .null : .scalar(scalar.value, plain: scalar.style == .plain)
      return Located(value: value, location: node.location)
    case .sequence(let items, _):
      return Located(value: .sequence(items.map(literal)), location: node.location)
    case .mapping(let pairs):
      let entries = pairs.map { pair -> (key: Located<String?>, value: Located<Literal>) in
        // A key that is not a scalar (nil here) fits no dictionary type; the checker reports it.
        var key: String?
        if case .scalar(let scalar) = pair.key.content { key = scalar.value }
        return (Located(value: key, location: pair.key.location), literal(pair.value))
      }
      return Located(value: .mapping(entries), location: node.location)
    }
  }
}
