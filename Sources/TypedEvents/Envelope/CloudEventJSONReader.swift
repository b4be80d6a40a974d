import Foundation

/// Reads the top-level members of a CloudEvent in JSON: its attributes, and the bytes of its
/// `data` as written.
///
/// ``read(_:limits:)`` reads the shape CloudEvents writers produce without `JSONDecoder`, which
/// took most of a batch POST's own time: a flat object whose attribute values are strings
/// without escapes, whole numbers, Booleans or null, and whose `data` is any JSON value, checked
/// by ``StrictJSON``'s grammar as it is skipped. It gives nil for anything else (an escape in an
/// attribute, a fraction, an object or array as an attribute, a repeated key, bytes that break
/// the grammar); the caller then reads the event with ``readWithJSONDecoder(_:limits:)``, which
/// has ``StrictJSON`` check the whole text first, refusing it with where it breaks the grammar,
/// and lets `JSONDecoder` map only what it accepted. Tests check that both give the same
/// wherever ``read(_:limits:)`` answers.
enum CloudEventJSONReader {
  /// What a CloudEvent in JSON holds at its top level.
  struct Members: Equatable {
    /// Every attribute that is not null.
    var context = CloudEventContext()
    /// The value of `data_base64`; nil without it, or when it is null.
    var dataBase64: EventAttributeValue?
    /// The bytes of `data`'s value as written; nil without `data`, or when it is null, which
    /// the JSON format reads as no data.
    var data: Data?
  }

  /// The members of `json` when it has the common shape; nil when
  /// ``readWithJSONDecoder(_:limits:)`` must read it.
  static func read(_ json: Data, limits: JSONLimits = .standard) -> Members? {
    json.withUnsafeBytes { raw -> Members? in
      var scanner = JSONScanner(bytes: raw, limits: limits)
      var recent = RecentAttributes()
      var members = Members()
      guard scanner.whole({ $0.event(into: &members, recent: &recent, depth: 0) ? () : nil }) != nil else {
        return nil
      }
      return members
    }
  }

  /// The envelope of each element of the JSON array `json`, in order, when every element has
  /// the common shape; nil when any has not, or `json` is not an array. One pass over the
  /// batch, each event made into its envelope as it is read: locating the elements first took
  /// a tenth of reading a batch, and copying and releasing an array of their members a quarter.
  ///
  /// With `sharingStorage`, each envelope's data is a slice of `json`, which it keeps whole:
  /// no allocation and copy an event (and no two frees when it goes), for a caller whose
  /// envelopes go when `json` does (an HTTP request's). Its `payload`'s indices are then
  /// those of `json`.
  ///
  /// - Throws: what ``EventEnvelope/envelopes(cloudEventBatchJSON:limits:)`` throws for the first
  ///   element that is not an envelope, once every element is known to have the common shape;
  ///   the same error as reading the batch element by element gives.
  static func readBatch(
    _ json: Data, limits: JSONLimits = .standard, sharingStorage: Bool = false
  ) throws -> [EventEnvelope]? {
    try json.withUnsafeBytes { raw -> Result<[EventEnvelope], any Error>? in
      var scanner = JSONScanner(bytes: raw, limits: limits)
      return scanner.whole { $0.batch(sharing: sharingStorage ? json : nil) }
    }?.get()
  }

  /// The last text of each attribute whose value repeats from event to event of a batch:
  /// `specversion`, `source`, `type`, `datacontenttype` and `dataschema`. An equal text takes
  /// that `String` again instead of a new one: an allocation an attribute, for text longer
  /// than a small string holds.
  struct RecentAttributes {
    /// A text and its UTF-8, kept to compare the next value with: an array's bytes are there to
    /// compare at once, where a `String`'s were reached through a copy of it and a call.
    private struct Recent {
      var text: String
      var bytes: [UInt8]

      init(_ text: String) {
        self.text = text
        bytes = Array(text.utf8)
      }
    }

    private var specversion: Recent?
    private var source: Recent?
    private var type: Recent?
    /// What this package writes.
    private var datacontenttype: Recent? = Recent("application/json")
    private var dataschema: Recent?

    /// The value of the attribute `name`, the string at the scanner's index, which it skips;
    /// nil, leaving the scanner where it was, unless it is a plain string. The text kept for
    /// `name` is compared where it lies (its bytes passed the grammar as a plain string, under
    /// the same limits), and any other text is kept for the next event.
    mutating func string(named name: CloudEventContext.Name, scanner: inout JSONScanner) -> String? {
      switch name {
      case .specversion: Self.string(kept: &specversion, scanner: &scanner)
      case .source: Self.string(kept: &source, scanner: &scanner)
      case .type: Self.string(kept: &type, scanner: &scanner)
      case .datacontenttype: Self.string(kept: &datacontenttype, scanner: &scanner)
      case .dataschema: Self.string(kept: &dataschema, scanner: &scanner)
      default: scanner.plainString()
      }
    }

    private static func string(kept: inout Recent?, scanner: inout JSONScanner) -> String? {
      if let kept, kept.bytes.withUnsafeBytes({ scanner.skipString(exactly: $0) }) { return kept.text }
      guard let bytes = scanner.plainStringBytes() else { return nil }
      let text = String(decoding: bytes, as: UTF8.self)
      kept = Recent(text)
      return text
    }
  }

  /// The members of `json`, checked by ``StrictJSON`` and then read with `JSONDecoder`, and
  /// `data`'s bytes as written.
  ///
  /// - Throws: ``EventLogError/malformed(_:)`` when `json` breaks the grammar (saying where), is
  ///   not a JSON object, or a member but `data` is an object, an array or a fraction, which no
  ///   CloudEvents type is.
  static func readWithJSONDecoder(_ json: Data, limits: JSONLimits = .standard) throws -> Members {
    guard json.first(where: { !JSONScanner.isSpace($0) }) == UInt8(ascii: "{") else {
      try StrictJSON.checkEvent(json, limits: limits)
      throw EventLogError.malformed("a CloudEvent is a JSON object")
    }
    // Checked and taken apart in one pass; JSONDecoder maps the attributes alone, `data`'s bytes
    // are taken as they are.
    let parts = try StrictJSON.objectMembers(json, limits: limits, what: "the JSON text")
    // An Integer is written without a fraction or an exponent: JSONDecoder reads `1.0` and
    // `2147483647.0000000001` as Ints, which would store another number than was sent.
    let dataKeys = [Array("data".utf8), Array("data_base64".utf8)]
    for part in parts where !dataKeys.contains(part.key) {
      let value = json[(json.startIndex + part.value.lowerBound)..<(json.startIndex + part.value.upperBound)]
      guard let first = value.first, first == UInt8(ascii: "-") || JSONScanner.isDigit(first) else { continue }
      if value.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
        throw EventLogError.malformed(
          "the CloudEvent attribute \(String(decoding: part.key, as: UTF8.self)) has no CloudEvents type")
      }
    }
    let attributes: [String: CloudEventJSONValue]
    do {
      attributes = try JSONDecoder().decode(
        CloudEventJSONAttributes.self, from: StrictJSON.object(of: json, members: parts, leaving: "data")
      ).values
    } catch {
      throw EventLogError.malformed("a CloudEvent is a JSON object")
    }
    let dataKey = Array("data".utf8)
    var members = Members(
      data: parts.first { $0.key == dataKey }.flatMap { part in
        let value = json[(json.startIndex + part.value.lowerBound)..<(json.startIndex + part.value.upperBound)]
        // A value the grammar passed that begins with `n` is `null`.
        return value.first { !JSONScanner.isSpace($0) } == UInt8(ascii: "n") ? nil : Data(value)
      })
    for (key, value) in attributes where key != "data_base64" {
      switch value {
      case .null: continue  // null means absent (CloudEvents JSON format, 2.4)
      case .value(let attribute): members.context[key] = attribute
      case .other: throw EventLogError.malformed("the CloudEvent attribute \(key) has no CloudEvents type")
      }
    }
    // After the attributes, so that which error an event gets does not depend on hash order.
    switch attributes["data_base64"] {
    case .value(let encoded)?: members.dataBase64 = encoded
    case .other?: throw EventLogError.malformed("the CloudEvent's data_base64 is not base64")
    case .null?, nil: break
    }
    return members
  }
}
