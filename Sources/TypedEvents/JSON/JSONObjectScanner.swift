import Foundation

/// Finds the bytes of one top-level value in a JSON object, or of each element of an array,
/// without parsing the rest, so that a
/// log's payload is taken exactly as written (parsing and writing it again would round numbers).
/// The caller has already parsed the whole line as JSON; this only locates.
enum JSONObjectScanner {
  /// The bytes of the value of `key` at the top level of the object `json`, or nil.
  static func value(ofKey key: String, in json: Data) -> Data? {
    let bytes = [UInt8](json)
    let wanted = Array(key.utf8)
    var index = skipSpace(bytes, 0)
    guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
    index += 1
    while true {
      index = skipSpace(bytes, index)
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
      let keyStart = index + 1
      guard let keyEnd = endOfString(bytes, index) else { return nil }
      index = skipSpace(bytes, keyEnd)
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
      let valueStart = skipSpace(bytes, index + 1)
      guard let valueEnd = endOfValue(bytes, valueStart) else { return nil }
      if bytes[keyStart..<(keyEnd - 1)].elementsEqual(wanted) {
        return Data(bytes[valueStart..<valueEnd])
      }
      index = skipSpace(bytes, valueEnd)
      guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
      index += 1
    }
  }

  /// The bytes of each element of the JSON array `json`, in order, or nil when it is not one
  /// (anything but whitespace after it included). The elements themselves are located, not
  /// checked: a caller parses each.
  static func elements(ofArray json: Data) -> [Data]? {
    let bytes = [UInt8](json)
    var index = skipSpace(bytes, 0)
    guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
    index = skipSpace(bytes, index + 1)
    var elements: [Data] = []
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      return skipSpace(bytes, index + 1) == bytes.count ? elements : nil
    }
    while true {
      guard let end = endOfValue(bytes, index) else { return nil }
      elements.append(Data(bytes[index..<end]))
      index = skipSpace(bytes, end)
      guard index < bytes.count else { return nil }
      if bytes[index] == UInt8(ascii: "]") { return skipSpace(bytes, index + 1) == bytes.count ? elements : nil }
      guard bytes[index] == UInt8(ascii: ",") else { return nil }
      index = skipSpace(bytes, index + 1)
    }
  }

  private static func skipSpace(_ bytes: [UInt8], _ start: Int) -> Int {
    var index = start
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    return index
  }

  /// The index after the closing quote of the string that opens at `start`.
  private static func endOfString(_ bytes: [UInt8], _ start: Int) -> Int? {
    var index = start + 1
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\\"): index += 2
      case UInt8(ascii: "\""): return index + 1
      default: index += 1
      }
    }
    return nil
  }

  /// The index after the value that begins at `start`.
  private static func endOfValue(_ bytes: [UInt8], _ start: Int) -> Int? {
    guard start < bytes.count else { return nil }
    switch bytes[start] {
    case UInt8(ascii: "\""):
      return endOfString(bytes, start)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      var index = start
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: "\""):
          guard let end = endOfString(bytes, index) else { return nil }
          index = end
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return index + 1 }
        default: break
        }
        index += 1
      }
      return nil
    default:
      var index = start
      while index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "}"),
        bytes[index] != UInt8(ascii: "]")
      {
        index += 1
      }
      return index
    }
  }
}
