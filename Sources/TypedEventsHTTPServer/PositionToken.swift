#if HTTPServer
  import Foundation

  /// A store position as the opaque text of an SSE `id`, a `Last-Event-ID` or an `after`
  /// parameter: the position's JSON in base64url without padding, so that it holds no character
  /// an HTTP header or a query must escape. Clients keep it and send it back; they read nothing
  /// from it.
  enum PositionToken {
    /// The token of `position`.
    static func text<Position: Encodable>(_ position: Position) throws -> String {
      let json = try JSONEncoder().encode(position)
      return json.base64EncodedString()
        .replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
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
