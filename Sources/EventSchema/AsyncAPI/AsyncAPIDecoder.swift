/// Decodes an AsyncAPI document (3.0.x, 3.1.x, or 2.0.x to 2.6.x, YAML or JSON) into a ``SchemaDocument``:
/// the same syntax a `.events.yaml` file decodes to, so that the validator, the generator and
/// `compat` treat both formats alike, and every diagnostic points into the AsyncAPI document.
///
/// One document becomes one schema file (and one generated Swift file, named from its path):
/// every message is an event whose wire name is the message's `name`. The mapping is the
/// table in the DocC article "Schema format", section "AsyncAPI input".
struct AsyncAPIDecoder {
  static let topLevelKeys = [
    "asyncapi", "id", "info", "servers", "defaultContentType", "channels", "operations", "components", "tags",
    "externalDocs",
  ]
  static let messageKeys = [
    "headers", "payload", "correlationId", "contentType", "name", "title", "summary", "description", "tags",
    "externalDocs", "bindings", "examples", "traits", "deprecated", "messageId", "schemaFormat",
  ]

  var reader = NodeReader()
  var resolver: ReferenceResolver
  var document: SchemaDocument
  /// The Swift name of each schema declared as a type, by the identity of its node.
  var declared: [String: String] = [:]
  /// Names of the external types, in the order met.
  var externals: [String: SourceLocation] = [:]
  /// The content type messages have unless they say otherwise.
  var defaultContentType: YAMLNode?
  /// The string formats read as Swift types of their own (``TypedFormat``).
  var typedFormats: Set<TypedFormat> = []
  /// How many schemas reached through `$ref` are being declared, each inside the one before:
  /// the depth of the decoder's recursion, which ``maximumNesting`` bounds.
  var nesting = 0
  /// The Swift names of the document's events, once messages are named: a choice payload never
  /// takes one of them.
  var eventNames: Set<String> = []
  /// Every Swift name given so far, and to whom (``NameTable``).
  var names = NameTable()
  /// The names the config gives (``ConfiguredName``), by the identity of what each names.
  var configuredNames: [String: ConfiguredName] = [:]
  /// The references of the configured names given to something of this document.
  var appliedNames: Set<String> = []
  /// The deepest nesting of schemas through `$ref` that is read: far above any real
  /// document's, and far below what exhausts ``DeepStack``'s stack in a debug build (the
  /// plugins run one), which takes tens of kilobytes a level.
  static let maximumNesting = 4_000

  /// Whether `root` is an AsyncAPI document: a mapping with an `asyncapi` key.
  static func isAsyncAPI(_ root: YAMLNode) -> Bool {
    guard case .mapping(let pairs) = root.content else { return false }
    return pairs.contains { pair in
      if case .scalar(let key) = pair.key.content { return key.value == "asyncapi" }
      return false
    }
  }

  /// Decodes `root`, read from `path`; referenced files are read with `readFile`, and only
  /// inside `scope` when there is one.
  /// The references of `configuredNames` that named something of the document come back with
  /// it, so that the caller can say which named nothing in any. `names` holds the names the
  /// run has given so far, and gets the document's.
  static func decode(
    _ root: YAMLNode, path: String, readFile: @escaping SchemaLoader.ReadFile, scope: ReferenceRoot? = nil,
    typedFormats: Set<TypedFormat> = [], configuredNames: [ConfiguredName] = [], names: inout NameTable
  ) -> (document: SchemaDocument, diagnostics: [Diagnostic], appliedNames: Set<String>) {
    var decoder = AsyncAPIDecoder(
      resolver: ReferenceResolver(root: root, path: path, readFile: readFile, scope: scope),
      document: SchemaDocument(path: path), typedFormats: typedFormats)
    decoder.names = names
    defer { names = decoder.names }
    for configured in configuredNames {
      guard let identity = decoder.resolver.identity(of: configured.reference, from: path) else { continue }
      decoder.configuredNames[identity] = configured
    }
    decoder.decodeDocument(root)
    return (decoder.document, decoder.reader.log.all, decoder.appliedNames)
  }

  // MARK: - The document

  private enum Version {
    case v2, v3
  }

  private mutating func decodeDocument(_ root: YAMLNode) {
    guard let entries = reader.entries(of: root, what: "the AsyncAPI document") else { return }
    var keys: [String: (key: Located<String>, value: YAMLNode)] = [:]
    for entry in entries {
      if entry.key.value.hasPrefix("x-") {
        keys[entry.key.value] = entry
        continue
      }
      guard Self.topLevelKeys.contains(entry.key.value) else {
        // Not read, so it cannot refuse the document: said, as it may be a misspelling.
        let hint = Suggestions.hint(for: entry.key.value, among: Self.topLevelKeys)
        reader.log.warning(
          "unknown key `\(entry.key.value)` in the AsyncAPI document is not read\(hint)", at: entry.key.location)
        continue
      }
      keys[entry.key.value] = entry
    }
    guard let versionNode = keys["asyncapi"]?.value, let version = self.version(versionNode) else { return }
    if let info = keys["info"]?.value {
      decodeInfo(info)
    }
    defaultContentType = keys["defaultContentType"]?.value

    // Messages in the order they are met: components first, then those written inline in
    // channels. A message reached twice (a channel's `$ref` to a component) is one event.
    var messages: [Message] = []
    var seen: Set<String> = []
    func add(_ key: Located<String>, _ node: YAMLNode, identity: String, channel: String? = nil, pointer: String?) {
      if seen.insert(identity).inserted {
        messages.append(Message(key: key, node: node, channel: channel, pointer: pointer))
      }
    }
    let components = keys["components"].flatMap { reader.entries(of: $0.value, what: "`components`") } ?? []
    if let componentMessages = components.first(where: { $0.key.value == "messages" }),
      let entries = reader.entries(of: componentMessages.value, what: "`components.messages`")
    {
      for entry in entries {
        add(
          entry.key, entry.value, identity: identity(of: entry.value),
          pointer: "/components/messages/" + JSONPointer.escaped(entry.key.value))
      }
    }
    var channelTypes: [YAMLNode] = []
    if let channels = keys["channels"]?.value, let entries = reader.entries(of: channels, what: "`channels`") {
      for entry in entries {
        guard let (channel, _) = resolver.resolve(entry.value, log: &reader.log) else { continue }
        readChannelExtensions(channel, types: &channelTypes)
        for (key, node) in channelMessages(channel, channelName: entry.key, version: version) {
          let pointer =
            version == .v3
            ? "/channels/\(JSONPointer.escaped(entry.key.value))/messages/\(JSONPointer.escaped(key.value))" : nil
          add(key, node, identity: identity(of: node), channel: entry.key.value, pointer: pointer)
        }
      }
    }
    nameMessages(&messages)
    for message in messages {
      if let event = event(key: message.key, message.node, name: message.name) { document.events.append(event) }
    }
    // Types the exporter listed per channel: declared even when no event uses them.
    for node in channelTypes {
      guard let items = reader.items(of: node, what: "`x-eventgen-types` (a list of schema names)") else { continue }
      for item in items {
        guard let name = reader.string(item, what: "a schema name") else { continue }
        let pointer = "#/components/schemas/" + JSONPointer.escaped(name)
        let reference = YAMLNode(
          .mapping([
            YAMLPair(
              key: YAMLNode(.scalar(YAMLScalar("$ref", style: .plain)), at: item.location),
              value: YAMLNode(.scalar(YAMLScalar(pointer, style: .plain)), at: item.location))
          ]), at: item.location)
        _ = typeExpression(reference, hint: name)
      }
    }
    document.externals = externals.sorted { $0.value < $1.value }.map { Located(value: $0.key, location: $0.value) }
  }

  /// The identity of a message: the position of the node it is, or that its reference names.
  private mutating func identity(of node: YAMLNode) -> String {
    guard ReferenceResolver.reference(of: node) != nil else { return "\(node.location)" }
    var log = DiagnosticLog()  // the event's own resolution reports the error
    return (resolver.resolve(node, log: &log)?.node.location).map { "\($0)" } ?? "\(node.location)"
  }

  private mutating func version(_ node: YAMLNode) -> Version? {
    guard let text = reader.string(node, what: "`asyncapi` (the version, such as 3.0.0)") else { return nil }
    let parts = text.split(separator: ".")
    switch (parts.first, parts.dropFirst().first) {
    case ("3", "0"), ("3", "1"): return .v3
    // 2.x versions only add to each other: what events need (channels, their publish and
    // subscribe operations, messages, components) reads the same from 2.0 to 2.6.
    case ("2", "0"), ("2", "1"), ("2", "2"), ("2", "3"), ("2", "4"), ("2", "5"), ("2", "6"): return .v2
    default:
      reader.log.error(
        "AsyncAPI \(text) is not read: eventgen reads AsyncAPI 2.0 to 2.6, 3.0 and 3.1 documents; convert this one with `asyncapi convert` of the AsyncAPI CLI",
        at: node.location)
      return nil
    }
  }

  private mutating func decodeInfo(_ node: YAMLNode) {
    // Only its description and version are read, and neither must be there.
    guard case .mapping = node.content else {
      reader.log.warning("`info` is not read: expected a mapping, found \(node.kindDescription)", at: node.location)
      return
    }
    guard let entries = reader.entries(of: node, what: "`info`") else { return }
    for entry in entries {
      switch entry.key.value {
      case "description": document.doc = documentation(entry.value, what: "`info.description`")
      case "x-eventgen-version":
        if let version = reader.integer(entry.value, what: "`x-eventgen-version`") {
          document.version = Located(value: version, location: entry.value.location)
        }
      default: break
      }
    }
  }

  /// Reads what the exporter writes on a channel: its groups, its types, its external types.
  private mutating func readChannelExtensions(_ channel: YAMLNode, types: inout [YAMLNode]) {
    guard let entries = reader.entries(of: channel, what: "a channel") else { return }
    for entry in entries {
      switch entry.key.value {
      case "x-eventgen-groups":
        for group in reader.entries(of: entry.value, what: "`x-eventgen-groups`") ?? [] {
          if let syntax = self.group(named: group.key, group.value) { document.groups.append(syntax) }
        }
      case "x-eventgen-types":
        types.append(entry.value)
      case "x-eventgen-external":
        for item in reader.items(of: entry.value, what: "`x-eventgen-external` (a list of type names)") ?? [] {
          if let name = reader.located(item, what: "an external type name"), externals[name.value] == nil {
            externals[name.value] = name.location
          }
        }
      default: break
      }
    }
  }

  private mutating func group(named name: Located<String>, _ node: YAMLNode) -> GroupSyntax? {
    guard let entries = reader.entries(of: node, what: "group `\(name.value)`") else { return nil }
    var doc: String?
    var cases: [(name: Located<String>?, event: Located<String>)] = []
    for entry in entries {
      switch entry.key.value {
      case "description": doc = reader.string(entry.value, what: "the group's `description`")
      case "cases":
        for item in reader.entries(of: entry.value, what: "the cases of group `\(name.value)`") ?? [] {
          if let event = reader.located(item.value, what: "the event of case `\(item.key.value)`") {
            cases.append((item.key, event))
          }
        }
      default:
        reader.log.error(
          "unknown key `\(entry.key.value)` in group `\(name.value)`; expected `description` or `cases`",
          at: entry.key.location)
      }
    }
    if cases.isEmpty { reader.log.error("group `\(name.value)` has no events", at: name.location) }
    return GroupSyntax(cases: cases, name: name, doc: doc)
  }

  /// The messages a channel names: 3.x `messages`, or 2.6 `publish`/`subscribe` messages.
  private mutating func channelMessages(
    _ channel: YAMLNode, channelName: Located<String>, version: Version
  ) -> [(Located<String>, YAMLNode)] {
    guard case .mapping(let pairs) = channel.content else { return [] }
    var result: [(Located<String>, YAMLNode)] = []
    for pair in pairs {
      guard case .scalar(let key) = pair.key.content else { continue }
      switch (version, key.value) {
      case (.v3, "messages"):
        for entry in reader.entries(of: pair.value, what: "the messages of channel `\(channelName.value)`") ?? [] {
          result.append((entry.key, entry.value))
        }
      case (.v2, "publish"), (.v2, "subscribe"):
        guard let operation = resolver.resolve(pair.value, log: &reader.log)?.node,
          let message = field("message", of: operation)
        else { continue }
        let alternatives = field("oneOf", of: message).flatMap { reader.items(of: $0, what: "`oneOf` messages") }
        for node in alternatives ?? [message] {
          result.append((messageKey(node, fallback: channelName), node))
        }
      default: break
      }
    }
    return result
  }

  /// The name a 2.6 operation's message goes by: its reference's last segment, its `name` or
  /// `messageId`, or the channel's.
  private mutating func messageKey(_ node: YAMLNode, fallback: Located<String>) -> Located<String> {
    if let reference = ReferenceResolver.reference(of: node), case .scalar(let text) = reference.content,
      let last = text.value.split(separator: "/").last
    {
      return Located(value: ReferenceResolver.unescaped(String(last)), location: reference.location)
    }
    for key in ["messageId", "name"] {
      if let value = field(key, of: node), case .scalar(let text) = value.content {
        return Located(value: text.value, location: value.location)
      }
    }
    return Located(value: fallback.value + "Message", location: node.location)
  }

  // MARK: - Small reads

  /// The value of `key` in a mapping node.
  func field(_ key: String, of node: YAMLNode) -> YAMLNode? {
    guard case .mapping(let pairs) = node.content else { return nil }
    return pairs.first { pair in
      if case .scalar(let scalar) = pair.key.content { return scalar.value == key }
      return false
    }?.value
  }

  /// The doc comment from a `description`, else a `summary`.
  mutating func doc(description: YAMLNode?, summary: YAMLNode? = nil) -> String? {
    if let description, let text = documentation(description, what: "`description`") { return text }
    if let summary { return documentation(summary, what: "`summary`") }
    return nil
  }

  /// A text that only documents: one that is not a string (a `$ref` to a Markdown file, a
  /// list) is a located warning and documents nothing, as no Swift depends on it.
  mutating func documentation(_ node: YAMLNode, what: String) -> String? {
    guard case .scalar(let scalar) = node.content, !scalar.isNull else {
      reader.log.warning(
        "\(what) is not read: AsyncAPI and JSON Schema make it a string, and this is \(node.kindDescription); the Swift has no documentation from it",
        at: node.location)
      return nil
    }
    return scalar.value
  }

  /// `deprecated: true`, with the exporter's message if it wrote one.
  mutating func deprecation(_ node: YAMLNode?, message: YAMLNode?) -> String? {
    guard let node, reader.bool(node, what: "`deprecated`") == true else { return nil }
    return message.flatMap { reader.string($0, what: "`x-eventgen-deprecated`") } ?? ""
  }
}
