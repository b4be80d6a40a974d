#if HTTPServer
  import Foundation
  import NIOCore
  import TypedEvents

  extension Data {
    /// This JSON text with its line breaks as spaces. A JSON text holds a line break only as
    /// whitespace between tokens (in a string it is escaped), so a space keeps the same JSON on
    /// one line: an SSE `data` field, or a store's line.
    func jsonOnOneLine() -> Data {
      guard containsLineBreak else { return self }
      return Data(map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 })
    }
  }

  /// The Server-Sent Events text of stored events (WHATWG HTML, "Server-sent events"): one frame
  /// an event, `id` its position token, `event` its wire type name, `data` the structured
  /// CloudEvent on one line.
  enum ServerSentEvents {
    /// Writes the frame of one stored event of the store whose identity is `store` to `buffer`,
    /// with `defaultSource` as its source when it has none. For an envelope that is no CloudEvent, its `id` and a comment that says why:
    /// the client's position moves past it, and its log shows the gap.
    static func writeFrame<Position: Encodable>(
      _ stored: StoredEnvelope<Position>, defaultSource: String, store: String?, to buffer: inout ByteBuffer
    ) {
      let id: String
      do {
        id = try PositionToken.text(stored.position, store: store)
      } catch {
        buffer.writeBytes(comment("a position could not be written: \(error)"))
        return
      }
      do {
        let source = stored.envelope.source == nil ? defaultSource : nil
        let data = try stored.envelope.cloudEventJSON(source: source).jsonOnOneLine()
        buffer.reserveCapacity(minimumWritableBytes: data.count + id.utf8.count + stored.envelope.name.utf8.count + 24)
        buffer.writeStaticString("id: ")
        buffer.writeString(id)
        buffer.writeStaticString("\nevent: ")
        buffer.writeString(oneLine(stored.envelope.name))
        buffer.writeStaticString("\ndata: ")
        buffer.writeBytes(data)
        buffer.writeStaticString("\n\n")
      } catch {
        // The comment keeps the stream's position moving: an `id`-only frame sets it.
        buffer.writeString("id: \(id)\n")
        buffer.writeBytes(comment("event \(oneLine(stored.envelope.id)) is no CloudEvent: \(error)"))
      }
    }

    /// A comment line, which clients ignore; also the heartbeat.
    static func comment(_ text: String) -> [UInt8] {
      Array(": \(oneLine(text))\n\n".utf8)
    }

    /// `text` with line breaks as spaces: a field's value ends at a line break.
    static func oneLine(_ text: String) -> String {
      guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
      return String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }
  }
#endif
