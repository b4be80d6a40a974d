import Foundation

/// Finds the bytes of each element of a JSON array without parsing them, so that each is read
/// on its own. The caller has had ``StrictJSON`` accept the whole text; this only locates, with
/// the same scanner. (A member of an object: ``StrictJSON/objectMembers(_:limits:what:)``.)
enum JSONObjectScanner {
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
