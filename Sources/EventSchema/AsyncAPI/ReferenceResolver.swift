/// Follows `$ref`s in AsyncAPI documents: `#/json/pointer` within the referencing file, and
/// `relative/file.yaml#/pointer` (or a whole file) resolved against the referencing file's folder.
///
/// Every node remembers its file (`location.file`), so a fragment-only reference inside a
/// referenced file resolves in that file, as JSON Reference says. Referenced files are read
/// once, through the loader's file reader, and composed by the same libyaml front end, so their
/// diagnostics carry their own `file:line:column`.
struct ReferenceResolver {
  /// The most files one run reads through references.
  static let maximumFiles = 256
  /// The longest chain of references to references.
  static let maximumChain = 64

  private let readFile: SchemaLoader.ReadFile
  /// The folder tree referenced files must be in; nil for any relative path.
  private let scope: ReferenceRoot?
  /// Root nodes by normalised path; nil for a file that could not be read or parsed (reported once).
  private var roots: [String: YAMLNode?] = [:]
  /// Targets already resolved, by the referencing file and the reference's text: a document
  /// names the same schema from many places, and walking the pointer each time was most of
  /// the reader's time.
  private var resolved: [ReferenceKey: Target] = [:]

  /// The pairs of large mappings by key (`components.schemas` of a big document), so that a
  /// pointer's step through one is a lookup, not a scan.
  private var indexes: [SourceLocation: [String: YAMLNode]] = [:]

  private struct ReferenceKey: Hashable {
    var file: String
    var reference: String
  }

  init(root: YAMLNode, path: String, readFile: @escaping SchemaLoader.ReadFile, scope: ReferenceRoot?) {
    self.readFile = readFile
    self.scope = scope
    roots[Self.normalised(path)] = root
  }

  /// A resolved reference: the node it names and an identity that is the same for every
  /// reference to that node.
  struct Target {
    var node: YAMLNode
    var identity: String
    /// The last segment of the pointer, or the file's stem for a whole-file reference: the
    /// name a declared type takes.
    var name: String
  }

  /// The `$ref` of `node`, if it is a mapping that has one.
  static func reference(of node: YAMLNode) -> YAMLNode? {
    guard case .mapping(let pairs) = node.content else { return nil }
    return pairs.first { pair in
      if case .scalar(let key) = pair.key.content { return key.value == "$ref" }
      return false
    }?.value
  }

  /// Follows `node`'s `$ref`, and the target's, until a node that is not a reference; nil
  /// (with the error logged) when one cannot be resolved or the chain is a cycle.
  mutating func resolve(_ node: YAMLNode, log: inout DiagnosticLog) -> (node: YAMLNode, target: Target?)? {
    var current = node
    var target: Target?
    var seen: [String] = []
    while let reference = Self.reference(of: current) {
      guard let next = resolveOne(reference, log: &log) else { return nil }
      if seen.contains(next.identity) || seen.count >= Self.maximumChain {
        let chain = (seen + [next.identity]).joined(separator: " → ")
        log.error("cyclic `$ref`: \(chain) never reaches a schema; one of them must define it", at: reference.location)
        return nil
      }
      seen.append(next.identity)
      target = next
      current = next.node
    }
    return (current, target)
  }

  /// Resolves one `$ref` value.
  private mutating func resolveOne(_ reference: YAMLNode, log: inout DiagnosticLog) -> Target? {
    guard case .scalar(let scalar) = reference.content, !scalar.isNull, !scalar.value.isEmpty else {
      log.error("`$ref` must be a string such as `#/components/schemas/Name`", at: reference.location)
      return nil
    }
    let text = scalar.value
    let key = ReferenceKey(file: reference.location.file, reference: text)
    if let known = resolved[key] { return known }
    guard let target = resolveUncached(text, reference, log: &log) else { return nil }
    resolved[key] = target
    return target
  }

  private mutating func resolveUncached(_ text: String, _ reference: YAMLNode, log: inout DiagnosticLog) -> Target? {
    let hash = text.firstIndex(of: "#")
    let filePart = String(text[..<(hash ?? text.endIndex)])
    let pointer = hash.map { String(text[text.index(after: $0)...]) } ?? ""
    if filePart.contains("://") {
      guard let local = scope?.localPath(of: filePart) else {
        log.error(
          "`$ref` to \(filePart) is not fetched: a build does not touch the network; save a copy in a folder of the package and map the URL's prefix to it in eventgen-config.yaml (`references: {\"\(Self.prefix(of: filePart))\": vendor/schemas}`), or refer to the copy by a relative path",
          at: reference.location)
        return nil
      }
      return resolveLocal(local, pointer: pointer, filePart: filePart, reference, log: &log)
    }
    if filePart.hasPrefix("/") {
      log.error(
        "`$ref` to the absolute path \(filePart) is not read: refer to a file by its path relative to this document",
        at: reference.location)
      return nil
    }
    let referencing = reference.location.file
    let path = filePart.isEmpty ? Self.normalised(referencing) : Self.normalised(Self.join(referencing, filePart))
    return resolveLocal(path, pointer: pointer, filePart: filePart, reference, log: &log)
  }

  /// The identity of what the `$ref` text `text` in the file `referencing` names, found without
  /// reading any file; nil for a URL that no mapping reads from a local copy.
  func identity(of text: String, from referencing: String) -> String? {
    let hash = text.firstIndex(of: "#")
    let filePart = String(text[..<(hash ?? text.endIndex)])
    let pointer = hash.map { String(text[text.index(after: $0)...]) } ?? ""
    let path: String
    if filePart.contains("://") {
      guard let local = scope?.localPath(of: filePart) else { return nil }
      path = local
    } else {
      path = filePart.isEmpty ? Self.normalised(referencing) : Self.normalised(Self.join(referencing, filePart))
    }
    return path + "#" + pointer
  }

  /// The URL's prefix that a mapping would name: its scheme, host and folders.
  static func prefix(of url: String) -> String {
    guard let slash = url.lastIndex(of: "/") else { return url }
    return String(url[...slash])
  }

  /// Whether a remote `url` is read from a local copy.
  func isMapped(_ url: String) -> Bool {
    scope?.localPath(of: url) != nil
  }

  /// Resolves `pointer` in the file at `path`, which must be inside the root.
  private mutating func resolveLocal(
    _ path: String, pointer: String, filePart: String, _ reference: YAMLNode, log: inout DiagnosticLog
  ) -> Target? {
    let text = filePart + (pointer.isEmpty ? "" : "#" + pointer)
    if !filePart.isEmpty, let scope, !scope.contains(path) {
      log.error(
        "`$ref` to \(filePart) leaves \(scope.path), the folder whose files eventgen reads; move the file into it, or give --root a folder that holds both",
        at: reference.location)
      return nil
    }
    guard let root = root(of: path, for: reference, log: &log) else { return nil }
    guard let node = walk(root, pointer: pointer) else {
      let file = filePart.isEmpty ? "this file" : path
      log.error(
        "`$ref` \(text) names nothing: \(file) has no `\(pointer.isEmpty ? "/" : pointer)`", at: reference.location)
      return nil
    }
    let stem = path.split(separator: "/").last.map { String($0.prefix { $0 != "." }) } ?? path
    let name = pointer.split(separator: "/").last.map { Self.unescaped(String($0)) } ?? stem
    return Target(node: node, identity: path + "#" + pointer, name: name)
  }

  private mutating func root(of path: String, for reference: YAMLNode, log: inout DiagnosticLog) -> YAMLNode? {
    if let known = roots[path] { return known }
    guard roots.count < Self.maximumFiles else {
      log.error(
        "more than \(Self.maximumFiles) files are referenced; eventgen stops reading there", at: reference.location)
      return nil
    }
    let bytes: [UInt8]
    do {
      bytes = try readFile(path)
    } catch {
      log.error("`$ref` names a file that cannot be read: \(error)", at: reference.location)
      roots[path] = .some(nil)
      return nil
    }
    switch YAMLComposer(path: path).compose(bytes) {
    case .document(let root):
      roots[path] = root
      return root
    case .failure(let diagnostics):
      log.append(contentsOf: diagnostics)
      roots[path] = .some(nil)
      return nil
    }
  }

  /// The node at a JSON pointer (`/a/b/0`, `~1` for `/`, `~0` for `~`, percent-escapes decoded).
  mutating func walk(_ root: YAMLNode, pointer: String) -> YAMLNode? {
    var node = root
    for rawSegment in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
      let segment = Self.unescaped(String(rawSegment))
      switch node.content {
      case .mapping(let pairs) where pairs.count > 16:
        guard let value = index(of: node, pairs)[segment] else { return nil }
        node = value
      case .mapping(let pairs):
        guard
          let pair = pairs.first(where: { pair in
            if case .scalar(let key) = pair.key.content { return key.value == segment }
            return false
          })
        else { return nil }
        node = pair.value
      case .sequence(let items, _):
        guard let index = Int(segment), items.indices.contains(index) else { return nil }
        node = items[index]
      case .scalar:
        return nil
      }
    }
    // `#` alone, or a pointer that does not start with `/`, names the root only when empty.
    if !pointer.isEmpty && !pointer.hasPrefix("/") { return nil }
    return node
  }

  /// A large mapping's values by key; the first of duplicate keys wins, as in a scan.
  private mutating func index(of node: YAMLNode, _ pairs: [YAMLPair]) -> [String: YAMLNode] {
    if let known = indexes[node.location] { return known }
    var index: [String: YAMLNode] = [:]
    for pair in pairs {
      if case .scalar(let key) = pair.key.content, index[key.value] == nil { index[key.value] = pair.value }
    }
    indexes[node.location] = index
    return index
  }

  static func unescaped(_ segment: String) -> String {
    guard segment.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "~") }) else { return segment }
    var bytes: [UInt8] = []
    var utf8 = Array(segment.utf8)[...]
    while let byte = utf8.popFirst() {
      if byte == UInt8(ascii: "%"), utf8.count >= 2,
        let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
      {
        bytes.append(value)
        utf8 = utf8.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return JSONPointer.unescaped(String(decoding: bytes, as: UTF8.self))
  }

  /// `relative` against the folder of the file at `referencing`.
  static func join(_ referencing: String, _ relative: String) -> String {
    if relative.hasPrefix("/") { return relative }
    guard let slash = referencing.lastIndex(of: "/") else { return relative }
    return String(referencing[...slash]) + relative
  }

  /// `a/./b/../c` → `a/c`, lexically; leading `..` stay.
  static func normalised(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      if part == "." { continue }
      if part == "..", let last = parts.last, last != ".." {
        parts.removeLast()
        continue
      }
      parts.append(part)
    }
    return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
  }
}
