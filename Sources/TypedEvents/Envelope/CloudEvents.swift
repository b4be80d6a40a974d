import Foundation

extension EventEnvelope {
  /// The CloudEvents 1.0 attribute that carries ``version``: an extension attribute, since
  /// CloudEvents has none of its own for a schema version.
  public static let cloudEventVersionAttribute = "eventversion"

  /// The envelope as a CloudEvents 1.0 event in JSON (structured content mode, media type
  /// `application/cloudevents+json`), for brokers and services that speak CloudEvents.
  ///
  /// `id`, `source`, `subject`, `dataschema` and `datacontenttype` are the envelope's, `type` is
  /// the wire name and `time` an exact ``EventTimestamp``; an envelope without a time writes
  /// none. ``version`` goes into the extension attribute `eventversion` and each metadata entry
  /// into an extension attribute of its name, as its JSON type. A JSON payload is `data` as it
  /// is, any other `data_base64`; an empty payload writes neither.
  ///
  /// - Parameter source: the CloudEvents `source` to write instead of the envelope's, a URI
  ///   reference that names where the event happened, such as `/listings-service`. Needed when
  ///   the envelope has no source; nil forwards the envelope's own.
  /// - Throws: ``EventLogError/malformed(_:)`` when there is no source, for a metadata key that
  ///   is not a CloudEvents attribute name (lowercase letters and digits, at most 20) or is one
  ///   CloudEvents reserves, for an integer outside 32 bits, and for a time without timestamp.
  public func cloudEventJSON(source: String? = nil) throws -> Data {
    var attributes = try cloudEventAttributes(source: source)
    if !hasJSONPayload && !payload.isEmpty {
      // `data_base64` sorts before every other name (`_` before the letters).
      attributes.insert(("data_base64", .string(payload.base64EncodedString())), at: 0)
    }
    // Written by hand rather than with JSONSerialization, which bridged every value and sorted
    // the keys with a locale-aware comparison: 41 % of an HTTP endpoint's time in
    // Benchmarks/http.sh. Keys in code-point order, `data` last.
    var json = [UInt8]()
    json.reserveCapacity(256 + payload.count)
    json.append(UInt8(ascii: "{"))
    for (index, (key, value)) in attributes.enumerated() {
      if index > 0 { json.append(UInt8(ascii: ",")) }
      Self.appendJSONString(key, to: &json)
      json.append(UInt8(ascii: ":"))
      switch value {
      case .string(let text): Self.appendJSONString(text, to: &json)
      case .integer(let number): json += String(number).utf8
      case .boolean(let flag): json += (flag ? "true" : "false").utf8
      }
    }
    if hasJSONPayload && !payload.isEmpty {
      // `data` spliced in as written, so that its numbers keep every digit.
      json += ",\"data\":".utf8
      json += payload
    }
    json.append(UInt8(ascii: "}"))
    return Data(json)
  }

  /// Appends `text` as a JSON string: quotes, backslashes and control characters escaped, the
  /// rest as its UTF-8 (RFC 8259, section 7).
  package static func appendJSONString(_ text: String, to json: inout [UInt8]) {
    json.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { bytes in
      // Runs without escapes are copied whole: most strings are one run.
      var start = 0
      for (offset, byte) in bytes.enumerated() where needsEscape(byte) {
        json.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<offset]))
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6) { escape in
          guard let base = escape.baseAddress else { return }
          json.append(contentsOf: UnsafeBufferPointer(start: base, count: writeEscape(of: byte, to: base)))
        }
        start = offset + 1
      }
      json.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
    }
    json.append(UInt8(ascii: "\""))
  }

  /// The most bytes ``writeJSONString(_:to:)`` writes for `text`: its quotes, and six for each
  /// byte (the escape `\u00XX`).
  package static func jsonStringBound(_ text: String) -> Int { 2 + 6 * text.utf8.count }

  /// Writes `text` as a JSON string, as ``appendJSONString(_:to:)`` appends it, at
  /// `destination`, which has room for ``jsonStringBound(_:)`` bytes; returns how many it wrote.
  /// For an answer written in place, where an append to an array for each piece took most of
  /// writing it.
  package static func writeJSONString(_ text: String, to destination: UnsafeMutablePointer<UInt8>) -> Int {
    func write(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
      destination[0] = UInt8(ascii: "\"")
      var count = 1
      var start = 0
      for (offset, byte) in bytes.enumerated() where needsEscape(byte) {
        count += copy(UnsafeBufferPointer(rebasing: bytes[start..<offset]), to: destination + count)
        count += writeEscape(of: byte, to: destination + count)
        start = offset + 1
      }
      count += copy(UnsafeBufferPointer(rebasing: bytes[start...]), to: destination + count)
      destination[count] = UInt8(ascii: "\"")
      return count + 1
    }
    // Where the text lies, without a copy of the string (`withUTF8` is mutating).
    if let count = text.utf8.withContiguousStorageIfAvailable(write) { return count }
    var text = text
    return text.withUTF8(write)
  }

  /// Copies `run` to `destination`; returns its count.
  private static func copy(_ run: UnsafeBufferPointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>) -> Int {
    if let base = run.baseAddress { destination.update(from: base, count: run.count) }
    return run.count
  }

  /// Whether `byte` of a JSON string's text is written escaped.
  private static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
  }

  /// Writes the escape of a quote, a backslash or a control character, at most six bytes, at
  /// `destination`; returns how many.
  private static func writeEscape(of byte: UInt8, to destination: UnsafeMutablePointer<UInt8>) -> Int {
    let short: UInt8? =
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): byte
      case 0x0A: UInt8(ascii: "n")
      case 0x0D: UInt8(ascii: "r")
      case 0x09: UInt8(ascii: "t")
      case 0x08: UInt8(ascii: "b")
      case 0x0C: UInt8(ascii: "f")
      default: nil
      }
    destination[0] = UInt8(ascii: "\\")
    if let short {
      destination[1] = short
      return 2
    }
    let hex: StaticString = "0123456789abcdef"
    destination[1] = UInt8(ascii: "u")
    destination[2] = UInt8(ascii: "0")
    destination[3] = UInt8(ascii: "0")
    destination[4] = hex.utf8Start[Int(byte >> 4)]
    destination[5] = hex.utf8Start[Int(byte & 0x0F)]
    return 6
  }

  /// Reads a CloudEvents 1.0 event in JSON (structured content mode) as an envelope: the
  /// inverse of ``cloudEventJSON(source:)``.
  ///
  /// Any event the specification allows reads: an id that is any non-empty string, no `time`,
  /// `datacontenttype` with parameters, `data` of any JSON type or `data_base64`, and extension
  /// attributes of every CloudEvents type (Boolean and Integer as themselves, the others as the
  /// strings they travel as). `eventversion` becomes ``version`` (1 when absent). Written again
  /// with ``cloudEventJSON(source:)`` it gives the same attributes and data.
  ///
  /// Every byte is checked by ``StrictJSON``'s grammar within `limits` before anything reads
  /// it: a trailing comma, a repeated key at any depth, a raw control character in a string,
  /// a byte order mark, UTF-16 and a lone surrogate are refused, saying where. The event nests
  /// one level less deep than `limits` says, so that its data, in a page of events (an array),
  /// is within them; the data as deep in every content mode. What a store refuses in an
  /// attribute (``validate()``) is read, and refused when appended.
  ///
  /// - Throws: ``EventLogError/malformed(_:)`` when the JSON is not a CloudEvents 1.0 event:
  ///   not JSON under ``StrictJSON``, not an object, another `specversion`, no `id`, `source` or
  ///   `type`, a `time` that is not RFC 3339, `data_base64` that is not base64, or an attribute
  ///   of no CloudEvents type.
  public init(cloudEventJSON json: Data, limits: JSONLimits = .standard) throws {
    // The common shape read directly, under the grammar; anything else checked whole by it, then
    // mapped by JSONDecoder.
    let reading = limits.nested(in: 1)
    try self.init(
      cloudEventMembers: try CloudEventJSONReader.read(json, limits: reading)
        ?? CloudEventJSONReader.readWithJSONDecoder(json, limits: reading), limits: limits)
  }

  /// An envelope from the members of a CloudEvent in JSON; `limits` are those of a page of
  /// events, which holds `data_base64`'s JSON as data, two levels deep.
  init(cloudEventMembers members: consuming CloudEventJSONReader.Members, limits: JSONLimits = .standard) throws {
    // Each value is taken out of `members`, not copied: a copy, and the release of the value
    // left behind when `members` went, were an atomic retain and release of each attribute.
    var data = members.data.take()
    let encoded = members.dataBase64.take()
    let fromBase64 = encoded != nil
    let typed = members.context.datacontenttype != nil
    var payload = Data()
    if let encoded {
      guard let text = encoded.stringValue, let bytes = Data(base64Encoded: text) else {
        throw EventLogError.malformed("the CloudEvent's data_base64 is not base64")
      }
      payload = bytes
    } else if data != nil {
      // Null data is none: the readers give no bytes for it (its first byte, read here through
      // `Data`, was a fortieth of reading an event).
      payload = data.take() ?? Data()
    }
    let (id, source, time, name, version) = try Self.required(taking: &members.context)
    var dataContentType = try Self.dataContentType(members.context.datacontenttype.take())
    if fromBase64 {
      // Bytes: `data` without a type is JSON, `data_base64` is not (JSON format, 3.1). Said so,
      // or the envelope would call its bytes JSON; bytes said to be JSON are checked as such.
      if !typed {
        dataContentType = "application/octet-stream"
      } else if Self.isJSON(dataContentType: dataContentType), !payload.isEmpty {
        // As deep as data may be in a page: inside its event's object, in an array.
        try StrictJSON.checkEvent(payload, limits: limits.nested(in: 2), what: "the data_base64")
      }
    }
    // Non-JSON data in `data` is a JSON string that holds the text (JSON format, 3.1).
    if !Self.isJSON(dataContentType: dataContentType), let written = fromBase64 ? data : payload,
      written.first == UInt8(ascii: "\""), let text = try? JSONDecoder().decode(String.self, from: written)
    {
      payload = Data(text.utf8)
    }
    let subject = try Self.text(members.context.subject.take(), "subject")
    let dataSchema = try Self.text(members.context.dataschema.take(), "dataschema")
    var metadata: [String: EventAttributeValue] = [:]
    swap(&metadata, &members.context.extensions)
    self.init(
      id: id, source: source, time: time, name: name, version: version, subject: subject,
      dataContentType: dataContentType, dataSchema: dataSchema, metadata: metadata, payload: payload)
  }

  // MARK: Attributes, shared by every content mode

  /// Attribute names that CloudEvents 1.0 defines, and the one that carries the version.
  static let reservedAttributes: Set<String> = [
    "specversion", "id", "source", "type", "time", "subject", "datacontenttype", "dataschema", "data", "data_base64",
    cloudEventVersionAttribute,
  ]

  /// Whether `name` can be a CloudEvents extension attribute that is not one of the reserved.
  static func isExtensionName(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= 20 && !reservedAttributes.contains(name)
      && name.utf8.allSatisfy {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
      }
  }

  /// Every context attribute of the event (all but the data), in code-point order of their
  /// names: a list, not a dictionary, since each event's frame is written from it and hashing
  /// the names took a third of writing one.
  func cloudEventAttributes(source override: String?) throws -> [(name: String, value: EventAttributeValue)] {
    guard let source = override ?? source, !source.isEmpty else {
      throw EventLogError.malformed("the CloudEvent \(name) \(id) needs a source")
    }
    guard !id.isEmpty, !name.isEmpty else { throw EventLogError.malformed("a CloudEvent needs an id and a type") }
    var attributes: [(name: String, value: EventAttributeValue)] = []
    attributes.reserveCapacity(9 + metadata.count)
    // The defined attributes, in code-point order.
    attributes.append(("datacontenttype", .string(dataContentType ?? "application/json")))
    if let dataSchema { attributes.append(("dataschema", .string(dataSchema))) }
    attributes.append((Self.cloudEventVersionAttribute, .integer(version)))
    attributes.append(("id", .string(id)))
    attributes.append(("source", .string(source)))
    attributes.append(("specversion", "1.0"))
    if let subject { attributes.append(("subject", .string(subject))) }
    if let time {
      guard let text = EventTimestamp.string(from: time) else {
        throw EventLogError.malformed("the time of \(name) \(id) has no timestamp")
      }
      attributes.append(("time", .string(text)))
    }
    attributes.append(("type", .string(name)))
    guard !metadata.isEmpty else { return attributes }
    for (key, value) in metadata {
      guard Self.isExtensionName(key) else {
        throw EventLogError.malformed(
          "metadata key \"\(key)\" cannot be a CloudEvents attribute (lowercase letters and digits, not reserved)")
      }
      if case .integer(let number) = value, Int32(exactly: number) == nil {
        throw EventLogError.malformed("metadata \(key) = \(number) is not a CloudEvents Integer (32 bits)")
      }
      attributes.append((key, value))
    }
    // Extension names are none of the defined ones, so no two names are equal.
    attributes.sort { $0.name < $1.name }
    return attributes
  }

  /// An envelope from the context attributes of a CloudEvent, in any content mode, and its data.
  init(cloudEventContext context: consuming CloudEventContext, payload: consuming Data) throws {
    let (id, source, time, name, version) = try Self.required(taking: &context)
    let subject = try Self.text(context.subject.take(), "subject")
    let dataContentType = try Self.dataContentType(context.datacontenttype.take())
    let dataSchema = try Self.text(context.dataschema.take(), "dataschema")
    var metadata: [String: EventAttributeValue] = [:]
    swap(&metadata, &context.extensions)
    self.init(
      id: id, source: source, time: time, name: name, version: version, subject: subject,
      dataContentType: dataContentType, dataSchema: dataSchema, metadata: metadata, payload: payload)
  }

  /// The attributes an envelope requires, and its version, checked; each value taken out of
  /// `context`, not copied (see ``init(cloudEventMembers:limits:)``).
  private static func required(
    taking context: inout CloudEventContext
  ) throws -> (id: String, source: String, time: Date?, name: String, version: Int) {
    guard case .string(let specversion)? = context.specversion.take(), specversion == "1.0" else {
      throw EventLogError.malformed("not a CloudEvents 1.0 event (specversion)")
    }
    guard case .string(let id)? = context.id.take(), !id.isEmpty else {
      throw EventLogError.malformed("a CloudEvent needs a non-empty id")
    }
    guard case .string(let type)? = context.type.take(), !type.isEmpty else {
      throw EventLogError.malformed("the CloudEvent \(id) has no type")
    }
    guard case .string(let source)? = context.source.take(), !source.isEmpty else {
      throw EventLogError.malformed("the CloudEvent \(id) has no source")
    }
    var time: Date?
    switch context.time {
    case .date(let date)?: time = date
    case .other(let text)?:
      throw EventLogError.malformed("the CloudEvent \(id) has a time that is not RFC 3339: \(text)")
    case nil: break
    }
    var version = 1
    switch context.eventversion {
    case .integer(let number)?: version = number
    case .string(let text)?:  // binary mode: every attribute is text
      guard let number = Int(text) else {
        throw EventLogError.malformed("the CloudEvent \(id) has an eventversion that is not a number: \(text)")
      }
      version = number
    case .boolean?: throw EventLogError.malformed("the CloudEvent \(id) has an eventversion that is not a number")
    case nil: break
    }
    return (id, source, time, type, version)
  }

  /// The text of `value`, the String attribute `name`; nil when it is absent. A JSON number or
  /// Boolean is refused (JSON format, 2.2), not kept as the digits or word it was written with.
  private static func text(_ value: consuming EventAttributeValue?, _ name: String) throws -> String? {
    switch consume value {
    case .string(let text)?: return text
    case nil: return nil
    case .integer?, .boolean?:
      throw EventLogError.malformed("the CloudEvent attribute \(name) is a String; this one is a number or a Boolean")
    }
  }

  /// `datacontenttype`; nil for `application/json`, which this package writes for every
  /// envelope, and implies when absent: not kept twice.
  private static func dataContentType(_ value: consuming EventAttributeValue?) throws -> String? {
    let type = try text(value, "datacontenttype")
    return type == "application/json" ? nil : type
  }
}

/// The top-level members of a CloudEvent in JSON but `data`, whose bytes are taken as written
/// (``StrictJSON/objectMembers(_:limits:what:)``): decoding it as an attribute would fail three
/// times for an object.
struct CloudEventJSONAttributes: Decodable {
  var values: [String: CloudEventJSONValue] = [:]

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    for key in container.allKeys where key.stringValue != "data" {
      values[key.stringValue] = try container.decode(CloudEventJSONValue.self, forKey: key)
    }
  }
}

/// One top-level member of a CloudEvent in JSON, as far as attributes go.
enum CloudEventJSONValue: Decodable, Equatable {
  case null
  case value(EventAttributeValue)
  /// An array, an object or a fraction: `data` may be one, an attribute may not.
  case other

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    // Strings first: most attributes are, and each type that does not match throws an error,
    // which costs more than the decoding. A JSON value is of one type, so the order changes
    // nothing else.
    if container.decodeNil() {
      self = .null
    } else if let text = try? container.decode(String.self) {
      self = .value(.string(text))
    } else if let number = try? container.decode(Int.self) {
      self = .value(.integer(number))
    } else if let flag = try? container.decode(Bool.self) {
      self = .value(.boolean(flag))
    } else {
      self = .other
    }
  }
}
