#if HTTPServer
  import Foundation
  import HTTPTypes
  import Hummingbird
  import NIOCore
  import TypedEvents

  @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
  extension EventsEndpoint {
    /// A page: the events after the request's position, as a CloudEvents batch; the
    /// `Last-Event-ID` header gives the position to ask for the next page.
    func page(_ selection: Selection, limit: Int) async -> Response {
      do {
        let share = try await readBudget.take(configuration.maximumPageBytes)
        // The store passes over other types and subjects: a page holds `limit` of the events asked
        // for when the store has them, however many others lie between.
        let batch = try await store.read(
          after: selection.after, limit: limit, maximumBytes: share.bytes, matching: selection.filter)
        share.keep(batch.envelopes.reduce(0) { $0 + $1.envelope.byteCount })
        // An event that is no CloudEvent (a metadata key CloudEvents does not allow) is left
        // out, and logged: the page still moves past it, as a stream does.
        var body = Data("[".utf8)
        for stored in batch.envelopes where selection.admits(stored.envelope) {
          let envelope = stored.envelope
          do {
            let json = try envelope.cloudEventJSON(source: envelope.source == nil ? configuration.defaultSource : nil)
            if body.count > 1 { body.append(UInt8(ascii: ",")) }
            body.append(json)
          } catch {
            logger.warning(
              "an event is no CloudEvent: left out of the page",
              metadata: ["id": "\(envelope.id)", "error": "\(error)"])
          }
        }
        body.append(UInt8(ascii: "]"))
        var headers: HTTPFields = [.contentType: EventEnvelope.cloudEventBatchContentType, .cacheControl: "no-store"]
        if let next = batch.next {
          headers[.lastEventID] = try PositionToken.text(next, store: try await storeIdentity())
        }
        let buffer = ByteBuffer(bytes: body)
        let writeTimeout = configuration.writeTimeout
        // The share is held until the connection has sent the page (or closed), then given
        // back; a client that takes no piece of it for the write timeout is cut off.
        let page = ResponseBody(contentLength: buffer.readableBytes) { writer in
          let unflushed = UnflushedWrites()
          try await unflushed.write([(buffer, nil)], grant: share, to: &writer)
          try await unflushed.waitUntilBelow(1, timeout: writeTimeout)
          try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: page)
      } catch {
        return unavailable(error)
      }
    }
  }
#endif
