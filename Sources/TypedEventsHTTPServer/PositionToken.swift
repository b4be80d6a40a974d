#if HTTPServer
  import Foundation
  import TypedEvents

  /// A store position as the opaque text of an SSE `id`, a `Last-Event-ID` or an `after`
  /// parameter: the position's JSON with the store's identity beside it
  /// (`EventStore.storeIdentity()`, as `"store"`), in base64url without padding, so that it
  /// holds no character an HTTP header or a query must escape. Clients keep it and send it back;
  /// they read nothing from it.
  enum PositionToken {
    /// The token of `position` in the store whose identity is `store`.
    static func text<Position: Encodable>(_ position: Position, store: String?) throws -> String {
      var text: [UInt8] = []
      try append(position, store: store, to: &text)
      return String(decoding: text, as: UTF8.self)
    }

    /// Appends the token of `position` to `text`: the same bytes as ``text(_:store:)``, which
    /// need no escaping in a JSON string either.
    static func append<Position: Encodable>(_ position: Position, store: String?, to text: inout [UInt8]) throws {
      try append(position, store: store, plain: store.map(isPlain) ?? true, to: &text)
    }

    /// ``append(_:store:to:)`` with whether `store` is plain (``isPlain(_:)``, or nil) said by
    /// the caller: an answer holds one token an event of one store, and looking at the store's
    /// bytes each time took a fifth of writing a token.
    static func append<Position: Encodable>(
      _ position: Position, store: String?, plain: Bool, to text: inout [UInt8]
    ) throws {
      // The type compared, not cast: `as?` is a dynamic cast for every token of an answer.
      if plain, Position.self == EventLog.Position.self {
        appendToken(offset: unsafeBitCast(position, to: EventLog.Position.self).offset, store: store, to: &text)
        return
      }
      var json = [UInt8](try encoder.encode(position))
      if let store, json.last == UInt8(ascii: "}") {
        json.removeLast()
        json.append(contentsOf: json.count > 1 ? #","store":"#.utf8 : #""store":"#.utf8)
        EventEnvelope.appendJSONString(store, to: &json)
        json.append(UInt8(ascii: "}"))
      }
      appendBase64URL(json, to: &text)
    }

    /// Appends the token of the file log's position at `offset`: the same bytes as the token of
    /// what JSONEncoder writes for it, `{"offset":N}`, and `,"store":"…"` before its brace, with
    /// no JSON, encoder or `String` made. An answer holds one token an event, and making them
    /// took a third of writing it.
    static func appendToken(offset: Int64, store: String?, to text: inout [UInt8]) {
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLogTokenLength) { token in
        guard let base = token.baseAddress else { return }
        text.append(
          contentsOf: UnsafeBufferPointer(start: base, count: writeToken(offset: offset, store: store, to: base)))
      }
    }

    /// The most bytes ``writeToken(offset:store:to:)`` writes.
    static let maximumLogTokenLength = 12 + 96

    /// Writes the token ``appendToken(offset:store:to:)`` appends at `destination`, which has room
    /// for ``maximumLogTokenLength`` bytes, for a `store` that ``isPlain(_:)``; returns how many
    /// bytes it wrote.
    static func writeToken(offset: Int64, store: String?, to destination: UnsafeMutablePointer<UInt8>) -> Int {
      // `{"offset"` is 9 bytes, three whole groups: always these 12 characters.
      let prefix: StaticString = "eyJvZmZzZXQi"
      destination.update(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
      // The rest, `:`, a sign and 19 digits, `,"store":"`, the store (at most 32 bytes), `"` and
      // `}`, is at most 65 bytes: 72 on the stack, 96 characters.
      var rest: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
      return withUnsafeMutableBytes(of: &rest) { bytes in
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
        if let store {
          for byte in #","store":""#.utf8 {
            bytes[count] = byte
            count += 1
          }
          // Where the identity lies, without a copy of the string (`withUTF8` is mutating). At
          // most 32 bytes: a plain store's.
          let room = UnsafeMutableRawBufferPointer(rebasing: bytes[count..<(count + 32)])
          func copy(_ identity: UnsafeBufferPointer<UInt8>) -> Int {
            let part = UnsafeBufferPointer(rebasing: identity.prefix(32))
            room.copyBytes(from: part)
            return part.count
          }
          if let copied = store.utf8.withContiguousStorageIfAvailable(copy) {
            count += copied
          } else {
            var store = store
            count += store.withUTF8(copy)
          }
          bytes[count] = UInt8(ascii: "\"")
          count += 1
        }
        bytes[count] = UInt8(ascii: "}")
        count += 1
        return prefix.utf8CodeUnitCount
          + writeBase64URL(
            of: UnsafeRawBufferPointer(rebasing: bytes[..<count]), to: destination + prefix.utf8CodeUnitCount)
      }
    }

    /// Appends the base64url of `bytes`, at most 72, in one append: a character at a time, the
    /// array's checks took most of writing a token.
    private static func appendBase64URL(of bytes: UnsafeRawBufferPointer, to text: inout [UInt8]) {
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 96) { encoded in
        guard let base = encoded.baseAddress else { return }
        text.append(contentsOf: UnsafeBufferPointer(start: base, count: writeBase64URL(of: bytes, to: base)))
      }
    }

    /// Writes the base64url of `bytes` at `destination`, which has room for
    /// `(bytes.count + 2) / 3 * 4` bytes; returns how many it wrote.
    private static func writeBase64URL(
      of bytes: UnsafeRawBufferPointer, to characters: UnsafeMutablePointer<UInt8>
    ) -> Int {
      let alphabet = alphabet.utf8Start
      var count = 0
      var index = 0
      // Whole groups of three bytes without a branch or a loop inside: four characters each.
      while index + 3 <= bytes.count {
        let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
        characters[count] = alphabet[Int(group >> 18)]
        characters[count + 1] = alphabet[Int((group >> 12) & 0x3F)]
        characters[count + 2] = alphabet[Int((group >> 6) & 0x3F)]
        characters[count + 3] = alphabet[Int(group & 0x3F)]
        count += 4
        index += 3
      }
      // The last one or two bytes: two or three characters, no padding.
      let rest = bytes.count - index
      if rest > 0 {
        var group = UInt32(bytes[index]) << 16
        if rest > 1 { group |= UInt32(bytes[index + 1]) << 8 }
        characters[count] = alphabet[Int(group >> 18)]
        characters[count + 1] = alphabet[Int((group >> 12) & 0x3F)]
        count += 2
        if rest > 1 {
          characters[count] = alphabet[Int((group >> 6) & 0x3F)]
          count += 1
        }
      }
      return count
    }

    /// Whether `store` is at most 32 letters, digits and `-`, which ``appendToken(offset:store:to:)``
    /// writes as they are: a log's identity is hex.
    static func isPlain(_ store: String) -> Bool {
      store.utf8.count <= 32
        && store.utf8.allSatisfy {
          $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0 & ~0x20)
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
      Array(bytes).withUnsafeBytes { bytes in
        // Whole groups of three bytes in each part but the last, so that parts join.
        var start = 0
        while start < bytes.count {
          let end = min(start + 72, bytes.count)
          appendBase64URL(of: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), to: &text)
          start = end
        }
      }
    }

    /// The position of a token and the identity of the store it is from (nil in a token given
    /// out before tokens carried it); nil when `text` is not a token. The JSON is checked by
    /// `StrictJSON` before it is read: a token is a client's text.
    static func position<Position: Decodable>(
      _ text: String, as type: Position.Type
    ) -> (position: Position, store: String?)? {
      // Longer than any position's JSON could be: refused before decoding.
      guard !text.isEmpty, text.utf8.count <= 1024 else { return nil }
      var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
      base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
      guard let json = Data(base64Encoded: base64), (try? StrictJSON.check(json)) != nil,
        let token = try? JSONDecoder().decode(Token<Position>.self, from: json)
      else { return nil }
      return (token.position, token.store)
    }

    /// What a token's JSON holds: the position's own members, and `store`.
    private struct Token<Position: Decodable>: Decodable {
      var position: Position
      var store: String?

      private enum Keys: String, CodingKey { case store }

      init(from decoder: any Decoder) throws {
        position = try Position(from: decoder)
        // A position that is no JSON object has no `store` beside it. A `store` that is not a
        // string makes no token: taken for none, it would pass the check of the store's identity.
        if let members = try? decoder.container(keyedBy: Keys.self) {
          store = try members.decodeIfPresent(String.self, forKey: .store)
        } else {
          store = nil
        }
      }
    }
  }
#endif
