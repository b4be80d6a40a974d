import Foundation

/// An event with what a log or a transport needs to route it: id, time, wire name, version,
/// and the event's JSON.
public struct EventEnvelope: Sendable, Hashable {
  /// A unique id for this occurrence.
  public var id: UUID
  /// When the event was published.
  public var time: Date
  /// The event type's wire name.
  public var name: String
  /// The schema version the event was written with.
  public var version: Int
  /// The event as JSON (an object with the schema's wire keys).
  public var payload: Data

  /// Creates an envelope from its parts.
  public init(id: UUID, time: Date, name: String, version: Int, payload: Data) {
    self.id = id
    self.time = time
    self.name = name
    self.version = version
    self.payload = payload
  }

  /// Wraps `event`, encoding it as JSON.
  public init<E: Event>(_ event: E, id: UUID = UUID(), time: Date = Date()) throws {
    self.init(
      id: id, time: time, name: E.eventName, version: E.eventVersion, payload: try EventJSON.encoder.encode(event))
  }

  /// Decodes the payload as the type `catalog` has for ``name``.
  public func decode(using catalog: EventCatalog) throws -> any Event {
    guard let type = catalog.type(named: name) else {
      throw EventLogError.unknownEvent(name)
    }
    return try Self.decode(type, from: payload)
  }

  private static func decode<E: Event>(_ type: E.Type, from data: Data) throws -> E {
    try EventJSON.decoder.decode(E.self, from: data)
  }
}

/// The JSON settings of envelopes and logs: ISO 8601 dates with fractional seconds, sorted keys.
enum EventJSON {
  static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(timestamp(date))
    }
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  static var decoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let text = try decoder.singleValueContainer().decode(String.self)
      guard let date = date(text) else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 date: \(text)"))
      }
      return date
    }
    return decoder
  }

  static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: date)
  }

  static func date(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)
  }
}
