import Foundation
import TestSupport
@_spi(Generated) import TypedEvents

/// Why the sampler could not make a value of some type: the test then fails, naming the type.
struct SamplingError: Error, CustomStringConvertible {
  var description: String
}

/// Open enums whose known cases the sampler may pick. Open enums have no protocol that lists
/// their cases (frozen ones are `CaseIterable`), so each is named here; the sampler fails on an
/// open enum that is missing, rather than testing only its `UNRECOGNIZED` case.
protocol KnownCases {
  static var knownCases: [Self] { get }
}

/// Types that make their own random values: containers, whose elements the sampler makes by
/// type through conditional conformances, and hand-written `external:` types.
protocol Sampled {
  static func sample(_ sampler: Sampler) throws(SamplingError) -> Self
}

extension Array: Sampled where Element: FieldValue {
  static func sample(_ sampler: Sampler) throws(SamplingError) -> [Element] {
    let count = sampler.containerCount()
    sampler.depth += 1
    defer { sampler.depth -= 1 }
    var result: [Element] = []
    for _ in 0..<count { result.append(try sampler.value(Element.self)) }
    return result
  }
}

extension Dictionary: Sampled where Key == String, Value: FieldValue {
  static func sample(_ sampler: Sampler) throws(SamplingError) -> [String: Value] {
    let count = sampler.containerCount()
    sampler.depth += 1
    defer { sampler.depth -= 1 }
    var result: [String: Value] = [:]
    for _ in 0..<count {
      // A repeated key would replace a value, and with it perhaps the infinity the sampler noted.
      let key = sampler.string()
      if result[key] == nil { result[key] = try sampler.value(Value.self) }
    }
    return result
  }
}

extension Optional: Sampled where Wrapped: FieldValue {
  static func sample(_ sampler: Sampler) throws(SamplingError) -> Wrapped? {
    sampler.chance(3) ? nil : try sampler.value(Wrapped.self)
  }
}

/// Reads "fields" by making up random values of the types asked for: `E(fields: RandomFields(…))`
/// is a random `E`, for any generated type, with no generator written per type.
struct RandomFields: FieldReader {
  let sampler: Sampler

  func decode<Value: DecodableField>(_ type: Value.Type, forKey key: String) throws(SamplingError) -> Value {
    try sampler.value(Value.self)
  }

  func decodeIfPresent<Value: DecodableField>(_ type: Value.Type, forKey key: String) throws(SamplingError) -> Value? {
    sampler.chance(4) ? nil : try sampler.value(Value.self)
  }

  func decode<Value: DecodableField>(
    _ type: Value.Type, forKey key: String, default defaultValue: @autoclosure () -> Value
  ) throws(SamplingError) -> Value {
    sampler.chance(4) ? defaultValue() : try sampler.value(Value.self)
  }

  /// A constant is not stored: there is nothing to make up.
  func decodeConstant<Value: DecodableField & Equatable>(
    _ expected: Value, forKey key: String, required: Bool
  ) throws(SamplingError) {}

  /// Other keys are rare: one in four values has a few.
  func decodeOtherKeys<Value: DecodableField>(
    _ type: Value.Type, excluding known: Set<String>
  ) throws(SamplingError) -> [String: Value] {
    guard sampler.chance(4) else { return [:] }
    return try sampler.value([String: Value].self).filter { !known.contains($0.key) }
  }
}

/// Makes random values of generated types, biased towards the edges: empty and very long
/// strings, odd Unicode, integer limits, signed zeros, subnormals and infinities, far dates.
///
/// Floating-point policy under test: NaN is never generated here, because an event holding NaN
/// is not equal to itself (`==` compares fields, and NaN ≠ NaN); its round trip is tested on
/// its own. Infinities are generated: `userInfo` keeps them, and JSON refuses them unless the
/// coder is given a non-conforming-float strategy.
final class Sampler {
  var random: SplitMix64
  /// How deep in containers the value being made is; past `maximumDepth` containers are empty,
  /// so that recursive types end.
  var depth = 0
  let maximumDepth = 4
  /// Container elements left for the event being made: recursive types such as a shape with
  /// children would otherwise grow exponentially with depth.
  var elementBudget = 0
  /// Whether the value made since the last reset holds an infinity (JSON refuses it by default).
  var madeNonFinite = false

  init(seed: UInt64) {
    random = SplitMix64(state: seed)
  }

  /// True once in `n` times.
  func chance(_ n: UInt64) -> Bool {
    random.next() % n == 0
  }

  func pick<T>(_ choices: [T]) -> T {
    choices[Int(random.next() % UInt64(choices.count))]
  }

  func containerCount() -> Int {
    guard depth < maximumDepth else { return 0 }
    let count = min(Int(random.next() % 4), elementBudget)
    elementBudget -= count
    return count
  }

  /// A random `E`, with the non-finite flag reset.
  func event<E: FieldCodable>(_ type: E.Type) throws(SamplingError) -> E {
    madeNonFinite = false
    depth = 0
    elementBudget = 16
    return try E(fields: RandomFields(sampler: self))
  }

  /// A random value of `type`: a built-in, a container, an enum, a strong identifier or a record.
  func value<Value>(_ type: Value.Type) throws(SamplingError) -> Value {
    if let value = builtin(Value.self) { return value }
    if let sampled = Value.self as? any Sampled.Type {
      return try cast(try sampled.sample(self))
    }
    if let enumeration = Value.self as? any CaseIterable.Type {
      return try cast(anyCase(enumeration))
    }
    if let enumeration = Value.self as? any KnownCases.Type {
      // Known cases mostly, sometimes a raw value this version does not know.
      if chance(4), let open = Value.self as? any StringEnumeration.Type, let unknown = unknownCase(open) {
        return try cast(unknown)
      }
      return try cast(knownCase(enumeration))
    }
    if let identifier = Value.self as? any StrongIdentifier.Type {
      return try cast(try wrapped(identifier))
    }
    if let record = Value.self as? any FieldCodable.Type {
      return try cast(try record.init(fields: RandomFields(sampler: self)))
    }
    throw SamplingError(description: "no sampler for \(Value.self); an open enum must be listed as KnownCases")
  }

  private func cast<Value>(_ value: Any) throws(SamplingError) -> Value {
    guard let typed = value as? Value else {
      throw SamplingError(description: "made \(type(of: value)), not \(Value.self)")
    }
    return typed
  }

  private func anyCase<E: CaseIterable>(_ type: E.Type) -> E {
    pick(Array(E.allCases))
  }

  private func knownCase<E: KnownCases>(_ type: E.Type) -> E {
    pick(E.knownCases)
  }

  private func unknownCase<E: StringEnumeration>(_ type: E.Type) -> E? {
    E(rawValue: "unknown-" + string())
  }

  private func wrapped<S: StrongIdentifier>(_ type: S.Type) throws(SamplingError) -> S {
    S(rawValue: try value(S.RawValue.self))
  }

  // MARK: Built-in types

  private func builtin<Value>(_ type: Value.Type) -> Value? {
    switch Value.self {
    case is String.Type: string() as? Value
    case is Bool.Type: chance(2) as? Value
    case is Int.Type: integer(Int.self) as? Value
    case is Int8.Type: integer(Int8.self) as? Value
    case is Int16.Type: integer(Int16.self) as? Value
    case is Int32.Type: integer(Int32.self) as? Value
    case is Int64.Type: integer(Int64.self) as? Value
    case is UInt.Type: integer(UInt.self) as? Value
    case is UInt8.Type: integer(UInt8.self) as? Value
    case is UInt16.Type: integer(UInt16.self) as? Value
    case is UInt32.Type: integer(UInt32.self) as? Value
    case is UInt64.Type: integer(UInt64.self) as? Value
    case is Double.Type: double() as? Value
    case is Float.Type: float() as? Value
    case is Decimal.Type: decimal() as? Value
    case is Date.Type: date() as? Value
    case is UUID.Type: uuid() as? Value
    case is URL.Type: url() as? Value
    case is Data.Type: data() as? Value
    default: nil
    }
  }

  static let unicodePieces = [
    "é", "e\u{301}", "ß", "日本語", "🇫🇷", "👩‍👩‍👧", "\u{200B}", "عربي", "\u{FFFD}", "\u{10FFFF}", "\u{7F}", "\n", "\t",
    "\r\n", "\u{0}", "\"", "\\", "'", " ", "%20", "<key>", "&amp;", "$null", "NaN", "-0",
  ]

  func string() -> String {
    switch random.next() % 64 {
    case 0..<8: return ""
    case 8: return String(repeating: pick(Self.unicodePieces), count: 1 + Int(random.next() % 1_000))
    case 9..<24:
      return (0..<Int(random.next() % 6)).map { _ in pick(Self.unicodePieces) }.joined()
    default:
      let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-. ")
      return String((0..<Int(random.next() % 16)).map { _ in pick(letters) })
    }
  }

  func integer<T: FixedWidthInteger>(_ type: T.Type) -> T {
    switch random.next() % 6 {
    case 0: return pick([T.min, T.max, 0, 1, T.min &+ 1, T.max &- 1])
    case 1: return T(truncatingIfNeeded: random.next() % 256) &- (T.isSigned ? 128 : 0)
    default: return T(truncatingIfNeeded: random.next())
    }
  }

  func double() -> Double {
    switch random.next() % 6 {
    case 0:
      let edge = pick([
        0, -0.0, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        .leastNonzeroMagnitude, .leastNormalMagnitude, 0.1, 1e-300, 9_007_199_254_740_991,
      ])
      madeNonFinite = madeNonFinite || !edge.isFinite
      return edge
    case 1: return Double(Int64(truncatingIfNeeded: random.next()) % 1_000_000) / 100
    default:
      let value = Double(bitPattern: random.next())
      return value.isFinite ? value : Double(bitPattern: random.next() >> 2)
    }
  }

  func float() -> Float {
    switch random.next() % 6 {
    case 0:
      let edge = pick([
        Float(0), -0.0, .infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 0.1, 16_777_215,
      ])
      madeNonFinite = madeNonFinite || !edge.isFinite
      return edge
    default:
      let value = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
      return value.isFinite ? value : Float(bitPattern: UInt32(truncatingIfNeeded: random.next() >> 34))
    }
  }

  func decimal() -> Decimal {
    switch random.next() % 4 {
    case 0:
      return pick([
        Decimal(0), Decimal(1), Decimal(-1), Decimal.greatestFiniteMagnitude, Decimal.leastFiniteMagnitude,
        Decimal.leastNonzeroMagnitude, Decimal(string: "0.1") ?? 0,
      ])
    default:
      // Up to 38 significant digits (Decimal's precision), at a random scale.
      let digits = String((0..<(1 + Int(random.next() % 38))).map { _ in pick(Array("0123456789")) })
      let exponent = Int(random.next() % 121) - 60
      let sign = chance(2) ? "-" : ""
      return Decimal(string: "\(sign)\(digits)e\(exponent)", locale: Locale(identifier: "en_US_POSIX")) ?? 0
    }
  }

  func date() -> Date {
    switch random.next() % 4 {
    case 0:
      return pick([
        Date.distantPast, .distantFuture, Date(timeIntervalSince1970: 0), Date(timeIntervalSinceReferenceDate: -1e12),
        Date(timeIntervalSinceReferenceDate: 1e12),
      ])
    case 1:
      return Date(
        timeIntervalSinceReferenceDate: Double(Int64(truncatingIfNeeded: random.next()) % 100_000_000_000) / 1_000)
    default:
      let seconds = Double(bitPattern: random.next())
      return Date(timeIntervalSinceReferenceDate: seconds.isFinite ? seconds : 0)
    }
  }

  func uuid() -> UUID {
    let a = random.next()
    let b = random.next()
    return withUnsafeBytes(of: (a, b)) { bytes in
      UUID(
        uuid: (
          bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
          bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
    }
  }

  static let urls = [
    "https://example.com", "https://example.com/a/b?q=1&r=%20#frag", "file:///tmp/a%20b.txt",
    "mailto:someone@example.com",
    "https://user:pass@example.com:8443/", "https://xn--wgv71a119e.jp/%E3%83%91%E3%82%B9", "urn:isbn:0451450523",
    "https://example.com/?q=%F0%9F%87%AB%F0%9F%87%B7", "data:text/plain;base64,SGVsbG8=",
  ]

  func url() -> URL {
    let base = pick(Self.urls)
    let segment = String((0..<Int(random.next() % 12)).map { _ in pick(Array("abcXYZ019-._~")) })
    let text = chance(2) ? base : base.hasPrefix("https://example.com") ? "https://example.com/\(segment)" : base
    return URL(string: text) ?? URL(fileURLWithPath: "/")
  }

  func data() -> Data {
    let count = chance(64) ? 4_096 : Int(random.next() % 48)
    return Data((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) })
  }
}
