#if HTTPServer
  import Hummingbird
  import NIOCore
  import TypedEvents

  /// The answer to a POST, `{"events":[…]}` with one entry an event, written in place: each
  /// entry's room is reserved in the body's buffer, then its bytes written there. An append to
  /// an array for each piece, and the array's copy into the buffer, were most of answering.
  /// Written by hand, keys sorted: JSONSerialization took a sixth of a batch POST's time.
  struct AppendAnswer {
    private var body: ByteBuffer
    private var entries = 0
    /// Whether every event so far was stored before.
    private var allStored = true

    /// An answer with room for about `capacity` entries.
    init(capacity: Int) {
      body = ByteBufferAllocator().buffer(capacity: 32 + capacity * 160)
      body.writeStaticString(#"{"events":["#)
    }

    /// The entries of `envelopes`, each appended at its file log's position in `store` (which
    /// ``PositionToken/isPlain(_:)``).
    mutating func write(
      _ envelopes: [EventEnvelope], _ appended: [AppendedEnvelope<EventLog.Position>], store: String?
    ) {
      envelopes.withUnsafeBufferPointer { envelopes in
        for index in envelopes.indices {
          write(
            envelopes.baseAddress.unsafelyUnwrapped + index, wasStored: appended[index].wasStored,
            logOffset: appended[index].position.offset, store: store, token: [])
        }
      }
    }

    /// The entry of the envelope at `envelope`: its position's token is the file log's at
    /// `logOffset` in `store` (which ``PositionToken/isPlain(_:)``), or else `token`. By its
    /// address: an element of the array passed as a value was copied, each of its texts
    /// retained and released.
    mutating func write(
      _ envelope: UnsafePointer<EventEnvelope>, wasStored: Bool, logOffset: Int64?, store: String?, token: [UInt8]
    ) {
      allStored = allStored && wasStored
      let first = entries == 0
      entries += 1
      let source = envelope.pointee.source ?? ""
      // Room for the literals, each text escaped, and the token.
      let room =
        Self.entryStart.utf8CodeUnitCount + Self.newAndID.utf8CodeUnitCount + Self.positionKey.utf8CodeUnitCount
        + Self.sourceKey.utf8CodeUnitCount + EventEnvelope.jsonStringBound(envelope.pointee.id)
        + EventEnvelope.jsonStringBound(source) + (logOffset == nil ? token.count : PositionToken.maximumLogTokenLength)
      body.writeWithUnsafeMutableBytes(minimumWritableBytes: room) { raw in
        guard let start = raw.bindMemory(to: UInt8.self).baseAddress else { return 0 }
        var end = start
        Self.write(first ? Self.firstEntryStart : Self.entryStart, at: &end)
        // An event's closing brace goes with the next one's opening, its flag with the key after it.
        Self.write(wasStored ? Self.storedBeforeAndID : Self.newAndID, at: &end)
        end += EventEnvelope.writeJSONString(envelope.pointee.id, to: end)
        Self.write(Self.positionKey, at: &end)
        if let logOffset {
          end += PositionToken.writeToken(offset: logOffset, store: store, to: end)
        } else {
          token.withUnsafeBufferPointer { bytes in
            if let base = bytes.baseAddress { end.update(from: base, count: bytes.count) }
          }
          end += token.count
        }
        Self.write(Self.sourceKey, at: &end)
        end += EventEnvelope.writeJSONString(source, to: end)
        // Checked in every build: a bound that fell short would have written past the buffer.
        precondition(end - start <= room, "an answer's entry took more room than was reserved")
        return end - start
      }
    }

    /// 201 when anything was appended, 200 when every event was stored before.
    consuming func response() -> Response {
      body.writeStaticString(entries == 0 ? "]}" : "}]}")
      return Response(
        status: allStored ? .ok : .created, headers: [.contentType: "application/json"],
        body: ResponseBody(byteBuffer: body))
    }

    private static func write(_ literal: StaticString, at end: inout UnsafeMutablePointer<UInt8>) {
      end.update(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
      end += literal.utf8CodeUnitCount
    }

    private static var firstEntryStart: StaticString { #"{"duplicate":"# }
    private static var entryStart: StaticString { #"},{"duplicate":"# }
    private static var storedBeforeAndID: StaticString { #"true,"id":"# }
    private static var newAndID: StaticString { #"false,"id":"# }
    private static var positionKey: StaticString { #","position":""# }
    private static var sourceKey: StaticString { #"","source":"# }
  }
#endif
