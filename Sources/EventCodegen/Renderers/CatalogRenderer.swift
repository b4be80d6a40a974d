import EventSchema

/// Renders the run's catalog: a table of every event type, so that envelopes and notifications
/// decode by wire name. A table, not a `switch`, keeps its cost flat as events are added.
struct CatalogRenderer {
  let access: String

  func render(_ schema: SchemaSet) -> [Declaration] {
    let names = schema.allEvents.map { "  \($0.name).self," }
    let catalog = Swift.runtime("EventCatalog")
    let table = names.isEmpty ? "\(catalog)([])" : "\(catalog)([\n" + names.joined(separator: "\n") + "\n])"
    return [
      .type(
        NominalDecl(
          doc: ["The events generated from this module's schemas."], modifiers: "nonisolated \(access)", kind: .enum,
          name: "GeneratedEvents",
          members: [
            .property(
              PropertyDecl(
                doc: ["Every generated event type by wire name, to decode envelopes and notifications by name."],
                modifiers: "\(access)static ", keyword: "let", name: "catalog", type: catalog, initializer: table))
          ]))
    ]
  }
}
