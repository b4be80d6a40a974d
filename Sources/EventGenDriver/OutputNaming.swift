// This file is compiled into both the eventgen tool and the build-tool plugin (which cannot
// import libraries), so that the two can never disagree on input or output names. Keep it free
// of imports.

/// Names of schema files, and of the files generated from them, derived from paths alone.
enum OutputNaming {
  /// The suffixes that mark an input inside a folder: event schemas and AsyncAPI documents.
  static let inputSuffixes = [".events.yaml", ".asyncapi.yaml", ".asyncapi.yml", ".asyncapi.json"]

  /// Whether a file of this name is an input when found in a folder.
  static func isInput(_ fileName: String) -> Bool {
    inputSuffixes.contains { fileName.hasSuffix($0) }
  }

  /// The file generated for one input: `Schemas/Listings.events.yaml` → `Listings.events.swift`,
  /// `orders.asyncapi.json` → `orders.asyncapi.swift`.
  ///
  /// One file per input, so that editing an event changes one file: the compiler rebuilds it
  /// alone, while the module's interface is emitted beside it (two files would run one after
  /// the other behind that job).
  static func outputFileName(forSchemaAt path: String) -> String {
    var name = String(path.split(separator: "/").last ?? Substring(path))
    for suffix in [".yaml", ".yml", ".json"] where name.hasSuffix(suffix) {
      name.removeLast(suffix.count)
      break
    }
    return name + ".swift"
  }
}
