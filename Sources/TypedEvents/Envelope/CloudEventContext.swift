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
  var time: EventAttributeValue?
  var subject: EventAttributeValue?
  var datacontenttype: EventAttributeValue?
  var dataschema: EventAttributeValue?
  var eventversion: EventAttributeValue?
  /// Every other attribute, by name.
  var extensions: [String: EventAttributeValue] = [:]

  /// The attribute named `name`. `data` and `data_base64` hold the event's data, not an
  /// attribute: they read as nil, and setting them does nothing.
  subscript(name: String) -> EventAttributeValue? {
    get {
      switch name {
      case "specversion": specversion
      case "id": id
      case "source": source
      case "type": type
      case "time": time
      case "subject": subject
      case "datacontenttype": datacontenttype
      case "dataschema": dataschema
      case EventEnvelope.cloudEventVersionAttribute: eventversion
      case "data", "data_base64": nil
      default: extensions[name]
      }
    }
    set {
      switch name {
      case "specversion": specversion = newValue
      case "id": id = newValue
      case "source": source = newValue
      case "type": type = newValue
      case "time": time = newValue
      case "subject": subject = newValue
      case "datacontenttype": datacontenttype = newValue
      case "dataschema": dataschema = newValue
      case EventEnvelope.cloudEventVersionAttribute: eventversion = newValue
      case "data", "data_base64": break
      default: extensions[name] = newValue
      }
    }
  }

  /// Sets the attribute named `name` as the subscript does, and says whether it was unset: one
  /// comparison of the name, where a read and a write would make two. On false, a defined
  /// attribute keeps its value and an extension takes the new one: a caller gives up then.
  mutating func insert(_ value: EventAttributeValue, named name: String) -> Bool {
    func fill(_ slot: inout EventAttributeValue?) -> Bool {
      guard slot == nil else { return false }
      slot = value
      return true
    }
    switch name {
    case "specversion": return fill(&specversion)
    case "id": return fill(&id)
    case "source": return fill(&source)
    case "type": return fill(&type)
    case "time": return fill(&time)
    case "subject": return fill(&subject)
    case "datacontenttype": return fill(&datacontenttype)
    case "dataschema": return fill(&dataschema)
    case EventEnvelope.cloudEventVersionAttribute: return fill(&eventversion)
    case "data", "data_base64": return true
    default: return extensions.updateValue(value, forKey: name) == nil
    }
  }
}
