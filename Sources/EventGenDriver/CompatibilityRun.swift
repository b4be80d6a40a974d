import EventSchema
import SchemaEvolution

/// `eventgen compat`: loads two versions of a schema set and compares them.
public enum CompatibilityRun {
  /// The result of a comparison.
  public struct Report: Sendable {
    /// Errors (breaking changes, version rule, or schema errors that stop the comparison) and
    /// notes (safe changes), sorted.
    public var diagnostics: [Diagnostic]
    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
  }

  /// Compares the schemas at `old` with those at `new` (files, or folders searched for
  /// `*.events.yaml`). Schema errors in either version are reported instead of a comparison.
  public static func check(
    old: [String], new: [String], mode: CompatibilityMode, referenceRoot: ReferenceRoot = ReferenceRoot("."),
    warningsAreErrors: Bool = false
  ) throws(InputError) -> Report {
    let before = try FrontEnd.load(old, referenceRoot: referenceRoot, warningsAreErrors: warningsAreErrors)
    let after = try FrontEnd.load(new, referenceRoot: referenceRoot, warningsAreErrors: warningsAreErrors)
    guard let oldSchema = before.schema, let newSchema = after.schema else {
      return Report(diagnostics: (before.diagnostics + after.diagnostics).sorted())
    }
    return Report(diagnostics: CompatibilityChecker.check(old: oldSchema, new: newSchema, mode: mode))
  }
}
