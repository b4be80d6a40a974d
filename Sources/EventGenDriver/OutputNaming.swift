// This file is compiled into both the eventgen tool and the build-tool plugin (which cannot
// import libraries), so that the two can never disagree on output names. Keep it free of
// imports.

/// Names of generated files, derived from input paths alone.
enum OutputNaming {
  /// The file generated for one schema: `Schemas/Listings.events.yaml` → `Listings.events.swift`.
  ///
  /// One file per schema, so that editing an event changes one file: the compiler rebuilds it
  /// alone, while the module's interface is emitted beside it (two files would run one after
  /// the other behind that job).
  static func outputFileName(forSchemaAt path: String) -> String {
    var name = String(path.split(separator: "/").last ?? Substring(path))
    for suffix in [".yaml", ".yml"] where name.hasSuffix(suffix) {
      name.removeLast(suffix.count)
      break
    }
    return name + ".swift"
  }
}
