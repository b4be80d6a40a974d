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
  /// The event's data: a JSON text for a JSON ``dataContentType`` (a JSON object for events of
  /// this package's schemas), the bytes themselves for any other; empty when the event has none.
  public var payload: Data

  /// Creates an envelope from its parts. ``validate()`` says whether a log or store accepts it.
  public init(
    id: String, source: String? = nil, time: Date?, name: String, version: Int, subject: String? = nil,
    dataContentType: String? = nil, dataSchema: String? = nil, metadata: [String: EventAttributeValue] = [:],
    payload: Data
  ) {
    self.id = id
    self.source = source
    self.time = time
    self.name = name
    self.version = version
    self.subject = subject
    self.dataContentType = dataContentType
    self.dataSchema = dataSchema
    self.metadata = metadata
    self.payload = payload
  }

  /// Wraps `event`, encoding it as JSON; the subject is taken from the event when it has one.
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
    self.init(
      id: id, source: source, time: time, name: name ?? E.eventName, version: E.eventVersion,
      subject: Self.subjectText(of: event), metadata: metadata, payload: try EventJSON.encoder.encode(event))
  }

  /// Whether ``payload`` is JSON: ``dataContentType`` is nil, `application/json`, or a
  /// `+json` type such as `application/cloudevents+json`, with or without parameters.
  public var hasJSONPayload: Bool {
    guard let type = dataContentType else { return true }
    let essence = type.split(separator: ";", maxSplits: 1).first.map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }
    guard let essence else { return false }
    return essence == "application/json" || essence == "text/json" || essence.hasSuffix("+json")
  }

  /// Decodes the payload as the type `catalog` has for ``name``.
  ///
  /// - Throws: ``EventLogError/unknownEvent(_:)`` when the catalog has no type of that name,
  ///   ``EventLogError/newerVersion(name:version:known:)`` when the envelope was written by a
  ///   newer schema than this build's and `acceptingNewerVersions` is false, or the JSON
  ///   decoder's error when the payload does not decode.
  public func decode(using catalog: EventCatalog, acceptingNewerVersions: Bool = false) throws -> any Event {
    try decodeSayingReader(using: catalog, acceptingNewerVersions: acceptingNewerVersions).event
  }

  /// ``decode(using:acceptingNewerVersions:)``, and whether ``JSONFieldReader`` read the data,
  /// which scans all of it at least as strictly as `validate()` parses it; `JSONDecoder` skims
  /// what no field reads, so data it decoded may hold what no JSON parser accepts (an escape
  /// such as `\q`, a number such as `1.2.3`) in a key the type ignores.
  package func decodeSayingReader(
    using catalog: EventCatalog, acceptingNewerVersions: Bool = false
  ) throws -> (event: any Event, readDirectly: Bool) {
    guard let decoding = catalog.decoding(named: name) else {
      throw EventLogError.unknownEvent(name)
    }
    if !acceptingNewerVersions && version > decoding.version {
      throw EventLogError.newerVersion(name: name, version: version, known: decoding.version)
    }
    return try decoding.decode(payload)
  }

  /// Throws ``EventLogError/malformed(_:)`` unless the envelope can be written as one line of a
  /// log or a row of a store and read back: a non-empty id and name, and a JSON payload that is
  /// an object on one line.
  public func validate() throws {
    try validateAllButPayloadSyntax()
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: payload)
    } catch {
      throw EventLogError.malformed("the payload of \(name) \(id) is not JSON")
    }
    guard object is [String: Any] else {
      throw EventLogError.malformed("the payload of \(name) \(id) is not a JSON object")
    }
  }

  /// ``validate()``, or, without `parsingPayload`, all of it but parsing the payload, for a
  /// caller that has parsed it itself, at least as strictly as `validate()` does: it must still
  /// begin with `{`.
  package func validate(parsingPayload: Bool) throws {
    guard parsingPayload else {
      try validateAllButPayloadSyntax()
      guard payloadIsJSONObject else {
        throw EventLogError.malformed("the payload of \(name) \(id) is not a JSON object")
      }
      return
    }
    try validate()
  }

  /// What ``validate()`` checks but that the payload parses as a JSON object: for a caller that
  /// parses the payload itself and checks that it begins with `{` (``payloadIsJSONObject``).
  package func validateAllButPayloadSyntax() throws {
    guard !id.isEmpty else { throw EventLogError.malformed("an envelope needs an id") }
    guard !name.isEmpty else { throw EventLogError.malformed("an envelope needs a name") }
    guard hasJSONPayload else {
      throw EventLogError.malformed("the payload of \(name) \(id) is \(dataContentType ?? ""), not JSON")
    }
    guard !payload.containsLineBreak else {
      throw EventLogError.malformed("the payload of \(name) \(id) spans more than one line")
    }
  }

  /// Whether the payload's first byte but whitespace is `{`: a payload known to be JSON is then
  /// an object.
  package var payloadIsJSONObject: Bool {
    // In the bytes: `Data`'s own iterator cost ten times as much, once for every event a POST
    // appends.
    payload.withUnsafeBytes { $0.first { $0 != 0x20 && $0 != 0x09 } == UInt8(ascii: "{") }
  }

  package static func subjectText(of event: some Event) -> String? {
    guard let identifiable = event as? any SubjectIdentifiable else { return nil }
    return text(of: identifiable)
  }

  private static func text(of identifiable: some SubjectIdentifiable) -> String {
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
