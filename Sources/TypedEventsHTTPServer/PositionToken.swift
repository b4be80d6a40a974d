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
      var text: [UInt8] = []
      try append(position, to: &text)
      return String(decoding: text, as: UTF8.self)
    }

    /// Appends the token of `position` to `text`: the same bytes as ``text(_:)``, which need no
    /// escaping in a JSON string either.
    static func append<Position: Encodable>(_ position: Position, to text: inout [UInt8]) throws {
      if let position = position as? EventLog.Position {
        appendToken(offset: position.offset, to: &text)
      } else {
        appendBase64URL(try encoder.encode(position), to: &text)
      }
    }

    /// Appends the token of the file log's position at `offset`: the same bytes as the token of
    /// what JSONEncoder writes for it, `{"offset":N}`, with no JSON, encoder or `String` made.
    /// An answer holds one token an event, and making them took a third of writing it.
    static func appendToken(offset: Int64, to text: inout [UInt8]) {
      // `{"offset"` is 9 bytes, three whole groups: always these 12 characters.
      text.append(literal: "eyJvZmZzZXQi")
      // The rest, `:`, the number and `}`, is at most 22 bytes: 24 on the stack.
      var rest: (UInt64, UInt64, UInt64) = (0, 0, 0)
      withUnsafeMutableBytes(of: &rest) { bytes in
        bytes[0] = UInt8(ascii: ":")
        var count = 1
        if offset < 0 {
          bytes[count] = UInt8(ascii: "-")
          count += 1
        }
        let digits = count
        var magnitude = offset.magnitude
        repeat {
          bytes[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
          magnitude /= 10
          count += 1
        } while magnitude > 0
        bytes[digits..<count].reverse()
        bytes[count] = UInt8(ascii: "}")
        count += 1
        appendBase64URL(UnsafeRawBufferPointer(rebasing: bytes[..<count]), to: &text)
      }
    }

    /// One encoder for every token (JSONEncoder is Sendable): made once, not once an event.
    private static let encoder = JSONEncoder()

    private static let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

    /// Appends `bytes` in base64url without padding (RFC 4648, section 5) to `text`, written
    /// directly: Foundation's base64 and three replacements of its characters took a tenth of a
    /// batch POST's time.
    static func appendBase64URL(_ bytes: some Collection<UInt8>, to text: inout [UInt8]) {
      text.reserveCapacity(text.count + (bytes.count + 2) / 3 * 4)
      var group: UInt32 = 0
      var count = 0
      for byte in bytes {
        group |= UInt32(byte) << (16 - 8 * UInt32(count))
        count += 1
        if count == 3 {
          appendGroup(group, count: 3, to: &text)
          group = 0
          count = 0
        }
      }
      if count > 0 { appendGroup(group, count: count, to: &text) }
    }

    /// The `count + 1` characters of a group of `count` bytes (1 to 3), held from bit 23 down.
    private static func appendGroup(_ group: UInt32, count: Int, to text: inout [UInt8]) {
      let characters = alphabet.utf8Start
      for position in 0...count {
        text.append(characters[Int((group >> (18 - 6 * UInt32(position))) & 0x3F)])
      }
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

  extension [UInt8] {
    /// Appends the UTF-8 of a literal as it is stored in the binary: appending a `String`'s
    /// `utf8` copies it through the string first.
    mutating func append(literal: StaticString) {
      literal.withUTF8Buffer { append(contentsOf: $0) }
    }
  }
#endif
