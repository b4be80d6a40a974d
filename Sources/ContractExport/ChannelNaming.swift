import EventSchema

/// One channel of the AsyncAPI document: one schema file.
struct Channel {
  /// The file.
  let file: SchemaFile
  /// The key under `channels`: the namespace, or the file stem; made unique and limited to the
  /// characters AsyncAPI allows in keys.
  let key: String
  /// The file name without `.events.yaml` (or `.yaml`, `.yml`).
  let stem: String

  /// The namespace, or the file stem without one.
  var title: String { file.namespace ?? stem }
}

enum ChannelNaming {
  /// A channel per file, in run order.
  static func channels(of schema: SchemaSet) -> [Channel] {
    var taken = Set<String>()
    return schema.files.map { file in
      let stem = SchemaFileNames.baseName(of: file.path)
      let base = sanitized(file.namespace ?? stem)
      var key = base
      var number = 2
      while !taken.insert(key).inserted {
        key = "\(base)_\(number)"
        number += 1
      }
      return Channel(file: file, key: key, stem: stem)
    }
  }

  /// `name` with every character outside `[A-Za-z0-9._-]` replaced by `_`: AsyncAPI's pattern
  /// for component and channel keys.
  private static func sanitized(_ name: String) -> String {
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
    let result = String(name.map { allowed.contains($0) ? $0 : "_" })
    return result.isEmpty ? "_" : result
  }
}
