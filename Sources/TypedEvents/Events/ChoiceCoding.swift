/// A choice between types, generated for a schema's `oneOf` or `anyOf`: an enum with a case
/// per member, `Codable` and in `userInfo` exactly as the member it holds.
public protocol SchemaChoice: Hashable, Sendable, Codable, PropertyListConvertible {}

/// How generated choices decode: by a tag, or by trying their members.
@_spi(Generated)
public enum ChoiceCoding {
  /// One member's decoding, by case name.
  public typealias Candidate<Value> = (name: String, decode: (any Decoder) throws -> Value)

  /// One member's decoding from a property-list value, by case name.
  public typealias PropertyListCandidate<Value> = (
    name: String, decode: (Any) throws(UserInfoDecodingError) -> Value
  )

  /// Why no member, or more than one, decoded.
  public struct NoMemberMatched: Error, Sendable, CustomStringConvertible {
    /// The choice's Swift name.
    public var choice: String
    /// The members that decoded (several for `oneOf`), or none.
    public var matched: [String]
    /// Each member's error when none decoded.
    public var errors: [String]

    /// Which members decoded, or why none did.
    public var description: String {
      if matched.count > 1 {
        return
          "the value is more than one of `\(choice)`'s members (\(matched.joined(separator: ", "))); `oneOf` takes exactly one"
      }
      return "the value is none of `\(choice)`'s members: " + errors.joined(separator: "; ")
    }
  }

  /// A member's value, decoded as a field of its type is (dates by the decoder's strategy).
  public static func decode<Value: Decodable>(_ type: Value.Type, from decoder: any Decoder) throws -> Value {
    try decoder.singleValueContainer().decode(Value.self)
  }

  /// A member's value, encoded as a field of its type is.
  public static func encode<Value: Encodable>(_ value: Value, to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }

  /// The string under `key` in the object `decoder` holds; nil when the key is missing or the
  /// value is not an object.
  public static func tag(in decoder: any Decoder, key: String) throws -> String? {
    guard let container = try? decoder.container(keyedBy: FieldKey.self) else { return nil }
    return try container.decodeIfPresent(String.self, forKey: FieldKey(stringValue: key))
  }

  /// The string under `key` in a property-list dictionary; nil when it has none.
  public static func tag(inPropertyList value: Any, key: String) -> String? {
    UserInfoReader.dictionary(value)?[key] as? String
  }

  /// `oneOf`: the one member that decodes; an error when none does or several do.
  public static func exactlyOne<Value>(
    _ decoder: any Decoder, choice: String, _ candidates: [Candidate<Value>]
  ) throws -> Value {
    var found: [(name: String, value: Value)] = []
    var errors: [String] = []
    for candidate in candidates {
      do {
        found.append((candidate.name, try candidate.decode(decoder)))
      } catch {
        errors.append("\(candidate.name): \(error)")
      }
    }
    guard found.count == 1, let only = found.first else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: NoMemberMatched(choice: choice, matched: found.map(\.name), errors: errors).description))
    }
    return only.value
  }

  /// `anyOf`: the first member that decodes, in the order the schema lists them.
  public static func first<Value>(
    _ decoder: any Decoder, choice: String, _ candidates: [Candidate<Value>]
  ) throws -> Value {
    var errors: [String] = []
    for candidate in candidates {
      do {
        return try candidate.decode(decoder)
      } catch {
        errors.append("\(candidate.name): \(error)")
      }
    }
    throw DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: decoder.codingPath,
        debugDescription: NoMemberMatched(choice: choice, matched: [], errors: errors).description))
  }

  /// `oneOf` for a property-list value.
  public static func exactlyOne<Value>(
    propertyList value: Any, choice: String, _ candidates: [PropertyListCandidate<Value>]
  ) throws(UserInfoDecodingError) -> Value {
    var found: [(name: String, value: Value)] = []
    var errors: [String] = []
    for candidate in candidates {
      do {
        found.append((candidate.name, try candidate.decode(value)))
      } catch {
        errors.append("\(candidate.name): \(error)")
      }
    }
    guard found.count == 1, let only = found.first else {
      throw UserInfoDecodingError(
        problem: .invalidValue(
          expected: "exactly one of \(choice)'s members",
          found: NoMemberMatched(choice: choice, matched: found.map(\.name), errors: errors).description))
    }
    return only.value
  }

  /// `anyOf` for a property-list value.
  public static func first<Value>(
    propertyList value: Any, choice: String, _ candidates: [PropertyListCandidate<Value>]
  ) throws(UserInfoDecodingError) -> Value {
    var errors: [String] = []
    for candidate in candidates {
      do {
        return try candidate.decode(value)
      } catch {
        errors.append("\(candidate.name): \(error)")
      }
    }
    throw UserInfoDecodingError(
      problem: .invalidValue(
        expected: "one of \(choice)'s members",
        found: NoMemberMatched(choice: choice, matched: [], errors: errors).description))
  }

  /// The choice that is an event's whole payload, read from the event's `userInfo`: the
  /// member's own keys, as ``writeWholePayload(_:to:)`` writes them.
  public static func wholePayload<Choice: SchemaChoice>(
    _ type: Choice.Type, from reader: UserInfoReader
  ) throws(UserInfoDecodingError) -> Choice {
    try Choice(propertyListValue: reader.entries)
  }

  /// Writes the choice that is an event's whole payload into the event's `userInfo`: the keys
  /// of the member it holds, each as a field of that member is written. A value no member
  /// matched (kept as JSON) is written as a property-list dictionary of its keys, which a
  /// choice reads back as that JSON; JSON `null`s are left out of it, as a property list has
  /// none (from an array too, so the elements after one move up), and a number that neither an
  /// `Int64` nor a `Double` holds exactly is the nearest `Double`. Its JSON keeps all of them.
  public static func writeWholePayload<Choice: SchemaChoice>(_ choice: Choice, to writer: inout UserInfoWriter) {
    var value = choice.propertyListValue
    if let text = value as? String, let json = try? JSONValue(jsonText: text), let object = json.propertyListObject {
      value = object
    }
    // Every member of an event's choice is an object (eventgen checks), so this is a dictionary.
    for (key, item) in UserInfoReader.dictionary(value) ?? [:] { writer.set(item, forKey: key) }
  }

  /// The JSON of a value whose tag no member has: its JSON text, as ``JSONValue`` writes itself
  /// into `userInfo`, or a property-list dictionary from elsewhere.
  public static func unrecognized(propertyList value: Any) throws(UserInfoDecodingError) -> JSONValue {
    if value is String { return try JSONValue(propertyListValue: value) }
    return try JSONValue(propertyListObject: value)
  }
}

extension JSONValue {
  /// The value as property-list objects, the inverse of ``init(propertyListObject:)``: nil for
  /// `null`, which members and elements that are `null` leave out; a decimal as a `Double`.
  var propertyListObject: Any? {
    switch self {
    case .null: return nil
    case .bool(let value): return value
    case .integer(let value): return value
    case .decimal: return doubleValue
    case .double(let value): return value
    case .string(let value): return value
    case .array(let elements): return elements.compactMap(\.propertyListObject)
    case .object(let members): return members.compactMapValues(\.propertyListObject)
    }
  }

  /// Reads a property-list value (a string, number, boolean, array or dictionary with string
  /// keys) as JSON; dates and data, which JSON has no form for, are refused.
  init(propertyListObject value: Any) throws(UserInfoDecodingError) {
    if let string = value as? String {
      self = .string(string)
    } else if PropertyListNumbers.isBoolean(value), let bool = value as? Bool {
      self = .bool(bool)
    } else if let integer: Int64 = PropertyListNumbers.integer(from: value) {
      self = .integer(integer)
    } else if let double = PropertyListNumbers.double(from: value) {
      self = .double(double)
    } else if let items = value as? [Any] {
      var elements: [JSONValue] = []
      for (index, item) in items.enumerated() {
        do {
          elements.append(try JSONValue(propertyListObject: item))
        } catch {
          throw error.prefixed(by: .index(index))
        }
      }
      self = .array(elements)
    } else if let entries = UserInfoReader.dictionary(value) {
      var members: [String: JSONValue] = [:]
      for (key, item) in entries {
        do {
          members[key] = try JSONValue(propertyListObject: item)
        } catch {
          throw error.prefixed(by: .key(key))
        }
      }
      self = .object(members)
    } else {
      throw .typeMismatch(expected: "a JSON value", found: value)
    }
  }
}
