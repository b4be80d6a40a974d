import EventSchema

/// One run of the generator: the front end, then one renderer.
public enum Pipeline {
  /// What a run would write, or the diagnostics that stop it.
  public struct Plan: Sendable {
    /// The inputs, read and validated.
    public var inputs: LoadedSchemas
    /// The rendered files; nil when a schema has errors.
    public var files: [GeneratedFile]?

    /// The run's diagnostics, sorted.
    public var diagnostics: [Diagnostic] { inputs.diagnostics }
    /// How many events the run renders.
    public var eventCount: Int { inputs.eventCount }
  }

  /// Reads and validates the inputs that `paths` name
  /// (``FrontEnd/load(_:referenceRoot:warningsAreErrors:typedFormats:names:)``) and renders them
  /// with `renderer`, unless a schema has errors.
  public static func plan(
    _ paths: [String], renderer: some OutputRenderer, referenceRoot: ReferenceRoot = ReferenceRoot("."),
    warningsAreErrors: Bool = false, typedFormats: Set<TypedFormat> = [], names: [ConfiguredName] = []
  ) throws(InputError) -> Plan {
    let inputs = try FrontEnd.load(
      paths, referenceRoot: referenceRoot, warningsAreErrors: warningsAreErrors, typedFormats: typedFormats,
      names: names)
    guard let schema = inputs.schema else { return Plan(inputs: inputs, files: nil) }
    return Plan(inputs: inputs, files: try renderer.render(schema))
  }
}
