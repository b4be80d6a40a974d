import EventCodegen
import EventSchema
import Foundation

/// A per-target `eventgen-config.yaml`: options for the plugins and the CLI.
///
/// ```yaml
/// access: internal           # public (default), package or internal
/// notification-message: main-actor  # events conform to Foundation's typed notifications: main-actor or async
/// schemas: [../../Schemas]   # where the schemas are, relative to this file (CLI and command plugin)
/// output: Generated          # where generated files go, relative to this file (CLI and command plugin)
/// references:                # AsyncAPI `$ref`s to these URL prefixes read local copies instead
///   "https://example.com/schemas/": vendor/schemas   # relative to this file, inside the root
/// typed-formats: [uuid, uri] # AsyncAPI strings with these formats are UUID and URL, not String
/// names:                     # Swift names for AsyncAPI messages and schemas, by their `$ref`
///   "#/components/schemas/Audio": AudioClip
/// ```
/// Unknown keys are errors, located like schema errors.
public struct GeneratorConfig: Sendable, Equatable {
  /// The name the plugins look for in a target's folder.
  public static let fileName = "eventgen-config.yaml"
  static let keys = ["access", "notification-message", "schemas", "output", "references", "typed-formats", "names"]

  /// The access level of generated declarations.
  public var accessLevel: AccessLevel?
  /// Foundation's typed notification protocol that events conform to.
  public var notificationMessage: NotificationMessage?
  /// Schema files or folders, resolved against the config file's folder.
  public var schemas: [String] = []
  /// The output folder, resolved against the config file's folder.
  public var output: String?
  /// Remote URL prefixes and the local folders (resolved against the config file's folder) that
  /// AsyncAPI `$ref`s under them are read from.
  public var references: [String: String] = [:]
  /// The string formats that AsyncAPI documents' schemas are read as Swift types of their own
  /// (``TypedFormat``); by default none, and such strings are `String`s.
  public var typedFormats: Set<TypedFormat> = []
  /// Swift names for messages and schemas of the AsyncAPI documents, each by what a `$ref` from
  /// the document to it would say (``ConfiguredName``): for a contract the team cannot edit.
  public var names: [ConfiguredName] = []

  /// A config with nothing set.
  public init() {}

  /// Reads the config at `path`; a malformed config reports located diagnostics.
  public static func load(_ path: String) throws(InputError) -> (GeneratorConfig?, [Diagnostic]) {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw InputError("\(path): cannot read the config file")
    }
    let root: YAMLNode
    switch YAMLComposer(path: path).compose(Array(data)) {
    case .failure(let diagnostics): return (nil, diagnostics)
    case .document(let node): root = node
    }
    var diagnostics: [Diagnostic] = []
    func error(_ message: String, _ node: YAMLNode) {
      diagnostics.append(Diagnostic(.error, at: node.location, message))
    }
    guard case .mapping(let pairs) = root.content else {
      error("the config is a mapping with keys \(keys.joined(separator: ", "))", root)
      return (nil, diagnostics)
    }
    // Absolute first: `standardized` on a relative URL drops the leading `..` of `../../Schemas`.
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    let base = URL(fileURLWithPath: absolute).deletingLastPathComponent()
    func resolve(_ relative: String) -> String {
      relative.hasPrefix("/") ? relative : base.appendingPathComponent(relative).standardized.path
    }
    var config = GeneratorConfig()
    for pair in pairs {
      guard case .scalar(let key) = pair.key.content else {
        error("config keys are strings", pair.key)
        continue
      }
      switch key.value {
      case "access":
        guard case .scalar(let value) = pair.value.content, let level = AccessLevel(rawValue: value.value) else {
          error("`access` is one of \(AccessLevel.allCases.map(\.rawValue).joined(separator: ", "))", pair.value)
          continue
        }
        config.accessLevel = level
      case "notification-message":
        guard case .scalar(let value) = pair.value.content, let kind = NotificationMessage(rawValue: value.value) else {
          error(
            "`notification-message` is one of \(NotificationMessage.allCases.map(\.rawValue).joined(separator: ", "))",
            pair.value)
          continue
        }
        config.notificationMessage = kind
      case "schemas":
        let items: [YAMLNode]
        switch pair.value.content {
        case .sequence(let nodes, _): items = nodes
        case .scalar: items = [pair.value]
        case .mapping: items = []
        }
        for item in items {
          guard case .scalar(let value) = item.content, !value.isNull else {
            error("`schemas` lists paths of schema files or folders", item)
            continue
          }
          config.schemas.append(resolve(value.value))
        }
      case "typed-formats":
        let items: [YAMLNode]
        switch pair.value.content {
        case .sequence(let nodes, _): items = nodes
        case .scalar, .mapping: items = [pair.value]
        }
        let names = TypedFormat.allCases.map(\.rawValue)
        for item in items {
          guard case .scalar(let value) = item.content, let format = TypedFormat(rawValue: value.value) else {
            error("`typed-formats` lists string formats read as Swift types: \(names.joined(separator: ", "))", item)
            continue
          }
          config.typedFormats.insert(format)
        }
      case "references":
        guard case .mapping(let entries) = pair.value.content else {
          error(
            "`references` maps URL prefixes to folders: `\"https://example.com/schemas/\": vendor/schemas`", pair.value)
          continue
        }
        for entry in entries {
          guard case .scalar(let prefix) = entry.key.content, prefix.value.contains("://"),
            case .scalar(let folder) = entry.value.content, !folder.isNull
          else {
            error("each of `references` maps a URL prefix (with its scheme) to the path of a folder", entry.key)
            continue
          }
          config.references[prefix.value] = resolve(folder.value)
        }
      case "names":
        guard case .mapping(let entries) = pair.value.content else {
          error(
            "`names` maps what a `$ref` names to a Swift name: `\"#/components/schemas/Audio\": AudioClip`", pair.value)
          continue
        }
        for entry in entries {
          guard case .scalar(let reference) = entry.key.content, reference.value.contains("#/") else {
            error(
              "each key of `names` is written as a `$ref` from the document would be, with a JSON pointer: `#/components/schemas/Audio`",
              entry.key)
            continue
          }
          guard case .scalar(let name) = entry.value.content, !name.isNull, !name.value.isEmpty else {
            error("each of `names` gives a Swift type name, such as `AudioClip`", entry.value)
            continue
          }
          config.names.append(
            ConfiguredName(reference: reference.value, name: name.value, location: entry.value.location))
        }
      case "output":
        guard case .scalar(let value) = pair.value.content, !value.isNull else {
          error("`output` is the path of a folder", pair.value)
          continue
        }
        config.output = resolve(value.value)
      default:
        error("unknown key `\(key.value)` in \(fileName)\(Suggestions.hint(for: key.value, among: keys))", pair.key)
      }
    }
    return (diagnostics.isEmpty ? config : nil, diagnostics)
  }
}

extension GeneratorConfig {
  /// The generator options the config sets, each overridden by the one given, as on the
  /// command line: arguments win over the config's keys.
  public func generatorOptions(
    access: AccessLevel? = nil, notificationMessage: NotificationMessage? = nil
  ) -> GeneratorOptions {
    GeneratorOptions(
      accessLevel: access ?? accessLevel ?? .public,
      notificationMessage: notificationMessage ?? self.notificationMessage)
  }

  /// The inputs of a run: `given` when there are any, else the config's `schemas`.
  public func inputs(_ given: [String]) throws(InputError) -> [String] {
    let inputs = given.isEmpty ? schemas : given
    guard !inputs.isEmpty else { throw InputError("give schema files or folders, or a --config that lists `schemas`") }
    return inputs
  }

  /// The output folder of a run: `given`, else the config's `output`.
  public func output(_ given: String?) throws(InputError) -> String {
    guard let output = given ?? output else { throw InputError("give --output, or a --config that sets `output`") }
    return output
  }
}
