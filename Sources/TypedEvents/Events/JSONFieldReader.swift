import Foundation

/// Reads a ``FieldCodable`` type straight from JSON bytes, without `JSONDecoder`, for
/// ``EventEnvelope/decode(using:acceptingNewerVersions:)``.
///
/// Decoding an event's data with `JSONDecoder` took half of reading and checking a CloudEvents
/// batch (about 24,000 instructions for an event of two fields), most of it in the `Decoder`
/// protocol's containers, which it builds and looks up for every field. This reader reads the
/// shapes generated types have: strings without escapes, numbers, Booleans, RFC 3339
/// timestamps, UUIDs, URLs, identifiers (``StrongIdentifier``), string enums
/// (``StringEnumeration``), arrays, dictionaries with string keys, and nested ``FieldCodable``
/// values.
///
/// It answers only when it is sure that `JSONDecoder`, with the envelope's settings, would give
/// the same value, and throws ``Unsure`` for anything else: a missing key, a null where a value
/// must be, an escape, a fraction for an integer, a key repeated or not in ASCII, bytes that are
/// not JSON. The caller then decodes with `JSONDecoder`, which decides, and words any error.
/// For a type with a field of another type (`Decimal`, say), with a wire key not in ASCII, or
/// that keeps other keys (`additionalProperties`), ``Unsure/typeNotRead`` is true, and the
/// catalog's ``EventDecoding`` sends the type to `JSONDecoder` from then on.
/// Tests check that both give the same wherever this reader answers.
///
/// A ``FieldCodable`` type's `Decodable` conformance reads its fields with `init(fields:)`; so
/// does this reader, with itself as the ``FieldReader``.
struct JSONFieldReader: FieldReader {
  /// Thrown when the reader is not sure what `JSONDecoder` would do.
  struct Unsure: Error {
    /// Whether a field's type is one this reader does not read, whatever the data.
    var typeNotRead = false
  }

  /// One member of an object: the bytes of its key (between the quotes) and of its value.
  struct Member {
    let key: Range<Int>
    let value: Range<Int>
  }

  /// The JSON being read; valid only inside ``read(_:from:)``'s `withUnsafeBytes`.
  private let bytes: UnsafeRawBufferPointer
  /// The members of the object whose fields this reader reads.
  private let members: [Member]
  /// Whether `bytes` were checked by ``StrictJSON``, which refuses a repeated key at any depth.
  private let keysChecked: Bool

  private init(bytes: UnsafeRawBufferPointer, members: [Member], keysChecked: Bool) {
    self.bytes = bytes
    self.members = members
    self.keysChecked = keysChecked
  }

  /// `type` read from `json`. With `keysChecked`, the caller has had ``StrictJSON`` check
  /// `json`, repeated keys included, and the reader does not look for a repeat again: every byte
  /// that enters is checked once. (A key with an escape is still left to `JSONDecoder`.)
  ///
  /// - Throws: ``Unsure`` when the reader is not sure what `JSONDecoder` would give.
  static func read<Value: FieldCodable>(
    _ type: Value.Type, from json: Data, keysChecked: Bool = false
  ) throws(Unsure) -> Value {
    // `Value`, not `Value?`, as the result: in code not specialized for the type, as a
    // catalog's is, each `Value?` makes the runtime look up its metadata. Those look-ups were a
    // fifth of checking an event.
    do {
      return try json.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> Value in
        var scanner = JSONScanner(bytes: raw)
        guard let members = scanner.whole({ $0.objectMembers(depth: 0, keysChecked: keysChecked) }) else {
          throw Unsure()
        }
        return try Value(fields: JSONFieldReader(bytes: raw, members: members, keysChecked: keysChecked))
      }
    } catch let unsure as Unsure {
      throw unsure
    } catch {
      throw Unsure()
    }
  }

  // MARK: FieldReader

  func decode<Value: DecodableField>(_ type: Value.Type, forKey key: String) throws(Unsure) -> Value {
    guard let range = try member(key) else { throw Unsure() }
    return try value(Value.self, at: range)
  }

  func decodeIfPresent<Value: DecodableField>(_ type: Value.Type, forKey key: String) throws(Unsure) -> Value? {
    guard let range = try member(key) else { return nil }
    if isNull(range) {
      // `JSONValue` holds null itself (``DecodingFields/decodeIfPresent(_:forKey:)``).
      guard Value.self != JSONValue.self else { throw Unsure() }
      return nil
    }
    return try value(Value.self, at: range)
  }

  func decode<Value: DecodableField>(
    _ type: Value.Type, forKey key: String, default defaultValue: @autoclosure () -> Value
  ) throws(Unsure) -> Value {
    guard let range = try member(key), !isNull(range) else { return defaultValue() }
    return try value(Value.self, at: range)
  }

  func decodeConstant<Value: DecodableField & Equatable>(
    _ expected: Value, forKey key: String, required: Bool
  ) throws(Unsure) {
    guard let range = try member(key) else {
      if required { throw Unsure() }
      return
    }
    guard try value(Value.self, at: range) == expected else { throw Unsure() }
  }

  func decodeOtherKeys<Value: DecodableField>(
    _ type: Value.Type, excluding known: Set<String>
  ) throws(Unsure) -> [String: Value] {
    // A schema's `additionalProperties`: left to JSONDecoder, for this type from now on.
    throw Unsure(typeNotRead: true)
  }

  // MARK: Values

  /// The bytes of the value under `key`, nil when the object has no such key. Unsure of a key
  /// that is not ASCII: `JSONDecoder` would match a canonically equivalent key (`K` for the
  /// Kelvin sign), which bytes do not.
  private func member(_ key: String) throws(Unsure) -> Range<Int>? {
    var key = key
    let ascii = key.withUTF8 { $0.allSatisfy { $0 < 0x80 } }
    guard ascii else { throw Unsure(typeNotRead: true) }
    return key.withUTF8 { wanted in
      members.first {
        UnsafeRawBufferPointer(rebasing: bytes[$0.key]).hasSameBytes(as: UnsafeRawBufferPointer(wanted))
      }?
      .value
    }
  }

  private func isNull(_ range: Range<Int>) -> Bool {
    bytes[range.lowerBound] == UInt8(ascii: "n")
  }

  /// The value of `type` at `range`, which the scan found to be one JSON value.
  func value<Value>(_ type: Value.Type, at range: Range<Int>) throws(Unsure) -> Value {
    var scanner = JSONScanner(bytes: bytes, at: range.lowerBound)
    // The common types first, by their metatype: that costs less than a conformance lookup, and
    // the value is then of type `Value` itself, which needs no dynamic cast (a third of reading
    // a field with one).
    if Value.self == String.self { return try exactly(scanner.plainString()) }
    if Value.self == Int.self { return try exactly(scanner.wholeNumber()) }
    if Value.self == Bool.self { return try exactly(scanner.boolean()) }
    if Value.self == Double.self { return try exactly(scanner.finiteDouble()) }
    // The envelope's decoder takes a number as seconds since 2001: left to it.
    if Value.self == Date.self { return try exactly(scanner.plainString().flatMap(EventTimestamp.date(from:))) }
    if Value.self == UUID.self { return try exactly(scanner.plainString().flatMap(UUID.init(uuidString:))) }
    if Value.self == URL.self { return try exactly(scanner.plainString().flatMap { URL(string: $0) }) }
    return try otherValue(Value.self, at: range)
  }

  /// The value of a type that is not one of the common ones above. A function of its own, so
  /// that those need no metadata of `Value?`: each look-up was half the cost of reading a field.
  @inline(never)
  private func otherValue<Value>(_ type: Value.Type, at range: Range<Int>) throws(Unsure) -> Value {
    var scanner = JSONScanner(bytes: bytes, at: range.lowerBound)
    let read: Any?
    if let nested = Value.self as? any FieldCodable.Type {
      read = try object(nested, at: range)
    } else if let identifier = Value.self as? any StrongIdentifier.Type {
      read = try wrapped(identifier, at: range)
    } else if let enumeration = Value.self as? any StringEnumeration.Type {
      read = scanner.plainString().flatMap { enumeration.init(rawValue: $0) }
    } else if let integer = Value.self as? any FixedWidthInteger.Type {
      read = scanner.wholeNumber().flatMap { integer.init(exactly: $0) }
    } else if let array = Value.self as? any JSONFieldArray.Type {
      read = try array.read(by: self, at: range)
    } else if let dictionary = Value.self as? any JSONFieldDictionary.Type {
      read = try dictionary.read(by: self, at: range)
    } else {
      throw Unsure(typeNotRead: true)
    }
    guard let value = read as? Value else { throw Unsure() }
    return value
  }

  /// `read` as a `Value`, for a caller that has checked that `Read` is `Value`. Inlined, so
  /// that `Read` is known where it is called: looking up `Optional<Read>` took half its time.
  @inline(__always)
  private func exactly<Read, Value>(_ read: Read?) throws(Unsure) -> Value {
    guard let read else { throw Unsure() }
    precondition(Read.self == Value.self)
    return unsafeBitCast(read, to: Value.self)
  }

  private func object<Nested: FieldCodable>(_ type: Nested.Type, at range: Range<Int>) throws(Unsure) -> Nested {
    var scanner = JSONScanner(bytes: bytes, at: range.lowerBound)
    guard let members = scanner.objectMembers(depth: 1, keysChecked: keysChecked) else { throw Unsure() }
    return try Nested(fields: JSONFieldReader(bytes: bytes, members: members, keysChecked: keysChecked))
  }

  private func wrapped<Identifier: StrongIdentifier>(
    _ type: Identifier.Type, at range: Range<Int>
  ) throws(Unsure) -> Identifier {
    Identifier(rawValue: try value(Identifier.RawValue.self, at: range))
  }

  /// The members of the object at `range`, each value read as `Value`.
  fileprivate func entries<Value>(_ type: Value.Type, at range: Range<Int>) throws(Unsure) -> [String: Value] {
    var scanner = JSONScanner(bytes: bytes, at: range.lowerBound)
    // Distinct ASCII keys without escapes: which of two equal keys counts is JSONDecoder's to say.
    guard let members = scanner.objectMembers(depth: 1, keysChecked: keysChecked) else { throw Unsure() }
    var entries: [String: Value] = [:]
    entries.reserveCapacity(members.count)
    for member in members {
      let key = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[member.key]), as: UTF8.self)
      entries[key] = try value(Value.self, at: member.value)
    }
    return entries
  }

  /// The elements of the array at `range`, each read as `Element`.
  fileprivate func elements<Element>(_ type: Element.Type, at range: Range<Int>) throws(Unsure) -> [Element] {
    var scanner = JSONScanner(bytes: bytes, at: range.lowerBound)
    guard scanner.current == UInt8(ascii: "[") else { throw Unsure() }
    scanner.index += 1
    var elements: [Element] = []
    scanner.skipSpace()
    if scanner.current == UInt8(ascii: "]") { return elements }
    while true {
      scanner.skipSpace()
      let start = scanner.index
      // Checked to be JSON when the object around it was scanned: this only finds its end.
      guard scanner.skipValue(depth: 1) != nil else { throw Unsure() }
      elements.append(try value(Element.self, at: start..<scanner.index))
      scanner.skipSpace()
      guard let separator = scanner.current else { throw Unsure() }
      scanner.index += 1
      if separator == UInt8(ascii: "]") { return elements }
      guard separator == UInt8(ascii: ",") else { throw Unsure() }
    }
  }
}

/// A dictionary with string keys, whose values ``JSONFieldReader`` reads each as its value
/// type, from the members of an object.
private protocol JSONFieldDictionary {
  static func read(by reader: JSONFieldReader, at range: Range<Int>) throws(JSONFieldReader.Unsure) -> Self
}

extension Dictionary: JSONFieldDictionary where Key == String {
  fileprivate static func read(
    by reader: JSONFieldReader, at range: Range<Int>
  ) throws(JSONFieldReader.Unsure) -> [String: Value] {
    try reader.entries(Value.self, at: range)
  }
}

/// An array, whose elements ``JSONFieldReader`` reads each as its element type.
private protocol JSONFieldArray {
  static func read(by reader: JSONFieldReader, at range: Range<Int>) throws(JSONFieldReader.Unsure) -> Self
}

extension Array: JSONFieldArray {
  fileprivate static func read(
    by reader: JSONFieldReader, at range: Range<Int>
  ) throws(JSONFieldReader.Unsure) -> [Element] {
    try reader.elements(Element.self, at: range)
  }
}

extension JSONScanner {
  /// The members of the object at ``index``, each value checked by the grammar (`depth` objects
  /// and arrays around the object itself); nil unless the keys are distinct ASCII strings without
  /// escapes.
  /// ASCII, because `JSONDecoder` matches keys as `String`s, which compare canonically
  /// equivalent Unicode as equal, and bytes are compared here (the keys asked for are ASCII
  /// too: see `member(_:)`). With `keysChecked`, ``StrictJSON`` has refused repeated keys in
  /// these bytes already, and none is looked for.
  mutating func objectMembers(depth: Int, keysChecked: Bool = false) -> [JSONFieldReader.Member]? {
    guard current == UInt8(ascii: "{") else { return nil }
    index += 1
    var members: [JSONFieldReader.Member] = []
    // Room for the fields of most events at once, not grown from one.
    members.reserveCapacity(8)
    skipSpace()
    if current == UInt8(ascii: "}") {
      index += 1
      return members
    }
    guard depth < limits.maximumDepth else { return nil }
    // Past a few keys, the grammar's own record of an object's keys, which finds a repeat in
    // time linear in the keys: comparing each with every earlier one made an object of many keys
    // cost their square. Before that, each is compared with those before it, which allocates
    // nothing: the record's storage was an allocation or two an event. Made only then: even
    // empty, its three arrays cost a tenth of listing an event's members.
    var keys: OpenContainers?
    while true {
      skipSpace()
      let keyStart = index + 1
      guard members.count < limits.maximumMembers, skipString(escapes: false) else { return nil }
      let key = keyStart..<(index - 1)
      let keyBytes = UnsafeRawBufferPointer(rebasing: bytes[key])
      guard !keyBytes.contains(where: { $0 >= 0x80 }) else { return nil }
      // A repeated key, which the grammar refuses.
      if keysChecked {
        // Refused when the bytes were checked.
      } else if members.count < Self.keysComparedOneByOne {
        for member in members where UnsafeRawBufferPointer(rebasing: bytes[member.key]).hasSameBytes(as: keyBytes) {
          return nil
        }
      } else {
        if keys == nil {
          var record = OpenContainers()
          record.frames.append(.init(isObject: true, firstKey: 0))
          for member in members { _ = record.insertIsRepeat(.written(member.key), bytes: bytes) }
          keys = record
        }
        guard keys?.insertIsRepeat(.written(key), bytes: bytes) == false else { return nil }
      }
      skipSpace()
      guard current == UInt8(ascii: ":") else { return nil }
      index += 1
      skipSpace()
      let valueStart = index
      guard skipValue(depth: depth + 1) != nil else { return nil }
      members.append(JSONFieldReader.Member(key: key, value: valueStart..<index))
      skipSpace()
      guard let separator = current else { return nil }
      index += 1
      if separator == UInt8(ascii: "}") { return members }
      guard separator == UInt8(ascii: ",") else { return nil }
    }
  }

  /// A JSON number as the nearest `Double`, as `JSONDecoder` reads it (both round correctly);
  /// nil for one too large for a `Double`, or too small to be told from zero, both of which
  /// `JSONDecoder` refuses.
  mutating func finiteDouble() -> Double? {
    let start = index
    guard skipNumber() else { return nil }
    let number = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
    guard let value = Double(String(decoding: number, as: UTF8.self)), value.isFinite else { return nil }
    if value == 0 {
      // Zero only when the digits are: `1e-400` rounds to 0, and JSONDecoder refuses it.
      let mantissa = number.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
      guard mantissa.allSatisfy({ !Self.isDigit($0) || $0 == UInt8(ascii: "0") }) else { return nil }
    }
    return value
  }

  /// `true` or `false`.
  mutating func boolean() -> Bool? {
    if literal("true") { return true }
    if literal("false") { return false }
    return nil
  }
}
