import Foundation

/// One envelope per line: `{"id":…,"metadata":{…},"name":…,"subject":…,"time":…,"version":…,"payload":{…}}`,
/// the header's keys sorted and the payload last, spliced in as written. `source`, `dataschema`
/// and `datacontenttype` appear only where the envelope has them, so lines written before they
/// existed read as they always did; ids were UUIDs then and read as their strings.
extension EventLog {
  struct Header: Codable {
    var id: String
    var source: String?
    var metadata: [String: EventAttributeValue]?
    var name: String
    var subject: String?
    var time: String?
    var version: Int
    var datacontenttype: String?
    var dataschema: String?
  }

  static func line(for envelope: EventEnvelope) throws -> Data {
    // Written by hand: `JSONEncoder` took about a third of an append's CPU. The bytes are those
    // swift-foundation's `JSONEncoder` writes with `.sortedKeys` and `.withoutEscapingSlashes`
    // (`EventLogLineTests` compares them): keys sorted by their UTF-8 bytes, as it sorts them.
    var json: [UInt8] = []
    json.reserveCapacity(160 + envelope.storedPayload.count)
    json.append(UInt8(ascii: "{"))
    // Keys in sorted order, members without a value left out, as `Header`'s encoding does.
    func key(_ name: StaticString) {
      if json.count > 1 { json.append(UInt8(ascii: ",")) }
      json.append(UInt8(ascii: "\""))
      json.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
      json.append(UInt8(ascii: "\""))
      json.append(UInt8(ascii: ":"))
    }
    func string(_ name: StaticString, _ value: String?) {
      guard let value else { return }
      key(name)
      EventEnvelope.appendJSONString(value, to: &json)
    }
    string("datacontenttype", envelope.dataContentType)
    string("dataschema", envelope.dataSchema)
    string("id", envelope.id)
    if !envelope.metadata.isEmpty {
      key("metadata")
      json.append(UInt8(ascii: "{"))
      for (index, name) in envelope.metadata.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        .enumerated()
      {
        if index > 0 { json.append(UInt8(ascii: ",")) }
        EventEnvelope.appendJSONString(name, to: &json)
        json.append(UInt8(ascii: ":"))
        switch envelope.metadata[name] {
        case .string(let text)?: EventEnvelope.appendJSONString(text, to: &json)
        case .integer(let number)?: json += String(number).utf8
        case .boolean(let flag)?: json += (flag ? "true" : "false").utf8
        case nil: break
        }
      }
      json.append(UInt8(ascii: "}"))
    }
    string("name", envelope.name)
    string("source", envelope.source)
    string("subject", envelope.subject)
    if let date = envelope.time {
      key("time")
      json.append(UInt8(ascii: "\""))
      guard EventTimestamp.append(date, to: &json) else {
        throw EventLogError.malformed("the time of \(envelope.name) \(envelope.id) has no timestamp")
      }
      json.append(UInt8(ascii: "\""))
    }
    key("version")
    json += String(envelope.version).utf8
    // The payload spliced in as the JSON it is, not a string of it: `{…,"payload":{…}}` (bytes
    // of another content type as their base64 string).
    json += ",\"payload\":".utf8
    json += envelope.storedPayload
    json += "}\n".utf8
    return Data(json)
  }

  static func envelope(from line: Data) throws(EventLogError) -> EventEnvelope {
    // The grammar decides, JSONDecoder only maps (it would take a trailing comma or a repeated
    // key), and only the header: the payload's bytes are taken as they are, found in the same
    // pass. Limits of its own: the line was checked with its appender's when it was written.
    let members: [(key: [UInt8], member: Range<Int>, value: Range<Int>)]
    do {
      members = try StrictJSON.objectMembers(line, limits: .stored, what: "the line")
    } catch {
      throw EventLogError.malformed("\(error)")
    }
    let header: Header
    do {
      header = try JSONDecoder().decode(
        Header.self, from: StrictJSON.object(of: line, members: members, leaving: "payload"))
    } catch {
      throw EventLogError.malformed("not an event envelope (id, time, name, version, payload): \(error)")
    }
    var time: Date?
    if let text = header.time {
      guard let date = EventTimestamp.date(from: text) else {
        throw EventLogError.malformed("not an RFC 3339 time: \(text)")
      }
      time = date
    }
    // The payload's bytes as written, not parsed and written again: numbers keep every digit.
    // Any JSON value: an object for most events, a string, number or array for some.
    let payloadKey = Array("payload".utf8)
    guard let range = members.first(where: { $0.key == payloadKey })?.value else {
      throw EventLogError.malformed("no payload")
    }
    // A copy of its own: a slice would keep the whole line, and index from where the line did.
    let payload = try EventEnvelope.payload(
      fromStored: Data(line[(line.startIndex + range.lowerBound)..<(line.startIndex + range.upperBound)]),
      dataContentType: header.datacontenttype)
    return EventEnvelope(
      id: header.id, source: header.source, time: time, name: header.name, version: header.version,
      subject: header.subject, dataContentType: header.datacontenttype, dataSchema: header.dataschema,
      metadata: header.metadata ?? [:], payload: payload)
  }
}

extension EventLog {
  /// The wire type and subject of a line in the shape ``line(for:)`` writes, read from the
  /// header alone: the scan stops at `payload`, which comes last, so a line costs what its
  /// header does whatever its payload's size. Nil when the line is not in that shape (a key
  /// or type with escapes, `name` or `subject` twice, bytes that are not JSON before the
  /// payload): then only decoding it can tell, and a filtered read decodes it.
  ///
  /// Nothing here is checked beyond what finding the two values takes, so a line it reads may
  /// still be refused by ``envelope(from:)``. A read uses it only to pass over lines its filter
  /// does not want, which it then neither keeps nor reports.
  static func typeAndSubject(of line: Data) -> (name: String, subject: String?)? {
    line.withUnsafeBytes { raw -> (name: String, subject: String?)? in
      var scanner = JSONScanner(bytes: raw, limits: .stored)
      scanner.skipSpace()
      guard scanner.current == UInt8(ascii: "{") else { return nil }
      scanner.index += 1
      var name: String?
      var subject: String??
      while true {
        scanner.skipSpace()
        guard scanner.current == JSONScanner.quote, let key = scanner.plainStringBytes() else { return nil }
        scanner.skipSpace()
        guard scanner.current == UInt8(ascii: ":") else { return nil }
        scanner.index += 1
        scanner.skipSpace()
        switch String(decoding: key, as: UTF8.self) {
        case "payload":
          return name.map { ($0, subject ?? nil) }
        case "name":
          guard name == nil, scanner.current == JSONScanner.quote, let value = scanner.plainString() else { return nil }
          name = value
        case "subject":
          guard subject == nil else { return nil }
          if scanner.literal("null") {
            subject = .some(nil)
          } else {
            guard scanner.current == JSONScanner.quote, let value = scanner.plainString() else { return nil }
            subject = value
          }
        default:
          guard scanner.skipValue(depth: 1) != nil else { return nil }
        }
        scanner.skipSpace()
        guard scanner.current == UInt8(ascii: ",") else { return nil }
        scanner.index += 1
      }
    }
  }
}
