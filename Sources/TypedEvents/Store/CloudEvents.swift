import Foundation

extension EventEnvelope {
  /// The CloudEvents 1.0 attribute that carries ``version``: an extension attribute, since
  /// CloudEvents has none of its own for a schema version.
  public static let cloudEventVersionAttribute = "eventversion"

  /// The envelope as a CloudEvents 1.0 event in JSON (structured content mode), for brokers and
  /// services that speak CloudEvents.
  ///
  /// `id` is the UUID's string, `type` the wire name, `subject` the subject, `time` an exact
  /// ``EventTimestamp``, `datacontenttype` `application/json` and `data` the payload object as
  /// it is. ``version`` goes into the extension attribute `eventversion` and each metadata entry
  /// into an extension attribute of its name.
  ///
  /// - Parameter source: the CloudEvents `source`, a URI reference that names where the event
  ///   happened, such as `/listings-service`. The envelope has no such field.
  /// - Throws: ``EventLogError/malformed(_:)`` for a metadata key that is not a CloudEvents
  ///   attribute name (lowercase letters and digits, at most 20) or is one CloudEvents reserves,
  ///   and for an envelope that ``validate()`` refuses.
  public func cloudEventJSON(source: String) throws -> Data {
    try validate()
    guard let time = EventTimestamp.string(from: time) else {
      throw EventLogError.malformed("the time of \(name) \(id) has no timestamp")
    }
    var attributes: [String: Any] = [
      "specversion": "1.0", "id": id.uuidString, "source": source, "type": name, "time": time,
      "datacontenttype": "application/json", Self.cloudEventVersionAttribute: version,
    ]
    if let subject { attributes["subject"] = subject }
    for (key, value) in metadata {
      guard Self.isExtensionName(key) else {
        throw EventLogError.malformed(
          "metadata key \"\(key)\" cannot be a CloudEvents attribute (lowercase letters and digits, not reserved)")
      }
      attributes[key] = value
    }
    let header = try JSONSerialization.data(
      withJSONObject: attributes, options: [.sortedKeys, .withoutEscapingSlashes])
    // `data` spliced in as written, so that its numbers keep every digit.
    var json = Data(header.dropLast())
    json.append(contentsOf: Array(",\"data\":".utf8))
    json.append(payload)
    json.append(UInt8(ascii: "}"))
    return json
  }

  /// Reads a CloudEvents 1.0 event in JSON (structured content mode) as an envelope: the
  /// inverse of ``cloudEventJSON(source:)``, whose `source` it does not keep.
  ///
  /// Extension attributes with string values become ``metadata``; `eventversion` becomes
  /// ``version`` (1 when absent).
  ///
  /// - Throws: ``EventLogError/malformed(_:)`` when the JSON is not a CloudEvents 1.0 event, its
  ///   `id` is not a UUID, it has no `time`, or its `data` is not a JSON object.
  public init(cloudEventJSON json: Data) throws {
    guard let attributes = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else {
      throw EventLogError.malformed("a CloudEvent is a JSON object")
    }
    guard attributes["specversion"] as? String == "1.0" else {
      throw EventLogError.malformed("not a CloudEvents 1.0 event (specversion)")
    }
    guard let idText = attributes["id"] as? String, let id = UUID(uuidString: idText) else {
      throw EventLogError.malformed("the CloudEvent's id is not a UUID: \(attributes["id"] ?? "none")")
    }
    guard let type = attributes["type"] as? String, !type.isEmpty else {
      throw EventLogError.malformed("the CloudEvent \(idText) has no type")
    }
    guard let timeText = attributes["time"] as? String, let time = EventTimestamp.date(from: timeText) else {
      throw EventLogError.malformed("the CloudEvent \(idText) has no RFC 3339 time")
    }
    if let contentType = attributes["datacontenttype"] as? String, !contentType.hasPrefix("application/json") {
      throw EventLogError.malformed("the CloudEvent \(idText) carries \(contentType), not application/json")
    }
    guard let data = JSONObjectScanner.value(ofKey: "data", in: json), data.first == UInt8(ascii: "{") else {
      throw EventLogError.malformed("the CloudEvent \(idText) has no JSON object in data")
    }
    let version = (attributes[Self.cloudEventVersionAttribute] as? NSNumber)?.intValue ?? 1
    var metadata: [String: String] = [:]
    for (key, value) in attributes where Self.isExtensionName(key) {
      if let text = value as? String { metadata[key] = text }
    }
    self.init(
      id: id, time: time, name: type, version: version, subject: attributes["subject"] as? String,
      metadata: metadata, payload: data)
  }

  /// Attribute names that CloudEvents 1.0 defines, and the one that carries the version.
  private static let reservedAttributes: Set<String> = [
    "specversion", "id", "source", "type", "time", "subject", "datacontenttype", "dataschema", "data", "data_base64",
    cloudEventVersionAttribute,
  ]

  /// Whether `name` can be a CloudEvents extension attribute that is not one of the reserved.
  private static func isExtensionName(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= 20 && !reservedAttributes.contains(name)
      && name.utf8.allSatisfy {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
      }
  }
}
