#if HTTPServer
  import Foundation
  import HTTPTypes
  import Hummingbird
  import NIOCore
  import TypedEvents

  // A POST's body: read within its limits of size and time, and read into envelopes by its
  // content type, each checked by the strict grammar before anything reads it.
  @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
  extension EventsEndpoint {
    /// The envelopes of a request, by its content type.
    func incoming(_ request: Request) async throws -> [EventEnvelope] {
      let limit = configuration.maximumBodySize
      if let length = request.headers.value(of: .contentLength).flatMap({ Int($0) }), length > limit {
        throw Self.tooLarge("the body has \(length) bytes; at most \(limit) are taken")
      }
      let body: ByteBuffer
      do {
        body = try await Self.collect(request.body, upTo: limit, within: configuration.bodyReadTimeout)
      } catch is NIOTooManyBytesError {
        throw Self.tooLarge("the body has more than \(limit) bytes")
      } catch is BodyTimeout {
        throw EventProblem(
          status: 408, kind: "body-timeout", title: "Request timeout",
          detail: "the body did not arrive within \(configuration.bodyReadTimeout)")
      } catch {
        // The connection ended or broke before the body was whole: the client's doing, and one
        // it may repeat at will, so a line at debug level, not an error's; the answer goes
        // out if the client still reads.
        logger.debug("a request's body ended before it was whole", metadata: ["error": "\(error)"])
        throw EventProblem.badRequest("incomplete-body", "the body ended before it was whole")
      }
      let data = Self.data(sharing: body)
      do {
        return try read(data, of: request)
      } catch EventLogError.malformed(let reason) {
        throw EventProblem.badRequest("malformed-cloudevent", reason)
      }
    }

    /// The envelopes of a body, by the request's content type, each checked by `StrictJSON`
    /// before anything reads it, its data then put on one line. What a store refuses in an
    /// attribute (a control character, an extension name or integer no CloudEvents reader takes)
    /// is refused here too, as the request's fault.
    private func read(_ data: Data, of request: Request) throws -> [EventEnvelope] {
      let contentType = request.headers.value(of: .contentType) ?? ""
      switch MediaType.essence(of: contentType) {
      case "application/cloudevents+json":
        var envelope = try EventEnvelope(cloudEventJSON: data, limits: configuration.jsonLimits)
        try envelope.admit()
        return [envelope]
      case EventEnvelope.cloudEventBatchContentType:
        // Each event's data a slice of the body, not a copy: the envelopes go with the request.
        var envelopes = try EventEnvelope.envelopes(
          cloudEventBatchJSON: data, limits: configuration.jsonLimits, sharingStorage: true)
        // In place: a copy of every envelope, and the release of the first array, cost more.
        for index in envelopes.indices {
          do {
            try envelopes[index].admit()
          } catch EventLogError.malformed(let reason) {
            throw EventLogError.malformed("element \(index) of the batch: \(reason)")
          }
        }
        guard !envelopes.isEmpty else { throw EventProblem.badRequest("empty-batch", "the batch holds no event") }
        guard envelopes.count <= configuration.maximumBatchCount else {
          throw Self.tooLarge("the batch holds \(envelopes.count) events; at most \(configuration.maximumBatchCount)")
        }
        return envelopes
      default:
        guard request.headers[HTTPField.Name("ce-specversion")!] != nil else {
          throw EventProblem(
            status: 415, kind: "unsupported-media-type", title: "Unsupported media type",
            detail:
              "a POST is a CloudEvent: application/cloudevents+json, \(EventEnvelope.cloudEventBatchContentType), "
              + "or the binary mode with ce-specversion and the other ce- headers; this one is "
              + (contentType.isEmpty ? "without Content-Type" : contentType))
        }
        // The event's headers, each once: an attribute has one value, and two joined with a
        // comma would be a value the client never sent.
        var headers: [String: String] = [:]
        for field in request.headers {
          let name = field.name.canonicalName
          guard name == "content-type" || name.hasPrefix("ce-") else { continue }
          guard headers[name] == nil else {
            throw EventLogError.malformed("the header \(name) comes twice: an attribute has one value")
          }
          headers[name] = field.value
        }
        var envelope = try EventEnvelope(
          cloudEventMessage: CloudEventMessage(binding: .http, headers: headers, body: data),
          limits: configuration.jsonLimits)
        try envelope.admit()
        return [envelope]
      }
    }

    /// The body, at most `limit` bytes, or ``BodyTimeout`` when it has not all come within
    /// `timeout`: the read is cancelled then, which ends it (NIO's body sequence finishes on
    /// cancellation).
    ///
    /// The read starts on this thread (`Task.immediate`), and a body that has come whole is
    /// read before it returns: then no timer is set, and no work goes to another thread. Else a
    /// timer starts, on this thread too. Child tasks of a group handed both to other threads,
    /// and the group waited for the cancelled timer: about 2.6 more context switches a POST
    /// (counted in `/proc` over a run of `Benchmarks/http.sh --only post`).
    private static func collect(
      _ body: RequestBody, upTo limit: Int, within timeout: Duration
    ) async throws -> ByteBuffer {
      let finished = Locked(false)
      let reading = Task.immediate {
        defer { finished.withLock { $0 = true } }
        return try await body.collect(upTo: limit)
      }
      if finished.withLock({ $0 }) { return try await reading.value }
      let timedOut = Locked(false)
      let timer = Task.immediate {
        try await Task.sleep(for: timeout)
        timedOut.withLock { $0 = true }
        reading.cancel()
      }
      defer { timer.cancel() }
      let collected: ByteBuffer
      do {
        collected = try await withTaskCancellationHandler {
          try await reading.value
        } onCancel: {
          reading.cancel()
        }
      } catch {
        if timedOut.withLock({ $0 }) { throw BodyTimeout() }
        throw error
      }
      // A read the timer cancelled may end with part of the body.
      if timedOut.withLock({ $0 }) { throw BodyTimeout() }
      return collected
    }

    /// The readable bytes of `buffer` as `Data`, where they lie: the `Data` keeps the buffer's
    /// storage until it and every slice of it are gone. A copy of the whole body was about a
    /// fiftieth of a batch POST's own time. Nothing writes to `buffer` afterwards (a write
    /// would copy the storage first, which the `Data` holds too).
    private static func data(sharing buffer: ByteBuffer) -> Data {
      buffer.withUnsafeReadableBytesWithStorageManagement { bytes, storage in
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return Data() }
        let kept = KeptStorage(storage.retain())
        return Data(
          bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count,
          deallocator: .custom { _, _ in kept.release() })
      }
    }

    /// A retained reference to a buffer's storage, released once, when the `Data` that shares
    /// it goes. Unchecked: the storage is only released, never used, from wherever that is.
    private struct KeptStorage: @unchecked Sendable {
      let storage: Unmanaged<AnyObject>

      init(_ storage: Unmanaged<AnyObject>) { self.storage = storage }

      func release() { storage.release() }
    }

    /// Thrown when a body takes longer than `bodyReadTimeout`.
    private struct BodyTimeout: Error {}

    private static func tooLarge(_ detail: String) -> EventProblem {
      EventProblem(status: 413, kind: "too-large", title: "Content too large", detail: detail)
    }
  }

  extension EventEnvelope {
    /// Refuses what a store refuses in an attribute (``validateAttributes()``), then puts JSON
    /// data on one line. Mutating, so that an envelope of an array is checked where it lies:
    /// calling the non-mutating check on an element copied and destroyed the whole envelope.
    mutating func admit() throws {
      try validateAttributes()
      putDataOnOneLine()
    }

    /// Puts JSON data on one line, as a store keeps it; data without a line break is left as
    /// it is, not assigned again.
    private mutating func putDataOnOneLine() {
      guard hasJSONPayload, payload.containsLineBreak else { return }
      payload = payload.jsonOnOneLine()
    }
  }
#endif
