/// A node of a YAML document, with the position where it starts.
///
/// The composer builds these from libyaml's events; everything after it works on nodes only.
public struct YAMLNode: Sendable {
  /// What a node holds.
  public enum Content: Sendable {
    /// A scalar: its text and how it was written.
    case scalar(YAMLScalar)
    /// A sequence, block (`- a`) or flow (`[a, b]`).
    case sequence([YAMLNode], flow: Bool)
    /// A mapping, with its pairs in the order written (duplicates kept; the decoder reports them).
    case mapping([YAMLPair])
  }

  /// The node's content.
  public var content: Content
  /// Where the node starts.
  public var location: SourceLocation

  /// Creates a node.
  public init(_ content: Content, at location: SourceLocation) {
    self.content = content
    self.location = location
  }

  /// A short name of the node's kind, for messages: "a mapping", "a sequence", "a string".
  public var kindDescription: String {
    switch content {
    case .scalar(let scalar): return scalar.isNull ? "null" : "a scalar"
    case .sequence: return "a sequence"
    case .mapping: return "a mapping"
    }
  }
}

/// A key and its value in a YAML mapping.
public struct YAMLPair: Sendable {
  /// The key node.
  public var key: YAMLNode
  /// The value node.
  public var value: YAMLNode
}

/// A YAML scalar: its text and its style.
public struct YAMLScalar: Sendable, Hashable {
  /// How a scalar was written; it decides whether `123` is a number or text.
  public enum Style: Sendable, Hashable {
    /// Unquoted.
    case plain
    /// `'…'`.
    case singleQuoted
    /// `"…"`.
    case doubleQuoted
    /// `|` block.
    case literal
    /// `>` block.
    case folded
  }

  /// The text after YAML's unquoting and unescaping.
  public var value: String
  /// How the text was written.
  public var style: Style

  /// Creates a scalar.
  public init(_ value: String, style: Style) {
    self.value = value
    self.style = style
  }

  /// Whether this is YAML's null: an unquoted `~`, `null`, `Null`, `NULL` or nothing.
  public var isNull: Bool {
    // A switch rather than `[…].contains`: no array to build per call in a debug build, which the
    // build-tool plugin runs.
    guard style == .plain else { return false }
    switch value {
    case "", "~", "null", "Null", "NULL": return true
    default: return false
    }
  }

  /// How many characters precede the text on its first line: 1 for a quoted scalar.
  var contentOffset: Int {
    switch style {
    case .singleQuoted, .doubleQuoted: return 1
    case .plain, .literal, .folded: return 0
    }
  }
}
