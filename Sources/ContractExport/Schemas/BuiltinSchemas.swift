import EventSchema

/// The JSON Schema of each built-in type: what the generated `Codable` writes for it, and what
/// it reads back, with the JSON settings of the runtime's envelopes, logs and stores
/// (Foundation's `JSONEncoder` and `JSONDecoder`, dates as `EventTimestamp` strings).
enum BuiltinSchemas {
  /// The schema of `builtin`. Keywords in a fixed order: `type`, `format`, `contentEncoding`,
  /// `pattern`, `minLength`, the bounds, then `x-eventgen-type`.
  static func schema(_ builtin: BuiltinType) -> JSONObject {
    var schema = JSONObject()
    switch builtin {
    case .string:
      schema["type"] = "string"
    case .bool:
      schema["type"] = "boolean"
    case .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64:
      schema = integer(builtin)
    case .double:
      schema = double
    case .float:
      schema["type"] = "number"
      schema["format"] = "float"
      // The reader parses the text straight to a Float: anything that rounds to a finite Float
      // is taken, up to (not including) the midpoint between the largest Float and 2^128.
      schema["exclusiveMinimum"] = number("-" + floatLimit)
      schema["exclusiveMaximum"] = number(floatLimit)
      // A number other than zero that rounds to zero (at most 2^-150 in magnitude) is refused.
      schema["not"] = [
        "type": "number", "minimum": number("-" + floatUnderflow), "maximum": number(floatUnderflow),
        "not": ["const": 0],
      ]
    case .decimal:
      // Written with every digit, never in exponent notation; read within Decimal's range.
      // `format: decimal` tells code generators (datamodel-code-generator, Modelina) to read it
      // into a decimal type rather than a double, which would lose digits beyond the 17th.
      schema["type"] = "number"
      schema["format"] = "decimal"
      schema["minimum"] = number("-" + decimalLimit)
      schema["maximum"] = number(decimalLimit)
      schema["x-eventgen-type"] = "Decimal"
    case .date:
      // An EventTimestamp string; or, beyond the ±95 billion years RFC 3339 cannot write,
      // seconds since 2001-01-01 as a number, which the reader takes for any date.
      schema["anyOf"] = [["type": "string", "pattern": .string(timestampPattern)], .object(double)]
      schema["x-eventgen-type"] = "Date"
    case .uuid:
      schema["type"] = "string"
      schema["format"] = "uuid"
      schema["pattern"] = .string(uuidPattern)
      // `format` is an annotation, which eventgen reads as a `String` by default.
      schema["x-eventgen-type"] = "UUID"
    case .url:
      // A URL's `absoluteString`; relative URLs are URLs too. The reader percent-encodes what
      // a URI may not hold (`a b` reads as `a%20b`), and refuses the empty string and a first
      // segment with a colon that is no scheme (`2025-01-01T00:00:00Z`).
      schema["type"] = "string"
      schema["format"] = "uri-reference"
      schema["pattern"] = .string(urlPattern)
      schema["minLength"] = 1
      schema["x-eventgen-type"] = "URL"
    case .data:
      schema["type"] = "string"
      schema["contentEncoding"] = "base64"
      schema["pattern"] = .string(base64Pattern)
    case .json:
      // Any JSON value: the empty schema.
      break
    }
    return schema
  }

  /// An integer of `builtin`'s width: `int32` and `int64` are the standard formats; the other
  /// widths, and `Int` and `UInt` beside `Int64` and `UInt64`, say their Swift type in
  /// `x-eventgen-type` so that an importer gives back the same width.
  private static func integer(_ builtin: BuiltinType) -> JSONObject {
    var schema = JSONObject()
    schema["type"] = "integer"
    switch builtin {
    case .int32: schema["format"] = "int32"
    case .int, .int64: schema["format"] = "int64"
    default: break
    }
    if let bounds = builtin.integerBounds {
      schema["minimum"] = .number(JSONNumber(bounds.min))
      schema["maximum"] = .number(JSONNumber(bounds.max))
    }
    if builtin != .int32 && builtin != .int64 {
      schema["x-eventgen-type"] = .string(builtin.swiftName)
    }
    return schema
  }

  /// A Double. No bounds: ±`greatestFiniteMagnitude` on every Double said nothing a reader
  /// needs, and only a number that overflows to infinity (beyond 1.8e308) is refused.
  private static var double: JSONObject {
    var schema = JSONObject()
    schema["type"] = "number"
    schema["format"] = "double"
    return schema
  }

  /// Whether `builtin`'s schema is written once, as a definition named after the Swift type,
  /// and referred to: those with a pattern or bounds, which would otherwise repeat in every
  /// field (the timestamp pattern is 400 characters).
  static func isShared(_ builtin: BuiltinType) -> Bool {
    switch builtin {
    case .date, .uuid, .url, .data, .float, .decimal: return true
    default: return false
    }
  }

  /// `Double.greatestFiniteMagnitude`, exactly (a validator that reads numbers as doubles reads
  /// this text as that very double).
  static let doubleLimit = "1.7976931348623157e308"

  /// 2^128 − 2^103: halfway between `Float.greatestFiniteMagnitude` and 2^128. The reader
  /// rounds a number below it to a finite Float and refuses this one and beyond.
  static let floatLimit = "340282356779733661637539395458142568448"

  /// 2^-150, half the least nonzero Float: the reader rounds a number this small or smaller to
  /// zero and refuses it. This text reads as exactly 2^-150 into a Double.
  static let floatUnderflow = "7.006492321624085e-46"

  /// `Decimal.greatestFiniteMagnitude`: (2^128 − 1) × 10^127, as all 166 of its digits.
  static let decimalLimit = "340282366920938463463374607431768211455" + String(repeating: "0", count: 127)

  /// What `EventTimestamp.date(from:)` reads: a year of 4 to 11 digits, with a sign beyond
  /// 0000…9999; a day that exists in its month (29 February is allowed in every year); `T`,
  /// `t` or a space; seconds 00–59 with any fraction; `Z`, `z` or an offset.
  static let timestampPattern =
    "^[+-]?[0-9]{4,11}-"
    + "(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|[12][0-9]))"
    + "[Tt ](?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$"

  /// What `UUID(uuidString:)` reads: 8-4-4-4-12 hexadecimal digits of either case.
  static let uuidPattern = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"

  /// A scheme and a colon, or a first segment without a colon, as `URL(string:)` requires.
  static let urlPattern = "^(?:(?:[A-Za-z][A-Za-z0-9+.-]*)?:|[^:/?#]*(?:[/?#]|$))"

  /// Standard base64 with its padding, as `Data(base64Encoded:)` requires: no line breaks, no
  /// spaces, no URL-safe alphabet.
  static let base64Pattern = "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"

  private static func number(_ text: String) -> JSONValue {
    JSONNumber(text: text).map(JSONValue.number) ?? .null
  }
}
