import Foundation

/// The context attributes of one CloudEvent as a content mode carries them, not yet checked:
/// those CloudEvents 1.0 defines, and ``EventEnvelope/cloudEventVersionAttribute``, by name; the
/// extension attributes in a dictionary.
///
/// Properties rather than one dictionary: reading an event hashed each name three times (to
/// store it, to look it up, to filter out the defined ones), a quarter of reading a batch.
struct CloudEventContext: Equatable {
  var specversion: EventAttributeValue?
  var id: EventAttributeValue?
  var source: EventAttributeValue?
  var type: EventAttributeValue?
  /// `time`, read as a date when it is one: the JSON reader parses the text where it lies, and
  /// so makes no `String` of it (an allocation an event: the text is longer than a small
  /// string holds).
  var time: Time?
  var subject: EventAttributeValue?
  var datacontenttype: EventAttributeValue?
  var dataschema: EventAttributeValue?
  var eventversion: EventAttributeValue?
  /// Every other attribute, by name.
  var extensions: [String: EventAttributeValue] = [:]

  /// The value of `time`.
  enum Time: Equatable {
    /// A string that is an RFC 3339 timestamp (``EventTimestamp/date(from:)``), as its date.
    case date(Date)
    /// Any other value, as given, which no envelope takes.
    case other(EventAttributeValue)

    /// `value`, read as a date when it is a timestamp.
    init(_ value: EventAttributeValue) {
      self = value.dateValue.map(Time.date) ?? .other(value)
    }

    /// The value as an attribute: a date as its ``EventTimestamp`` text (which may be written
    /// otherwise than the text it was read from), else as given.
    var value: EventAttributeValue? {
      switch self {
      case .date(let date): EventAttributeValue.timestamp(date)
      case .other(let value): value
      }
    }
  }

  /// The name of a member of a CloudEvent in JSON, matched once: an attribute this type holds
  /// by name, `data`, `data_base64`, or an extension's.
  enum Name: Hashable {
    case specversion, id, source, type, time, subject, datacontenttype, dataschema, eventversion
    case data, dataBase64
    case `extension`(String)

    init(_ name: String) {
      var name = name
      self = name.withUTF8 { Name(UnsafeRawBufferPointer($0)) }
    }

    /// The name whose UTF-8 is `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) {
      // Inlined, so that each name's bytes are constants compared with two loads: called, it was
      // half of telling a name.
      @inline(__always)
      func equals(_ name: StaticString) -> Bool {
        bytes.count == name.utf8CodeUnitCount
          && UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount).hasSameBytes(as: bytes)
      }
      // By length first: most names are told apart by it alone.
      switch bytes.count {
      case 2 where equals("id"): self = .id
      case 4 where equals("type"): self = .type
      case 4 where equals("time"): self = .time
      case 4 where equals("data"): self = .data
      case 6 where equals("source"): self = .source
      case 7 where equals("subject"): self = .subject
      case 10 where equals("dataschema"): self = .dataschema
      case 11 where equals("specversion"): self = .specversion
      case 11 where equals("data_base64"): self = .dataBase64
      case 12 where equals("eventversion"): self = .eventversion  // EventEnvelope.cloudEventVersionAttribute
      case 15 where equals("datacontenttype"): self = .datacontenttype
      default: self = .extension(String(decoding: bytes, as: UTF8.self))
      }
    }
  }

  /// The attribute named `name`. `data` and `data_base64` hold the event's data, not an
  /// attribute: they read as nil, and setting them does nothing.
  subscript(name: String) -> EventAttributeValue? {
    get { self[Name(name)] }
    set { self[Name(name)] = newValue }
  }

  /// The attribute named `name`, as the subscript by `String` reads and sets it.
  subscript(name: Name) -> EventAttributeValue? {
    get {
      switch name {
      case .specversion: specversion
      case .id: id
      case .source: source
      case .type: type
      case .time: time?.value
      case .subject: subject
      case .datacontenttype: datacontenttype
      case .dataschema: dataschema
      case .eventversion: eventversion
      case .data, .dataBase64: nil
      case .extension(let name): extensions[name]
      }
    }
    set {
      switch name {
      case .specversion: specversion = newValue
      case .id: id = newValue
      case .source: source = newValue
      case .type: type = newValue
      case .time: time = newValue.map(Time.init)
      case .subject: subject = newValue
      case .datacontenttype: datacontenttype = newValue
      case .dataschema: dataschema = newValue
      case .eventversion: eventversion = newValue
      case .data, .dataBase64: break
      case .extension(let name): extensions[name] = newValue
      }
    }
  }

  /// Sets the attribute named `name` as the subscript does, and says whether it was unset: one
  /// match of the name, where a read and a write would make two. On false, a defined
  /// attribute keeps its value and an extension takes the new one: a caller gives up then.
  /// The value is taken, not copied: a copy and the caller's release of its own were a retain
  /// and a release of each attribute's text.
  mutating func insert(_ value: consuming EventAttributeValue, named name: Name) -> Bool {
    func fill(_ slot: inout EventAttributeValue?, _ value: consuming EventAttributeValue) -> Bool {
      guard slot == nil else { return false }
      slot = consume value
      return true
    }
    switch name {
    case .specversion: return fill(&specversion, value)
    case .id: return fill(&id, value)
    case .source: return fill(&source, value)
    case .type: return fill(&type, value)
    case .time: return insert(time: Time(value))
    case .subject: return fill(&subject, value)
    case .datacontenttype: return fill(&datacontenttype, value)
    case .dataschema: return fill(&dataschema, value)
    case .eventversion: return fill(&eventversion, value)
    case .data, .dataBase64: return true
    case .extension(let name): return extensions.updateValue(value, forKey: name) == nil
    }
  }

  /// Sets `time` as ``insert(_:named:)`` does.
  mutating func insert(time value: Time) -> Bool {
    guard time == nil else { return false }
    time = value
    return true
  }
}
