import Foundation

/// Finds the bytes of one top-level value in a JSON object, or of each element of an array,
/// without parsing the rest, so that a log's payload is taken exactly as written (parsing and
/// writing it again would round numbers). The caller has had ``StrictJSON`` accept the whole
/// text; this only locates, with the same scanner.
enum JSONObjectScanner {
  /// The bytes of the value of `key` at the top level of the object `json`, or nil. Keys are
  /// compared as the code points they denote: `"d\u0061ta"` is `data`.
  static func value(ofKey key: String, in json: Data) -> Data? {
    let wanted = Array(key.utf8)
    return json.withUnsafeBytes { raw -> Data? in
      var scanner = JSONScanner(bytes: raw, limits: .stored)
      scanner.skipSpace()
      guard scanner.current == UInt8(ascii: "{") else { return nil }
      scanner.index += 1
      scanner.skipSpace()
      guard scanner.current != UInt8(ascii: "}") else { return nil }
      while true {
        scanner.skipSpace()
        let keyStart = scanner.index
        guard let escaped = try? scanner.string() else { return nil }
        let written = UnsafeRawBufferPointer(rebasing: raw[(keyStart + 1)..<(scanner.index - 1)])
        let matches =
          escaped ? JSONScanner.unescaped(written) == wanted : wanted.withUnsafeBytes { written.hasSameBytes(as: $0) }
        scanner.skipSpace()
        guard scanner.current == UInt8(ascii: ":") else { return nil }
        scanner.index += 1
        scanner.skipSpace()
        let valueStart = scanner.index
        guard scanner.skipValue(depth: 1) != nil else { return nil }
        if matches { return Data(raw[valueStart..<scanner.index]) }
        scanner.skipSpace()
        guard scanner.current == UInt8(ascii: ",") else { return nil }
        scanner.index += 1
      }
    }
  }

  /// The bytes of each element of the JSON array `json`, in order, or nil when it is not one
  /// (anything but whitespace after it included).
  static func elements(ofArray json: Data) -> [Data]? {
    json.withUnsafeBytes { raw -> [Data]? in
      var scanner = JSONScanner(bytes: raw, limits: .stored)
      return scanner.whole { scanner -> [Data]? in
        guard scanner.current == UInt8(ascii: "[") else { return nil }
        scanner.index += 1
        scanner.skipSpace()
        var elements: [Data] = []
        if scanner.current == UInt8(ascii: "]") {
          scanner.index += 1
          return elements
        }
        while true {
          scanner.skipSpace()
          let start = scanner.index
          guard scanner.skipValue(depth: 1) != nil else { return nil }
          elements.append(Data(raw[start..<scanner.index]))
          scanner.skipSpace()
          guard let separator = scanner.current else { return nil }
          scanner.index += 1
          if separator == UInt8(ascii: "]") { return elements }
          guard separator == UInt8(ascii: ",") else { return nil }
        }
      }
    }
  }
}
