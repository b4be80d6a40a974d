// This file is compiled into EventSchema and into both plugins (which cannot import libraries),
// so that the tool and the plugins can never disagree on input or output names. Keep it free of
// imports.

/// Names of input files, and of everything named after them, derived from paths alone: the one
/// place that knows the inputs' suffixes.
public enum SchemaFileNames {
  /// The suffix of an event schema file.
  public static let schemaSuffix = ".events.yaml"
  /// The suffixes that mark an input inside a folder: event schemas and AsyncAPI documents.
  public static let inputSuffixes = [schemaSuffix] + asyncAPISuffixes
  /// The suffixes of AsyncAPI documents.
  static let asyncAPISuffixes = [".asyncapi.yaml", ".asyncapi.yml", ".asyncapi.json"]
  /// The file extensions of inputs.
  static let extensions = [".yaml", ".yml", ".json"]

  /// Whether a file of this name is an input when found in a folder.
  public static func isInput(_ fileName: String) -> Bool {
    inputSuffixes.contains { fileName.hasSuffix($0) }
  }

  /// Whether the file at `path` is named as an AsyncAPI document (`*.asyncapi.yaml`, `.yml`, `.json`).
  public static func isAsyncAPI(_ path: String) -> Bool {
    asyncAPISuffixes.contains { path.hasSuffix($0) }
  }

  /// The last component of `path`.
  public static func fileName(of path: String) -> String {
    String(path.split(separator: "/").last ?? Substring(path))
  }

  /// The file name without its extension: `Schemas/Listings.events.yaml` → `Listings.events`,
  /// `orders.asyncapi.json` → `orders.asyncapi`.
  public static func stem(of path: String) -> String {
    var name = fileName(of: path)
    for suffix in extensions where name.hasSuffix(suffix) {
      name.removeLast(suffix.count)
      break
    }
    return name
  }

  /// The stem without `.events`: `Schemas/Listings.events.yaml` → `Listings`, the name a schema
  /// file gives its channel in an exported contract.
  public static func baseName(of path: String) -> String {
    let stem = stem(of: path)
    return stem.hasSuffix(".events") ? String(stem.dropLast(".events".count)) : stem
  }

  /// The Swift file generated for one input: `Schemas/Listings.events.yaml` →
  /// `Listings.events.swift`, `orders.asyncapi.json` → `orders.asyncapi.swift`.
  ///
  /// One file per input, so that editing an event changes one file: the compiler rebuilds it
  /// alone, while the module's interface is emitted beside it (two files would run one after
  /// the other behind that job).
  public static func swiftFileName(forSchemaAt path: String) -> String {
    stem(of: path) + ".swift"
  }
}
