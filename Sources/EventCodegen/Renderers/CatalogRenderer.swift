import EventSchema

/// Renders the run's catalog: a table of every event type, so that envelopes and notifications
/// decode by wire name. A table, not a `switch`, keeps its cost flat as events are added.
///
/// Each schema's file lists its own event types (`GeneratedEvents.ordersEvents`), and the
/// catalog, in the first schema's file, joins those lists by name. The catalog then names no
/// event type: editing an event recompiles its own schema's file only, not also the file that
/// holds the catalog (which would otherwise depend on every event of the run).
struct CatalogRenderer {
  let access: AccessLevel

  /// The name of each schema's list of event types, by schema path. Schemas without events have
  /// none.
  static func tableNames(_ run: SchemaSet) -> [String: String] {
    // A list inside `GeneratedEvents` of a type's name would capture `Name.self` in the lists.
    let declared = run.files.flatMap { file in
      file.types.map(\.name) + file.events.map(\.name) + file.groups.map(\.name) + file.externals
    }
    return tableNames(forSchemasAt: run.files.filter { !$0.events.isEmpty }.map(\.path), avoiding: Set(declared))
  }

  /// The names of the lists of event types of the schemas at `paths`, in run order: a file name
  /// in lower camel case with `Events` (`Orders.events.yaml` → `ordersEvents`), numbered from 2
  /// when an earlier schema or a name in `avoiding` took it.
  static func tableNames(forSchemasAt paths: [String], avoiding: Set<String> = []) -> [String: String] {
    var names: [String: String] = [:]
    var taken = avoiding
    for path in paths {
      let base = tableName(forSchemaAt: path)
      var name = base
      var suffix = 2
      while taken.contains(name) {
        name = "\(base)\(suffix)"
        suffix += 1
      }
      taken.insert(name)
      names[path] = name
    }
    return names
  }

  private static func tableName(forSchemaAt path: String) -> String {
    let words = SchemaFileNames.stem(of: path).split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init)
    var name = words.enumerated().map { index, word in
      index == 0 ? word.prefix(1).lowercased() + word.dropFirst() : word.prefix(1).uppercased() + word.dropFirst()
    }.joined()
    if words.last?.lowercased() != "events" { name += words.isEmpty ? "schemaEvents" : "Events" }
    if name.first?.isLetter != true { name = "schema" + name.prefix(1).uppercased() + name.dropFirst() }
    return name
  }

  /// `GeneratedEvents.<name>`: the event types of one schema, in the schema's own file.
  func renderTable(named name: String, of file: SchemaFile) -> Declaration {
    let names = file.events.map { "  \($0.name).self," }
    let fileName = SchemaFileNames.fileName(of: file.path)
    return .extension(
      ExtensionDecl(
        type: .local("GeneratedEvents"),
        members: [
          .property(
            PropertyDecl(
              doc: ["The event types of `\(fileName)`, for ``catalog``."], modifiers: [.static], keyword: .let,
              name: name, type: .array(.metatype(.existential(.runtime("Event")))),
              initializer: Code("[\n" + names.joined(separator: "\n") + "\n]")))
        ]))
  }

  /// The `GeneratedEvents` enum and its catalog, which joins the schemas' lists (`tables`, from
  /// ``tableNames(_:)``).
  func render(_ run: SchemaSet, tables: [String: String]) -> [Declaration] {
    let lists = run.files.compactMap { tables[$0.path] }.map { "Self.\($0)" }
    let catalog = TypeReference.runtime("EventCatalog")
    let table: Code
    switch lists.count {
    case 0: table = "\(catalog)([])"
    case 1: table = "\(catalog)(\(lists[0]))"
    default:
      table =
        "\(catalog)(\n  \(TypeReference.swift("Array"))(\n    [\n\(lists.map { "      \($0)," }.joined(separator: "\n"))\n    ].joined()\n  )\n)"
    }
    return [
      .type(
        NominalDecl(
          doc: ["The events generated from this module's schemas."], modifiers: [.nonisolated, .access(access)],
          kind: .enum,
          name: "GeneratedEvents",
          members: [
            .property(
              PropertyDecl(
                doc: ["Every generated event type by wire name, to decode envelopes and notifications by name."],
                modifiers: [.access(access), .static], keyword: .let, name: "catalog", type: catalog, initializer: table
              ))
          ]))
    ]
  }
}
