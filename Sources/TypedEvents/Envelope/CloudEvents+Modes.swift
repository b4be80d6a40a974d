import Foundation

/// A CloudEvent in the binary content mode: the context attributes as protocol headers, the data
/// as the body, as the CloudEvents HTTP and Kafka protocol bindings define them.
///
/// Make one with ``EventEnvelope/cloudEventMessage(_:source:)`` and read one with
/// ``EventEnvelope/init(cloudEventMessage:limits:)``; the ``binding`` says how the headers are named.
public struct CloudEventMessage: Sendable, Hashable {
  /// A protocol binding of CloudEvents: how attributes become headers.
  public enum Binding: Sendable, Hashable {
    /// HTTP: attribute `id` is the header `ce-id`, `datacontenttype` is `Content-Type`, values
    /// are percent-encoded where they hold a space, `"`, `%` or anything beyond printable ASCII.
    case http
    /// Kafka: attribute `id` is the header `ce_id`, `datacontenttype` is `content-type`, values
    /// are UTF-8 text as they are.
    case kafka
  }

  /// The binding the headers follow.
  public var binding: Binding
  /// The headers: one per attribute. Names are matched without regard to case on reading.
  public var headers: [String: String]
  /// The event's data as it is: JSON text for a JSON content type, the bytes otherwise.
  public var body: Data

  /// A message from its parts, as a server or a Kafka consumer received it.
  public init(binding: Binding, headers: [String: String], body: Data) {
    self.binding = binding
    self.headers = headers
    self.body = body
  }

  /// The prefix of an attribute's header: `ce-` or `ce_`.
  var prefix: String { binding == .http ? "ce-" : "ce_" }
  /// The header of `datacontenttype`.
  var contentTypeHeader: String { binding == .http ? "Content-Type" : "content-type" }
}

extension EventEnvelope {
  /// The envelope in the binary content mode of `binding`: attributes as headers (see
  /// ``cloudEventJSON(source:)`` for which), ``payload`` as the body.
  ///
  /// Extension values become text, as every header is: Integer `3` and Boolean `true` arrive as
  /// the strings `"3"` and `"true"` (see ``EventAttributeValue``).
  ///
  /// - Throws: ``EventLogError/malformed(_:)`` as ``cloudEventJSON(source:)`` does.
  public func cloudEventMessage(
    _ binding: CloudEventMessage.Binding, source: String? = nil
  ) throws
    -> CloudEventMessage
  {
    var message = CloudEventMessage(binding: binding, headers: [:], body: payload)
    for (name, value) in try cloudEventAttributes(source: source) {
      if name == "datacontenttype" {
        message.headers[message.contentTypeHeader] = value.headerText
      } else {
        let text = value.headerText
        message.headers[message.prefix + name] = binding == .http ? HeaderText.percentEncoded(text) : text
      }
    }
    return message
  }

  /// Reads a CloudEvent in the binary content mode: the inverse of
  /// ``cloudEventMessage(_:source:)``. Headers without the binding's prefix, other than the
  /// content type, are not the event's and are left out.
  ///
  /// A body of a JSON content type is checked by ``StrictJSON``'s grammar within `limits`,
  /// two levels less deep (the data, in a page, is inside its event's object and the page's
  /// array); an empty body is no data.
  ///
  /// - Throws: ``EventLogError/malformed(_:)`` when the headers are not a CloudEvents 1.0 event
  ///   (see ``init(cloudEventJSON:limits:)``), an HTTP value is not valid percent-encoding or
  ///   holds a byte beyond printable ASCII (the HTTP binding percent-encodes those), the
  ///   content type comes as an attribute's header too (`ce-datacontenttype`), or a JSON body
  ///   is not JSON.
  public init(cloudEventMessage message: CloudEventMessage, limits: JSONLimits = .standard) throws {
    var attributes = CloudEventContext()
    let prefix = message.prefix
    for (header, value) in message.headers {
      let lowered = header.lowercased()
      let isAttribute = lowered.hasPrefix(prefix)
      guard lowered == "content-type" || isAttribute else { continue }
      // A server hands raw bytes beyond ASCII on as U+FFFD: taken as they are, two ids that
      // differ there would be one.
      if message.binding == .http, !value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
        throw EventLogError.malformed(
          "the header \(header) holds a byte that is not printable ASCII; the HTTP binding percent-encodes those")
      }
      if lowered == "content-type" {
        attributes["datacontenttype"] = .string(value)
        continue
      }
      let name = String(lowered.dropFirst(prefix.count))
      // The binding carries `datacontenttype` in the content type's own header: a second one
      // would make which of the two counts depend on the order of a dictionary.
      guard name != "datacontenttype" else {
        throw EventLogError.malformed(
          "the header \(header) is not read in the binary mode: \(message.contentTypeHeader) is the data's content type"
        )
      }
      guard let text = message.binding == .http ? HeaderText.percentDecoded(value) : value else {
        throw EventLogError.malformed("the header \(header) is not valid percent-encoding: \(value)")
      }
      attributes[name] = .string(text)
    }
    try self.init(cloudEventContext: attributes, payload: message.body)
    if hasJSONPayload && !payload.isEmpty {
      try StrictJSON.checkEvent(payload, limits: limits.nested(in: 2), what: "the body")
    }
  }

  // MARK: Batches

  /// The media type of a JSON batch of CloudEvents.
  public static let cloudEventBatchContentType = "application/cloudevents-batch+json"

  /// Envelopes as a CloudEvents JSON batch (`application/cloudevents-batch+json`): a JSON array
  /// of structured events, in order.
  ///
  /// - Parameters:
  ///   - envelopes: the events of the batch, in order.
  ///   - source: the `source` of envelopes that have none of their own.
  /// - Throws: ``EventLogError/malformed(_:)`` as ``cloudEventJSON(source:)`` does.
  public static func cloudEventBatchJSON(_ envelopes: [EventEnvelope], source: String? = nil) throws -> Data {
    var json = Data("[".utf8)
    for (index, envelope) in envelopes.enumerated() {
      if index > 0 { json.append(UInt8(ascii: ",")) }
      json.append(try envelope.cloudEventJSON(source: envelope.source == nil ? source : nil))
    }
    json.append(UInt8(ascii: "]"))
    return json
  }

  /// The envelopes of a CloudEvents JSON batch, in order; an empty array gives none. The whole
  /// batch is checked by ``StrictJSON``'s grammar within `limits`, as
  /// ``init(cloudEventJSON:limits:)`` checks one event.
  ///
  /// - Throws: ``EventLogError/malformed(_:)`` when `json` is not JSON (saying where), not an
  ///   array of CloudEvents (naming the first element that is not one).
  public static func envelopes(
    cloudEventBatchJSON json: Data, limits: JSONLimits = .standard
  ) throws -> [EventEnvelope] {
    try envelopes(cloudEventBatchJSON: json, limits: limits, sharingStorage: false)
  }

  /// ``envelopes(cloudEventBatchJSON:limits:)``; with `sharingStorage`, the data of each event
  /// read in the common shape is a slice of `json` (its indices those of `json`), which it keeps
  /// whole: for a caller whose envelopes go when `json` does, as an HTTP request's do.
  package static func envelopes(
    cloudEventBatchJSON json: Data, limits: JSONLimits = .standard, sharingStorage: Bool
  ) throws -> [EventEnvelope] {
    // Read in one pass, under the grammar, when every element has the common shape; else
    // checked whole by the grammar, then element by element.
    if let batch = try CloudEventJSONReader.readBatch(json, limits: limits, sharingStorage: sharingStorage) {
      return batch
    }
    try StrictJSON.checkEvent(json, limits: limits, what: "the batch")
    guard let elements = JSONObjectScanner.elements(ofArray: json) else {
      throw EventLogError.malformed("a CloudEvents batch is a JSON array")
    }
    var envelopes: [EventEnvelope] = []
    envelopes.reserveCapacity(elements.count)
    for index in elements.indices {
      do {
        envelopes.append(try EventEnvelope(cloudEventJSON: elements[index], limits: limits))
      } catch {
        throw batchError(error, element: index)
      }
    }
    return envelopes
  }

  /// `error`, thrown for element `element` of a batch, as the batch's: a reason names the
  /// element.
  static func batchError(_ error: any Error, element: Int) -> any Error {
    guard case EventLogError.malformed(let reason) = error else { return error }
    return EventLogError.malformed("element \(element) of the batch: \(reason)")
  }
}

/// Percent-encoding of HTTP header values (CloudEvents HTTP binding, 3.1.3.2).
enum HeaderText {
  /// `text` with a space, `"`, `%` and every byte beyond printable ASCII as `%XX` of its UTF-8.
  static func percentEncoded(_ text: String) -> String {
    var encoded = ""
    for byte in text.utf8 {
      if byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "%") {
        encoded.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return encoded
  }

  /// The text of a percent-encoded value, nil when a `%` is not followed by two hex digits or
  /// the bytes are not UTF-8.
  static func percentDecoded(_ text: String) -> String? {
    guard text.contains("%") else { return text }
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      // Two hex digits each: `UInt8("-0", radix: 16)` is 0, and took `%-0` for a NUL.
      guard let high = iterator.next().flatMap(JSONScanner.hexValue),
        let low = iterator.next().flatMap(JSONScanner.hexValue)
      else { return nil }
      bytes.append(UInt8(high << 4 | low))
    }
    return String(bytes: bytes, encoding: .utf8)
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
