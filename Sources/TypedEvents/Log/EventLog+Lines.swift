import Foundation

/// One envelope per line: `{"id":…,"metadata":{…},"name":…,"subject":…,"time":…,"version":…,"payload":{…}}`,
/// the header's keys sorted and the payload last, spliced in as written.
extension EventLog {
  struct Header: Codable {
    var id: UUID
    var metadata: [String: String]?
    var name: String
    var subject: String?
    var time: String
    var version: Int
  }

  static func line(for envelope: EventEnvelope) throws -> Data {
    guard let time = EventTimestamp.string(from: envelope.time) else {
      throw EventLogError.malformed("the time of \(envelope.name) \(envelope.id) has no timestamp")
    }
    let header = Header(
      id: envelope.id, metadata: envelope.metadata.isEmpty ? nil : envelope.metadata, name: envelope.name,
      subject: envelope.subject, time: time, version: envelope.version)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var line = try encoder.encode(header)
    // Splice the payload in as an object, not a string: `{…,"payload":{…}}`.
    line.removeLast()
    line.append(contentsOf: Array(",\"payload\":".utf8))
    line.append(envelope.payload)
    line.append(contentsOf: Array("}\n".utf8))
    return line
  }

  static func envelope(from line: Data) throws(EventLogError) -> EventEnvelope {
    let header: Header
    do {
      header = try JSONDecoder().decode(Header.self, from: line)
    } catch {
      throw EventLogError.malformed("not an event envelope (id, time, name, version, payload): \(error)")
    }
    guard let time = EventTimestamp.date(from: header.time) else {
      throw EventLogError.malformed("not an RFC 3339 time: \(header.time)")
    }
    // The payload's bytes as written, not parsed and written again: numbers keep every digit.
    guard let payload = JSONObjectScanner.value(ofKey: "payload", in: line), payload.first == UInt8(ascii: "{") else {
      throw EventLogError.malformed("no payload object")
    }
    return EventEnvelope(
      id: header.id, time: time, name: header.name, version: header.version, subject: header.subject,
      metadata: header.metadata ?? [:], payload: payload)
  }
}
