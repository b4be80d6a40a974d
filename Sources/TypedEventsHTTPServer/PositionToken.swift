#if HTTPServer
  import Foundation
  import TypedEvents

  /// A store position as the opaque text of an SSE `id`, a `Last-Event-ID` or an `after`
  /// parameter: the position's JSON in base64url without padding, so that it holds no character
  /// an HTTP header or a query must escape. Clients keep it and send it back; they read nothing
  /// from it.
  enum PositionToken {
    /// The token of `position`.
    static func text<Position: Encodable>(_ position: Position) throws -> String {
      // The file log's position written directly, as the same bytes JSONEncoder writes for it:
      // the encoder took a tenth of a batch POST's time, for one number.
      if let position = position as? EventLog.Position {
        return base64URL(Data("{\"offset\":\(position.offset)}".utf8))
      }
      return base64URL(try encoder.encode(position))
    }

    /// One encoder for every token (JSONEncoder is Sendable): made once, not once an event.
    private static let encoder = JSONEncoder()

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` in base64url without padding (RFC 4648, section 5), written directly: Foundation's
    /// base64 and three replacements of its characters took a tenth of a batch POST's time.
    static func base64URL(_ bytes: Data) -> String {
      var text: [UInt8] = []
      text.reserveCapacity((bytes.count + 2) / 3 * 4)
      var index = bytes.startIndex
      while index < bytes.endIndex {
        let count = min(3, bytes.endIndex - index)
        var group = UInt32(bytes[index]) << 16
        if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
        if count > 2 { group |= UInt32(bytes[index + 2]) }
        for position in 0...count {
          text.append(alphabet[Int((group >> (18 - 6 * UInt32(position))) & 0x3F)])
        }
        index += count
      }
      return String(decoding: text, as: UTF8.self)
    }

    /// The position of a token, nil when `text` is not one this endpoint gave out.
    static func position<Position: Decodable>(_ text: String, as type: Position.Type) -> Position? {
      // Longer than any position's JSON could be: refused before decoding.
      guard !text.isEmpty, text.utf8.count <= 1024 else { return nil }
      var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
      base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
      guard let json = Data(base64Encoded: base64) else { return nil }
      return try? JSONDecoder().decode(Position.self, from: json)
    }
  }
#endif
