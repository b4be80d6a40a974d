// This file is compiled into both the eventgen tool and the build-tool plugin (which cannot
// import libraries), so that the two can never disagree on output names. Keep it free of
// imports.

/// Names of generated files, derived from input paths alone.
enum OutputNaming {
  /// The two files generated for one schema: `Schemas/Listings.events.yaml` →
  /// `Listings.events.swift` (the declarations) and `Listings.events+Extensions.swift` (their
  /// coding, subjects and filter helpers). Two files let a large schema compile on two cores.
  static func outputFileNames(forSchemaAt path: String) -> (declarations: String, extensions: String) {
    var name = String(path.split(separator: "/").last ?? Substring(path))
    for suffix in [".yaml", ".yml"] where name.hasSuffix(suffix) {
      name.removeLast(suffix.count)
      break
    }
    return (name + ".swift", name + "+Extensions.swift")
  }
}
