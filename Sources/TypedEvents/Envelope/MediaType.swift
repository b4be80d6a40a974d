/// Media types as HTTP and CloudEvents compare them.
package enum MediaType {
  /// The essence of a media type (RFC 9110, 8.3.1): what comes before any parameter, without
  /// the spaces and tabs around it, with ASCII letters in lower case (type and subtype are
  /// case-insensitive). By bytes: Foundation's trimming and `lowercased()` took a tenth of reading
  /// a batch of events, whose every event asks.
  package static func essence(of value: String) -> String {
    var bytes = value.utf8.prefix { $0 != UInt8(ascii: ";") }
    while let first = bytes.first, isSpace(first) { bytes.removeFirst() }
    while let last = bytes.last, isSpace(last) { bytes.removeLast() }
    guard bytes.contains(where: isUpper) else { return String(decoding: bytes, as: UTF8.self) }
    return String(decoding: bytes.map { isUpper($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
  }

  /// Whether a media type is JSON: `application/json`, `text/json` or a `+json` type such as
  /// `application/cloudevents+json`, with or without parameters.
  package static func isJSON(_ value: String) -> Bool {
    // What this package writes, and most senders: no essence to make.
    if value == "application/json" { return true }
    let essence = essence(of: value)
    return essence == "application/json" || essence == "text/json" || essence.hasSuffix("+json")
  }

  private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
  private static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
}
