import Foundation

/// What ``CloudEventJSONReader/read(_:limits:)`` and ``CloudEventJSONReader/readBatch(_:limits:)`` read:
/// every method gives nil when it is not sure, and the whole read then gives nil.
extension JSONScanner {
  /// An array of events, each made into its envelope; the first element's error that is not
  /// one, once every element has been read. Each event's data is a slice of `sharing`, the
  /// bytes scanned, when it is given; else a copy of its bytes.
  mutating func batch(sharing: Data? = nil) -> Result<[EventEnvelope], any Error>? {
    guard current == UInt8(ascii: "[") else { return nil }
    index += 1
    var envelopes: [EventEnvelope] = []
    // Room for an event in every 128 bytes, more than a CloudEvent of any data takes: growing
    // the array moved every envelope read before. Capped: the body is not checked yet.
    envelopes.reserveCapacity(min(bytes.count / 128, 1_024))
    var recent = CloudEventJSONReader.RecentAttributes()
    // Kept until the end: an element after it that has not the common shape sends the whole
    // batch to the reader of single elements, and the error must be the one it gives.
    var failure: (any Error)?
    skipSpace()
    if current == UInt8(ascii: "]") {
      index += 1
      return .success(envelopes)
    }
    while true {
      skipSpace()
      // Read in place and moved into the envelope: returned as an optional, the members (over
      // 250 bytes) were copied twice and destroyed twice an event, a tenth of reading it.
      var members = CloudEventJSONReader.Members()
      guard envelopes.count < limits.maximumMembers,
        event(into: &members, recent: &recent, depth: 1, sharing: sharing)
      else {
        return nil
      }
      if failure == nil {
        do {
          envelopes.append(try EventEnvelope(cloudEventMembers: consume members, limits: limits))
        } catch {
          failure = EventEnvelope.batchError(error, element: envelopes.count)
        }
      }
      skipSpace()
      guard let separator = current else { return nil }
      index += 1
      if separator == UInt8(ascii: "]") { return failure.map { .failure($0) } ?? .success(envelopes) }
      guard separator == UInt8(ascii: ",") else { return nil }
    }
  }

  /// One event, an object inside `depth` arrays, read into `members` (new); false when it has
  /// not the common shape. Its data is a slice of `sharing`, the bytes scanned, when it is
  /// given; else a copy of its bytes.
  mutating func event(
    into members: inout CloudEventJSONReader.Members, recent: inout CloudEventJSONReader.RecentAttributes, depth: Int,
    sharing: Data? = nil
  ) -> Bool {
    guard depth < limits.maximumDepth, current == UInt8(ascii: "{") else { return false }
    index += 1
    var data: Range<Int>?
    // Names seen with null, which `members` leaves out: a repeat of one is a repeated key too. A
    // set: a list searched for each name made an event of many null attributes cost their square.
    // Extensions by their bytes, with no `String` made of them.
    var nulls: Set<CloudEventContext.Name> = []
    var nullExtensions: Set<WrittenName> = []
    skipSpace()
    if current == UInt8(ascii: "}") {
      index += 1
    } else {
      var count = 0
      while true {
        count += 1
        guard count <= limits.maximumMembers else { return false }
        skipSpace()
        // The name is matched by its bytes: a String for each took a fifth of reading an event. A
        // defined attribute's name is told where it lies, without scanning it as a string first
        // (a tenth of reading an event).
        let name: CloudEventContext.Name
        if let defined = definedName() {
          name = defined
        } else {
          // An extension attribute (`definedName()` tells every other name), read whole.
          guard extensionMember(into: &members, nulls: &nullExtensions, recent: &recent), let last = endOfMember()
          else {
            return false
          }
          if last { break }
          continue
        }
        skipSpace()
        guard current == UInt8(ascii: ":") else { return false }
        index += 1
        skipSpace()
        if name == .data {
          // A repeated key: which one counts is JSONDecoder's to say.
          guard data == nil else { return false }
          let start = index
          guard skipValue(depth: depth + 1) != nil else { return false }
          data = start..<index
        } else if name == .time && current == Self.quote {
          // Parsed where it lies: its text would be a String of its own.
          guard nulls.isEmpty || !nulls.contains(.time), let time = time(), members.context.insert(time: time) else {
            return false
          }
        } else {
          // A name seen with null is looked for only once there was one. Each defined name comes
          // once: an event of many attributes has extensions, read by `extensionMember`.
          guard nulls.isEmpty || !nulls.contains(name), let value = attributeValue(named: name, recent: &recent)
          else { return false }
          switch consume value {
          case .null:
            let isSet =
              switch name {
              case .dataBase64: members.dataBase64 != nil
              case .time: members.context.time != nil
              default: members.context[name] != nil
              }
            guard !isSet else { return false }
            nulls.insert(name)
          case .value(let attribute) where name == .dataBase64:
            guard members.dataBase64 == nil else { return false }
            members.dataBase64 = attribute
          case .value(let attribute):
            guard members.context.insert(attribute, named: name) else { return false }
          case .other:
            return false
          }
        }
        // Written out, not `endOfMember()`: through it, the common event read slower.
        skipSpace()
        guard let separator = current else { return false }
        index += 1
        if separator == UInt8(ascii: "}") { break }
        guard separator == UInt8(ascii: ",") else { return false }
      }
    }
    // A value the grammar passed that begins with `n` is `null`: no data.
    if let range = data, bytes[range.lowerBound] == UInt8(ascii: "n") {
      members.data = nil
    } else if let range = data, let sharing {
      members.data = sharing[(sharing.startIndex + range.lowerBound)..<(sharing.startIndex + range.upperBound)]
    } else {
      // From a pointer and a count, one copy: `Data`'s initializer from a sequence of bytes took
      // three times as long.
      members.data = data.map { range in
        bytes.baseAddress.map { Data(bytes: $0 + range.lowerBound, count: range.count) } ?? Data()
      }
    }
    return true
  }

  /// The name of a defined attribute (or `data`, `data_base64`) when the string at ``index`` is
  /// one, which it skips; nil, leaving ``index`` where it was, for any other string. The names
  /// hold no quote, backslash or control character, so their bytes and a closing quote after
  /// them are the whole string, as the grammar would have scanned it.
  @inline(__always)
  fileprivate mutating func definedName() -> CloudEventContext.Name? {
    guard index + 1 < bytes.count, bytes[index] == Self.quote else { return nil }
    switch bytes[index + 1] {
    case UInt8(ascii: "d"):
      if skipString(exactly: "data") { return .data }
      if skipString(exactly: "datacontenttype") { return .datacontenttype }
      if skipString(exactly: "dataschema") { return .dataschema }
      if skipString(exactly: "data_base64") { return .dataBase64 }
    case UInt8(ascii: "i"):
      if skipString(exactly: "id") { return .id }
    case UInt8(ascii: "s"):
      if skipString(exactly: "source") { return .source }
      if skipString(exactly: "specversion") { return .specversion }
      if skipString(exactly: "subject") { return .subject }
    case UInt8(ascii: "t"):
      if skipString(exactly: "type") { return .type }
      if skipString(exactly: "time") { return .time }
    case UInt8(ascii: "e"):
      if skipString(exactly: "eventversion") { return .eventversion }  // EventEnvelope.cloudEventVersionAttribute
    default:
      break
    }
    return nil
  }

  /// Skips the string at ``index`` when its content is `text`'s bytes, which hold no quote,
  /// backslash or control character; else leaves ``index`` where it was.
  @inline(__always)
  fileprivate mutating func skipString(exactly text: StaticString) -> Bool {
    skipString(exactly: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Skips the string at ``index`` (its opening quote) when its content is `content`, bytes
  /// without a quote, backslash or control character in valid UTF-8 (a string the grammar has
  /// passed); else leaves ``index`` where it was.
  @inline(__always)
  mutating func skipString(exactly content: UnsafeRawBufferPointer) -> Bool {
    let start = index + 1
    let end = start + content.count
    guard end < bytes.count, bytes[end] == Self.quote,
      UnsafeRawBufferPointer(rebasing: bytes[start..<end]).hasSameBytes(as: content)
    else { return false }
    index = end + 1
    return true
  }

  /// Skips whitespace and the `,` or `}` after a member: true after the `}` that ends the
  /// object, false after a `,`, nil when neither is there.
  @inline(__always)
  private mutating func endOfMember() -> Bool? {
    skipSpace()
    guard let separator = current, separator == UInt8(ascii: ",") || separator == UInt8(ascii: "}") else {
      return nil
    }
    index += 1
    return separator == UInt8(ascii: "}")
  }

  /// The member at ``index`` of an extension attribute (no defined name), its value set in
  /// `members`; a null one's name kept in `nulls` by its bytes: no `String` is made of the name
  /// of a null attribute (a seventh of reading an event of many). False for a repeated name, a
  /// value of no attribute type, or anything but the common shape.
  private mutating func extensionMember(
    into members: inout CloudEventJSONReader.Members, nulls: inout Set<WrittenName>,
    recent: inout CloudEventJSONReader.RecentAttributes
  ) -> Bool {
    let nameStart = index + 1
    guard skipString(escapes: false) else { return false }
    let written = UnsafeRawBufferPointer(rebasing: bytes[nameStart..<(index - 1)])
    skipSpace()
    guard current == UInt8(ascii: ":") else { return false }
    index += 1
    skipSpace()
    if current == UInt8(ascii: "n") {
      guard literal("null") else { return false }
      if !members.context.extensions.isEmpty,
        members.context.extensions[String(decoding: written, as: UTF8.self)] != nil
      {
        return false
      }
      return nulls.insert(WrittenName(written)).inserted
    }
    guard nulls.isEmpty || !nulls.contains(WrittenName(written)) else { return false }
    let name = CloudEventContext.Name.extension(String(decoding: written, as: UTF8.self))
    guard case .value(let attribute)? = attributeValue(named: name, recent: &recent) else { return false }
    return members.context.insert(attribute, named: name)
  }

  /// An attribute's value: a plain string, a whole number that fits `Int`, a Boolean or null.
  fileprivate mutating func attributeValue(
    named name: CloudEventContext.Name, recent: inout CloudEventJSONReader.RecentAttributes
  ) -> CloudEventJSONValue? {
    guard let byte = current else { return nil }
    switch byte {
    case Self.quote:
      return recent.string(named: name, scanner: &self).map { .value(.string($0)) }
    case UInt8(ascii: "t"):
      return literal("true") ? .value(.boolean(true)) : nil
    case UInt8(ascii: "f"):
      return literal("false") ? .value(.boolean(false)) : nil
    case UInt8(ascii: "n"):
      return literal("null") ? .null : nil
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return wholeNumber().map { .value(.integer($0)) }
    default:
      return nil
    }
  }

  /// The value of `time`, a plain string: its date when it is a timestamp, else the string.
  fileprivate mutating func time() -> CloudEventContext.Time? {
    guard let text = plainStringBytes() else { return nil }
    if let date = EventTimestamp.date(utf8: text.assumingMemoryBound(to: UInt8.self)) { return .date(date) }
    return .other(.string(String(decoding: text, as: UTF8.self)))
  }
}

/// A name by its bytes in the text being read, valid while it is: hashed and compared as bytes,
/// with no `String` made of it. Hashed by `Hasher`, seeded for each process, so that a client
/// cannot choose names that collide.
struct WrittenName: Hashable {
  let bytes: UnsafeRawBufferPointer

  init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  static func == (left: WrittenName, right: WrittenName) -> Bool { left.bytes.hasSameBytes(as: right.bytes) }

  func hash(into hasher: inout Hasher) { hasher.combine(bytes: bytes) }
}
