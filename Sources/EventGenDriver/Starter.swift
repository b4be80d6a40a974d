import EventSchema
import Foundation

/// `eventgen init`: the files that start a target of events, and the Package.swift lines that
/// use them with the build-tool plugin.
public enum Starter {
  /// A file `init` writes.
  public struct File: Sendable, Equatable {
    /// The path, inside the target's folder.
    public var path: String
    /// The contents.
    public var contents: String
  }

  /// The files for a target in `folder`, named after the folder: a starter schema with an
  /// example of every construct, the one Swift file SwiftPM needs to build the target, and a
  /// config with the options a target may set.
  public static func files(inFolder folder: String) -> [File] {
    let name = targetName(ofFolder: folder)
    let folderURL = URL(fileURLWithPath: folder)
    return [
      File(
        path: folderURL.appendingPathComponent("\(name)\(SchemaFileNames.schemaSuffix)").path,
        contents: schema(namespace: name)),
      File(path: folderURL.appendingPathComponent("\(name).swift").path, contents: swiftFile),
      File(path: folderURL.appendingPathComponent(GeneratorConfig.fileName).path, contents: config),
    ]
  }

  /// Writes `files`, creating their folder; writes nothing if any of them exists already.
  public static func write(_ files: [File], fileManager: FileManager = .default) throws(InputError) {
    let existing = files.map(\.path).filter { fileManager.fileExists(atPath: $0) }
    guard existing.isEmpty else {
      let names = existing.map(TargetFolders.displayPath).joined(separator: ", ")
      throw InputError("not overwriting \(names); nothing was written (move them away, or init another folder)")
    }
    for file in files {
      let url = URL(fileURLWithPath: file.path)
      let folder = url.deletingLastPathComponent().path
      do {
        try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: true)
      } catch {
        throw InputError("\(folder): cannot create the folder: \(error.localizedDescription)")
      }
      try AtomicFile.store(Array(file.contents.utf8), as: url.lastPathComponent, in: folder)
    }
    // Once per folder, after its files, as AtomicFile asks: the renames survive a crash.
    for folder in Set(files.map { URL(fileURLWithPath: $0.path).deletingLastPathComponent().path }) {
      AtomicFile.syncDirectory(folder)
    }
  }

  /// The target's name: the folder's name, which SwiftPM also takes as the module's.
  public static func targetName(ofFolder folder: String) -> String {
    URL(fileURLWithPath: folder).standardizedFileURL.lastPathComponent
  }

  /// What to add to Package.swift for the target in `folder`: a dependency and a target.
  public static func packageLines(forFolder folder: String, version: String) -> (dependency: String, target: String) {
    let name = targetName(ofFolder: folder)
    return (
      #".package(url: "https://github.com/typedevents/TypedEvents", from: "\#(version)"),"#,
      """
      .target(
        name: "\(name)",
        dependencies: [.product(name: "TypedEvents", package: "TypedEvents")],
        plugins: [.plugin(name: "EventGenPlugin", package: "TypedEvents")]
      ),
      """
    )
  }

  static let swiftFile = """
    // SwiftPM builds a target, and runs its build-tool plugins, only when the target's folder
    // holds at least one Swift file: this is that file, so keep it. The events are generated at
    // build time from the *.events.yaml files beside it, by EventGenPlugin.
    import TypedEvents

    """

  static let config = """
    # Options for eventgen in this target; every key is optional.
    access: public             # the access level of generated code: public, package or internal
    # notification-message: main-actor  # events are also Foundation typed notifications: main-actor or async

    """

  static func schema(namespace: String) -> String {
    """
    # Events of \(namespace): one file is one namespace. Edit freely; `swift build` regenerates.
    # Reference: the "Schema format" article of TypedEvents' documentation.
    namespace: \(namespace)        # qualifies wire names: "\(namespace).ItemAdded"
    version: 1                 # raise it with every breaking change (`eventgen compat` checks)
    doc: Events of the \(namespace) module.

    types:
      ItemID:
        wraps: String          # a strong ID: ItemID("i-1"), Codable as its bare string
      Priority:
        enum: [low, normal, high]            # open: a value this version does not know is .UNRECOGNIZED("…")
      Unit:
        enum: { metric: m, imperial: ft }    # explicit raw values
        frozen: true                         # closed: an unknown value is an error
      Price:
        doc: An exact amount of money.
        fields:
          amount: Decimal
          currency: String

    # external: [GeoPoint]     # your own Swift types, used by name

    events:
      ItemAdded:
        doc: A user added an item.
        subject: id            # what the event is about: bus.subscribe(ItemAdded.self, about: id)
        fields:
          id: ItemID
          title: String
          priority: Priority
          price: Price?        # optional: nil is an absent key
          tags: [String]
          stock: "[String: Int]"
          addedAt: Date
          unit:
            type: Unit
            default: metric    # used when the key is missing on decode
          source:
            type: String
            doc: Where the item was added.
            default: app
            key: added_from    # the wire key (default: the field name)
      ItemRemoved:
        deprecated: Use ItemArchived.        # warns code that creates one
        subject: id
        fields:
          id: ItemID
      ItemArchived:
        subject: id
        fields:
          id: ItemID

    groups:
      ItemEvent:               # an enum with a case per event, subscribed to as a whole
        doc: Everything that happens to an item.
        events: [ItemAdded, ItemRemoved, ItemArchived]
      ItemChange:
        cases: { added: ItemAdded, archived: ItemArchived }    # explicit case names

    """
  }
}
