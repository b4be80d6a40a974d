/// JSON's number grammar, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`: one definition for
/// the JSON reader and for the contract export, which keeps numbers as exact text.
public enum JSONNumberSyntax {
  /// Where the number that starts at `start` in `bytes` ends, or nil when none starts there.
  public static func end(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var index = start
    func digits() -> Int {
      let first = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      return index - first
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    let leadingZero = index < bytes.count && bytes[index] == UInt8(ascii: "0")
    let whole = digits()
    guard whole > 0, !(leadingZero && whole > 1) else { return nil }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { return nil }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard digits() > 0 else { return nil }
    }
    return index
  }
}
