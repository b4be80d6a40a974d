import Foundation

/// An event with what a log, a store or a broker needs to route it: id, source, time, wire
/// name, version, the subject where the event has one, metadata, and the event's JSON.
///
/// The fields are those of a CloudEvents 1.0 event, so that an event that came from another
/// service (a string id such as `A234-1234-1234`, no time, its own source and extension
/// attributes) is kept and forwarded unchanged; see <doc:EventsAcrossLanguages>.
///
/// The payload of an event this package wrote is its JSON object with the schema's wire keys.
/// Dates inside it are ``EventTimestamp`` strings, exact to the last bit of the `Date`, so an
/// event decoded from an envelope is `==` to the event wrapped.
public struct EventEnvelope: Sendable, Hashable {
  // The initializers are in an extension, so that the compiler makes its own of the stored
  // properties in their order (`init(payload:id:…)`, `payload` first so that its labels are
  // not the public one's), and the public one calls it. That one builds the envelope at once:
  // an initializer that set each property built it in a place of its own and returned a copy
  // (a retain of every text in it, and their release), for every envelope made.

  /// The event's data: a JSON text for a JSON ``dataContentType`` (a JSON object for most events
  /// of this package's schemas; a string, number, Boolean or array for an event whose message is
  /// one), the bytes themselves for any other; empty when the event has none.
  public var payload: Data

  /// A unique id for this occurrence within its ``source``: consumers that may see an event
  /// twice (at-least-once delivery) use it to recognise the second time. A UUID's string for
  /// envelopes this package makes; any non-empty string for one read from elsewhere.
  public var id: String
  /// Where the event happened, a URI reference such as `/listings-service` (CloudEvents
  /// `source`); nil until a writer or the CloudEvents conversion names one.
  public var source: String?
  /// When the event happened; nil only for an event read from elsewhere without a time.
  public var time: Date?
  /// The event type's wire name.
  public var name: String
  /// The schema version the event was written with.
  public var version: Int
  /// What the event is about, for events with a subject (``SubjectIdentifiable``): the
  /// subject's raw value for strong identifiers, its description otherwise.
  public var subject: String?
  /// The media type of ``payload`` (CloudEvents `datacontenttype`), such as
  /// `application/json; charset=utf-8`; nil means `application/json`.
  public var dataContentType: String?
  /// A URI of the schema the payload adheres to (CloudEvents `dataschema`), if named.
  public var dataSchema: String?
  /// Attributes beside the event, such as a correlation id, a trace context or the writing
  /// service's name: CloudEvents extension attributes.
  public var metadata: [String: EventAttributeValue]
}

extension EventEnvelope {
  /// Creates an envelope from its parts. ``validate()`` says whether a log or store accepts it.
  public init(
    id: String, source: String? = nil, time: Date?, name: String, version: Int, subject: String? = nil,
    dataContentType: String? = nil, dataSchema: String? = nil, metadata: [String: EventAttributeValue] = [:],
    payload: Data
  ) {
    self.init(
      payload: payload, id: id, source: source, time: time, name: name, version: version, subject: subject,
      dataContentType: dataContentType, dataSchema: dataSchema, metadata: metadata)
  }

  /// Wraps `event`, encoding it as JSON (a ``BinaryEvent``'s data is its bytes, of its
  /// ``BinaryEvent/dataContentType``); the subject is taken from the event when it has one.
  ///
  /// The envelope's name is `name`, or by default ``Event/eventName``: an event known by
  /// several names may be sent under any of its ``Event/acceptedEventNames``. It throws
  /// ``EventLogError/malformed(_:)`` for a `name` that is none of them, and the JSON encoder's
  /// error.
  public init<E: Event>(
    _ event: E, id: String = UUID().uuidString, source: String? = nil, time: Date = Date(),
    name: String? = nil, metadata: [String: EventAttributeValue] = [:]
  ) throws {
    if let name, name != E.eventName, !E.acceptedEventNames.contains(name) {
      throw EventLogError.malformed("\(name) is not a wire name of \(E.self), which is known as \(E.eventName)")
    }
    if let binary = event as? any BinaryEvent {
      self.init(
        id: id, source: source, time: time, name: name ?? E.eventName, version: E.eventVersion,
        subject: Self.subjectText(of: event), dataContentType: Swift.type(of: binary).dataContentType,
        metadata: metadata, payload: binary.bytes)
      return
    }
    self.init(
      id: id, source: source, time: time, name: name ?? E.eventName, version: E.eventVersion,
      subject: Self.subjectText(of: event), metadata: metadata, payload: try EventJSON.encoder.encode(event))
  }

  /// The payload as a log's line or a store's row holds it: JSON as written, bytes of another
  /// content type as a JSON string of their base64.
  package var storedPayload: Data {
    hasJSONPayload ? payload : Data(("\"" + payload.base64EncodedString() + "\"").utf8)
  }

  /// The payload that ``storedPayload`` stored as `stored`, for an envelope of `dataContentType`.
  ///
  /// - Throws: ``EventLogError/malformed(_:)`` when bytes were to be stored but `stored` is not a
  ///   JSON string of base64.
  package static func payload(fromStored stored: Data, dataContentType: String?) throws(EventLogError) -> Data {
    guard !isJSON(dataContentType: dataContentType) else { return stored }
    // Base64's alphabet needs no escape in a JSON string: its text is between the quotes.
    guard stored.count >= 2, stored.first == UInt8(ascii: "\""), stored.last == UInt8(ascii: "\""),
      let bytes = Data(base64Encoded: Data(stored.dropFirst().dropLast()))
    else {
      throw EventLogError.malformed("the payload of \(dataContentType ?? "") is stored as no base64 string")
    }
    return bytes
  }

  /// Whether ``payload`` is JSON: ``dataContentType`` is nil, `application/json`, or a
  /// `+json` type such as `application/cloudevents+json`, with or without parameters.
  public var hasJSONPayload: Bool { Self.isJSON(dataContentType: dataContentType) }

  /// Whether a payload of the media type `dataContentType` is JSON, as ``hasJSONPayload`` says.
  static func isJSON(dataContentType: String?) -> Bool {
    guard let type = dataContentType else { return true }
    return MediaType.isJSON(type)
  }

  /// Decodes the payload as the type `catalog` has for ``name``.
  ///
  /// - Throws: ``EventLogError/unknownEvent(_:)`` when the catalog has no type of that name,
  ///   ``EventLogError/newerVersion(name:version:known:)`` when the envelope was written by a
  ///   newer schema than this build's and `acceptingNewerVersions` is false,
  ///   ``EventLogError/malformed(_:)`` when the payload is JSON for a ``BinaryEvent``, or the
  ///   JSON decoder's error when the payload does not decode (bytes of another content type are
  ///   read as JSON for any other event).
  public func decode(using catalog: EventCatalog, acceptingNewerVersions: Bool = false) throws -> any Event {
    try decodeSayingReader(using: catalog, acceptingNewerVersions: acceptingNewerVersions).event
  }

  /// ``decode(using:acceptingNewerVersions:)``, and whether ``JSONFieldReader`` read the data
  /// rather than `JSONDecoder`.
  package func decodeSayingReader(
    using catalog: EventCatalog, acceptingNewerVersions: Bool = false, keysChecked: Bool = false
  ) throws -> (event: any Event, readDirectly: Bool) {
    guard let decoding = catalog.decoding(named: name) else {
      throw EventLogError.unknownEvent(name)
    }
    return try decodeSayingReader(
      with: decoding, acceptingNewerVersions: acceptingNewerVersions, keysChecked: keysChecked)
  }

  /// ``decodeSayingReader(using:acceptingNewerVersions:keysChecked:)`` with the catalog's entry
  /// for ``name`` found by the caller.
  package func decodeSayingReader(
    with decoding: EventDecoding, acceptingNewerVersions: Bool = false, keysChecked: Bool = false
  ) throws -> (event: any Event, readDirectly: Bool) {
    if !acceptingNewerVersions && version > decoding.version {
      throw EventLogError.newerVersion(name: name, version: version, known: decoding.version)
    }
    // Bytes for a binary event: JSON text would be taken for them. (A JSON event's data sent as
    // bytes, `data_base64` without a content type, is read as JSON all the same.)
    if decoding.isBinary && hasJSONPayload {
      throw EventLogError.malformed(
        "\(name) \(id) holds JSON, but the data of \(name) is bytes of another content type")
    }
    // Bytes of another content type read as JSON (a JSON event's data sent as bytes) are held
    // to the grammar first, as JSON data is when it enters: Swift then reads what every other
    // language reads, or nothing (JSONDecoder takes the first of two equal keys, a byte order
    // mark and a trailing comma). No caps: the bytes may come from a store, written under
    // whatever limits their writer had. With `keysChecked`, the caller has had them checked.
    if !decoding.isBinary && !hasJSONPayload && !keysChecked {
      do {
        try StrictJSON.check(payload, limits: .stored)
      } catch {
        // As JSONDecoder says that bytes are no JSON.
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: [], debugDescription: "the data is not JSON at \(error)", underlyingError: error))
      }
      return try decoding.decode(payload, true)
    }
    return try decoding.decode(payload, keysChecked)
  }

  /// Throws ``EventLogError/malformed(_:)`` unless the envelope can be written as one line of a
  /// log or a row of a store, read back, and sent as a CloudEvent:
  /// - a non-empty id and name;
  /// - a JSON payload on one line, accepted by ``StrictJSON``'s grammar within
  ///   ``JSONLimits/standard`` (no repeated key at any depth, no trailing comma, UTF-8 only):
  ///   any JSON value, an object for most events, or a string, number, Boolean or array for an
  ///   event whose message is one; a payload of another ``dataContentType`` is bytes, any bytes
  ///   (a ``BinaryEvent``'s), which logs and stores keep as base64 text;
  /// - no control character (U+0000–U+001F, U+007F–U+009F) in any attribute's text, which
  ///   CloudEvents forbids and PostgreSQL's `text` and `jsonb` cannot hold (U+0000);
  /// - metadata keys that are CloudEvents extension names (lower-case letters and digits, at
  ///   most 20, none of the defined attributes' names) and integers of 32 bits;
  /// - a ``version`` of 32 bits, an ``id`` and a ``source`` of at most ``maximumIdentityBytes``
  ///   UTF-8 bytes each, and a ``time`` in the years 1 to 9999.
  public func validate() throws {
    try validate(payloadLimits: .standard)
  }

  /// ``validate()`` with the payload's JSON within `payloadLimits`.
  private func validate(payloadLimits: JSONLimits) throws {
    try validateAllButPayloadSyntax()
    guard hasJSONPayload else { return }
    try StrictJSON.checkEvent(payload, limits: payloadLimits, what: "the payload of \(name) \(id)")
  }

  /// Stops a debug build when ``validate()`` refuses the envelope, its payload's JSON within any
  /// limits (an endpoint may take more than ``JSONLimits/standard``): for a store given
  /// envelopes its caller has validated (``ValidatedEnvelopesAppending``). Nothing in a release
  /// build.
  package func assertValid() {
    #if DEBUG
      do {
        try validate(payloadLimits: .stored)
      } catch {
        assertionFailure("an envelope said to be validated is not: \(error)")
      }
    #endif
  }

  /// What ``validate()`` checks but the payload's JSON.
  private func validateAllButPayloadSyntax() throws {
    guard !id.isEmpty else { throw EventLogError.malformed("an envelope needs an id") }
    guard !name.isEmpty else { throw EventLogError.malformed("an envelope needs a name") }
    // Bytes that are not JSON are stored as base64 text, which has no line break.
    guard !hasJSONPayload || !payload.containsLineBreak else {
      throw EventLogError.malformed("the payload of \(name) \(id) spans more than one line")
    }
    try validateAttributes()
  }

  /// The bytes of the envelope's data and of its attributes' text: what a read of it holds in
  /// memory, as the byte budgets of reads count it. An event of large attributes and little
  /// data counts as large.
  public var byteCount: Int {
    // No array of the optional texts and no text made of a string value: counted for every
    // event a page or a stream reads.
    var count = payload.count + id.utf8.count + name.utf8.count + (source?.utf8.count ?? 0)
    count += (subject?.utf8.count ?? 0) + (dataContentType?.utf8.count ?? 0) + (dataSchema?.utf8.count ?? 0)
    for (key, value) in metadata {
      if case .string(let text) = value {
        count += key.utf8.count + text.utf8.count
      } else {
        count += key.utf8.count + value.headerText.utf8.count
      }
    }
    return count
  }

  /// The most UTF-8 bytes of an ``id`` and of a ``source``: PostgreSQL keeps the pair in a
  /// unique index, whose keys hold at most about 2,700 bytes.
  public static let maximumIdentityBytes = 1_024

  /// The first instant a ``time`` may be, 0001-01-01T00:00:00Z, and the first it may no longer
  /// be, 10000-01-01T00:00:00Z: RFC 3339 writes four-digit years, and Python's `datetime` takes
  /// no other (PostgreSQL's `timestamptz` ends in 294276, a JVM's `Instant` goes further).
  static let timeRange =
    Date(timeIntervalSinceReferenceDate: -63_113_904_000)..<Date(timeIntervalSinceReferenceDate: 252_423_993_600)

  /// The attribute rules of ``validate()``: every text free of control characters, every
  /// metadata key an extension name and every integer 32 bits, the id and the source at most
  /// ``maximumIdentityBytes`` each, the time in the years 1 to 9999: so that what a log or store
  /// takes, a CloudEvents reader and PostgreSQL take too.
  package func validateAttributes() throws {
    guard id.utf8.count <= Self.maximumIdentityBytes, (source?.utf8.count ?? 0) <= Self.maximumIdentityBytes else {
      throw EventLogError.malformed(
        "the id and the source of \(name) are at most \(Self.maximumIdentityBytes) bytes each; they have "
          + "\(id.utf8.count) and \(source?.utf8.count ?? 0)")
    }
    guard Int32(exactly: version) != nil else {
      throw EventLogError.malformed("the eventversion \(version) of \(name) is not a CloudEvents Integer (32 bits)")
    }
    if let time, !Self.timeRange.contains(time) {
      throw EventLogError.malformed(
        "the time of \(name) is outside the years 1 to 9999, which RFC 3339 writes and every reader takes")
    }
    func check(_ text: String?, _ attribute: String) throws {
      guard let text, let byte = Self.controlCharacter(in: text) else { return }
      throw EventLogError.malformed(
        "the \(attribute) of \(name) holds the control character U+\(String(byte, radix: 16, uppercase: true).leftPadded(to: 4))"
      )
    }
    try check(id, "id")
    try check(name, "type")
    try check(source, "source")
    try check(subject, "subject")
    try check(dataContentType, "datacontenttype")
    try check(dataSchema, "dataschema")
    guard !metadata.isEmpty else { return }
    for (key, value) in metadata {
      guard Self.isExtensionName(key) else {
        throw EventLogError.malformed(
          "metadata key \"\(key)\" cannot be a CloudEvents attribute (lower-case letters and digits, at most 20, not reserved)"
        )
      }
      switch value {
      case .integer(let number) where Int32(exactly: number) == nil:
        throw EventLogError.malformed("metadata \(key) = \(number) is not a CloudEvents Integer (32 bits)")
      case .string(let text): try check(text, "metadata \(key)")
      default: break
      }
    }
  }

  /// The first control character in `text` (U+0000–U+001F, U+007F–U+009F), as its code point.
  static func controlCharacter(in text: String) -> UInt32? {
    // Where the text lies: `withUTF8` is mutating, and its copy of the string was a retain and
    // a release of each attribute an event.
    if let found = text.utf8.withContiguousStorageIfAvailable(controlCharacter(in:)) { return found }
    var text = text
    return text.withUTF8(controlCharacter(in:))
  }

  /// The first control character in `bytes`, UTF-8, as ``controlCharacter(in:)-(String)`` finds it.
  private static func controlCharacter(in bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
    // Eight bytes at a time while each is printable ASCII (0x20 to 0x7E), as attributes
    // mostly are; from the first word that is not, byte by byte. A byte below 0x20 sets its
    // high bit when 0x20 is taken from it (whatever borrow comes from below), 0x7F when 1 is
    // added, and a byte from 0x80 has it set.
    var start = 0
    let raw = UnsafeRawBufferPointer(bytes)
    while start + 8 <= raw.count {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self))
      let flags = (word &- 0x2020_2020_2020_2020) | (word &+ 0x0101_0101_0101_0101) | word
      guard flags & 0x8080_8080_8080_8080 == 0 else { break }
      start += 8
    }
    for index in start..<bytes.count {
      let byte = bytes[index]
      if byte < 0x20 || byte == 0x7F { return UInt32(byte) }
      // U+0080–U+009F are C2 80 to C2 9F in UTF-8.
      if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
        return UInt32(bytes[index + 1])
      }
    }
    return nil
  }

  package static func subjectText(of event: some Event) -> String? {
    guard let identifiable = event as? any SubjectIdentifiable else { return nil }
    return subjectText(of: identifiable)
  }

  /// The text of `identifiable`'s subject, as an envelope keeps it.
  static func subjectText(of identifiable: some SubjectIdentifiable) -> String {
    let subject = identifiable.eventSubject
    if let text = subject as? String { return text }
    if let uuid = subject as? UUID { return uuid.uuidString }
    if let described = subject as? any CustomStringConvertible { return described.description }
    return String(describing: subject)
  }
}

/// The JSON settings of envelopes and logs: dates as exact ``EventTimestamp`` strings (beyond
/// the years those cover, as the number of seconds since 2001, exact too), sorted keys.
enum EventJSON {
  // Made once: a decoder per event was a twentieth of decoding a small one with it. Both are
  // `Sendable`, and their settings are never changed after this.
  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      if let text = EventTimestamp.string(from: date) {
        try container.encode(text)
      } else {
        // Not finite, or ~95 billion years away: no RFC 3339 form. The encoder refuses the former.
        try container.encode(date.timeIntervalSinceReferenceDate)
      }
    }
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      if let seconds = try? container.decode(Double.self) {
        return Date(timeIntervalSinceReferenceDate: seconds)
      }
      let text = try container.decode(String.self)
      guard let date = EventTimestamp.date(from: text) else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: decoder.codingPath, debugDescription: "not an RFC 3339 timestamp: \(text)"))
      }
      return date
    }
    return decoder
  }()
}
