import EventSchema

/// Renders validated schemas as Swift source. It reads the ``SchemaSet`` model only, never YAML,
/// and its output depends on nothing but the model and the options: same input, same bytes.
public struct SwiftSourceRenderer: Sendable {
  /// The options of this generator.
  public var options: GeneratorOptions

  /// Creates a generator.
  public init(options: GeneratorOptions = GeneratorOptions()) {
    self.options = options
  }

  private var access: AccessLevel { options.accessLevel }

  /// The Swift source for one schema file of a run: its types, events, groups and filter
  /// helpers, and the list of its event types that the run's catalog joins.
  ///
  /// - Parameters:
  ///   - file: the schema file, one of `run`'s.
  ///   - run: every schema of the run, which name their lists of event types apart.
  ///   - holdsCatalog: whether this file also holds the run's catalog (`GeneratedEvents`). The
  ///     driver puts it in the first schema's file, so that file names stay derived from schema
  ///     paths alone.
  public func render(_ file: SchemaFile, of run: SchemaSet, holdsCatalog: Bool = false) -> String {
    render(file, of: run, tables: CatalogRenderer.tableNames(run), holdsCatalog: holdsCatalog)
  }

  /// The Swift source for every schema file of a run, in the run's order; the first file also
  /// holds the catalog. Names the schemas' lists of event types once for the whole run.
  public func render(_ run: SchemaSet) -> [String] {
    let tables = CatalogRenderer.tableNames(run)
    return run.files.enumerated().map { index, file in
      render(file, of: run, tables: tables, holdsCatalog: index == 0)
    }
  }

  private func render(_ file: SchemaFile, of run: SchemaSet, tables: [String: String], holdsCatalog: Bool) -> String {
    var declarations: [Declaration] = [versionCheck]
    let types = TypeRenderer(access: access)
    let events = EventRenderer(access: access)
    let groups = GroupRenderer(access: access)
    declarations += file.types.flatMap(types.render)
    declarations += file.events.flatMap(events.render)
    declarations += file.groups.flatMap(groups.render)
    let subjected =
      file.events.compactMap { event in
        event.subject.map {
          FilterHelperRenderer.Subjected(
            typeName: event.name, subjectType: $0.type, fallbackLabel: $0.properties.last ?? "subject",
            isGroup: false)
        }
      }
      + file.groups.compactMap { group in
        group.subjectType.map {
          FilterHelperRenderer.Subjected(
            typeName: group.name, subjectType: $0, fallbackLabel: "subject", isGroup: true)
        }
      }
    declarations += FilterHelperRenderer(access: access).render(subjected)
    if let message = options.notificationMessage {
      declarations += NotificationMessageRenderer(access: access, message: message).render(file.events)
    }
    // Type declarations first, then their extensions: a rule that needs no bookkeeping.
    var extensions = declarations.filter(Self.isExtension)
    let catalog = CatalogRenderer(access: access)
    if let table = tables[file.path] {
      extensions.append(catalog.renderTable(named: table, of: file))
    }
    if holdsCatalog { extensions += catalog.render(run, tables: tables) }
    let ordered = declarations.filter { !Self.isExtension($0) } + extensions
    var fileHeader = header(for: file.path)
    if holdsCatalog {
      let names = run.files.map { SchemaFileNames.fileName(of: $0.path) }.joined(separator: ", ")
      fileHeader.insert("It also holds GeneratedEvents, the catalog of the run: \(names).", at: 1)
    }
    return SwiftPrinter.print(
      SwiftFile(header: fileHeader, imports: Imports(access: access).lines(for: ordered), declarations: ordered)
    )
  }

  /// Extensions, and conditional blocks of them, follow the type declarations.
  private static func isExtension(_ declaration: Declaration) -> Bool {
    switch declaration {
    case .extension, .conditional: return true
    default: return false
    }
  }

  private func header(for schema: String) -> [String] {
    [
      "\(GeneratedFileMarker.text)\(SchemaFileNames.fileName(of: schema)). Do not edit: change the schema and generate again.",
      "swift-format-ignore-file",
      "swiftlint:disable all",
    ]
  }

  /// The version of the generated code's contract with the runtime: generated files conform a
  /// private type to `TypedEvents.GeneratedCodeVersion_<this>`, which only a runtime that
  /// matches declares.
  public static let generatedCodeVersion = 2

  private var versionCheck: Declaration {
    .line(
      """
      // A compile error here means this file was generated for another version of the TypedEvents
      // runtime: generate it again with the eventgen that matches the runtime.
      fileprivate struct _TypedEventsRuntimeVersionCheck: \(TypeReference.runtime("GeneratedCodeVersion_\(Self.generatedCodeVersion)")) {}
      """)
  }
}
