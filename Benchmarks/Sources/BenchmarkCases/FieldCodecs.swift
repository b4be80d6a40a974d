import BenchmarkEvents
import Foundation
import TypedEvents

/// The section of the per-field-type cases; the report turns them into one table.
public let fieldSection = "userInfo round trip per field type"

/// The field types of the per-field table, in its order, with the name each case id carries.
public let fieldTypes = [
  "String", "Int", "Double", "Bool", "Date", "Decimal", "UUID", "URL", "enum", "strong ID", "nested struct",
  "[String]", "[String: Int]", "String?",
]

/// For each field type, a round trip of an event of four fields of that type, generated and by
/// the fastest hand-written code; and of an event with no fields, whose cost the report
/// subtracts, so that a row is the cost of one field: (four fields − none) / 4.
@MainActor
func fieldCodecCases() -> [BenchmarkCase] {
  let date = Date(timeIntervalSince1970: 1_700_000_000)
  let money = Money(amount: Decimal(string: "12.50") ?? 0, currency: "EUR")
  let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
  let url = URL(string: "https://example.com/a") ?? URL(fileURLWithPath: "/")
  return [
    BenchmarkCase(id: "field.none.generated", section: fieldSection, name: "none generated", iterations: 50_000) { n in
      .sync { for _ in 0..<n { blackHole(try? NoFields(userInfo: NoFields().userInfo)) } }
    },
    BenchmarkCase(id: "field.none.fastest", section: fieldSection, name: "none fastest", iterations: 50_000) { n in
      .sync { for _ in 0..<n { blackHole(FourFields<String>.decodeNone(FourFields<String>.encode(nil))) } }
    },
  ]
    + fieldCases(
      "String", StringFields(a: "gift-wrap", b: "gift-wrap", c: "gift-wrap", d: "gift-wrap"), StringFields.init)
    + fieldCases("Int", IntFields(a: 42, b: 42, c: 42, d: 42), IntFields.init)
    + fieldCases("Double", DoubleFields(a: 12.5, b: 12.5, c: 12.5, d: 12.5), DoubleFields.init)
    + fieldCases("Bool", BoolFields(a: true, b: true, c: true, d: true), BoolFields.init)
    + fieldCases("Date", DateFields(a: date, b: date, c: date, d: date), DateFields.init)
    + fieldCases(
      "Decimal", DecimalFields(a: money.amount, b: money.amount, c: money.amount, d: money.amount), DecimalFields.init)
    + fieldCases("UUID", UUIDFields(a: uuid, b: uuid, c: uuid, d: uuid), UUIDFields.init)
    + fieldCases("URL", URLFields(a: url, b: url, c: url, d: url), URLFields.init)
    + fieldCases("enum", EnumFields(a: .paused, b: .paused, c: .paused, d: .paused), EnumFields.init)
    + fieldCases(
      "strong ID", IDFields(a: OrderID("o-1"), b: OrderID("o-1"), c: OrderID("o-1"), d: OrderID("o-1")), IDFields.init)
    + fieldCases("nested struct", NestedFields(a: money, b: money, c: money, d: money), NestedFields.init)
    + fieldCases(
      "[String]", ArrayFields(a: ["a", "b"], b: ["a", "b"], c: ["a", "b"], d: ["a", "b"]), ArrayFields.init)
    + fieldCases(
      "[String: Int]", DictionaryFields(a: ["a": 1], b: ["a": 1], c: ["a": 1], d: ["a": 1]), DictionaryFields.init)
    + fieldCases("String?", OptionalFields(a: "gift", b: "gift", c: "gift", d: "gift"), OptionalFields.init)
}

/// The two cases of one field type: `event` has fields a, b, c and d of type `T`, and `make`
/// is its memberwise initializer.
@MainActor
private func fieldCases<E: Event, T: HandWrittenField>(
  _ type: String, _ event: E, _ make: @escaping (T, T, T, T) -> E
) -> [BenchmarkCase] {
  let mirror = Mirror(reflecting: event).children.compactMap { $0.value as? T }
  precondition(mirror.count == 4, "\(E.self) must have four fields of type \(T.self)")
  let fields = (mirror[0], mirror[1], mirror[2], mirror[3])
  // Both codecs must give the event back, or the rows would time a failure.
  precondition((try? E(userInfo: event.userInfo)) == event, "generated round trip of \(E.self)")
  precondition(
    FourFields<T>.decode(FourFields<T>.encode(fields)).map(make) == event, "hand-written round trip of \(E.self)")
  return [
    BenchmarkCase(id: "field.\(type).generated", section: fieldSection, name: "\(type) generated", iterations: 50_000) {
      n in
      .sync { for _ in 0..<n { blackHole(try? E(userInfo: event.userInfo)) } }
    },
    BenchmarkCase(id: "field.\(type).fastest", section: fieldSection, name: "\(type) fastest", iterations: 50_000) {
      n in
      .sync { for _ in 0..<n { blackHole(FourFields<T>.decode(FourFields<T>.encode(fields)).map(make)) } }
    },
  ]
}

/// A field type's fastest hand-written property-list form.
protocol HandWrittenField {
  /// The value in the dictionary; nil leaves the key out.
  var handWritten: Any? { get }
  /// The value read back; `value` is nil when the key is missing.
  static func handWritten(_ value: Any?) -> Self?
}

/// The fastest hand-written `userInfo` code for four fields `a`…`d` (see `Fastest`): the same
/// dictionary the generated codec writes, read in one pass.
enum FourFields<T: HandWrittenField> {
  /// Encodes the four fields, or none for the event without fields (the same dictionary either
  /// way, so that subtracting the two leaves the cost of the fields).
  @inline(never)
  static func encode(_ fields: (T, T, T, T)?) -> [AnyHashable: Any] {
    var info: [String: Any] = [:]
    info.reserveCapacity(4)
    guard let fields else { return info as [AnyHashable: Any] }
    if let value = fields.0.handWritten { info["a"] = value }
    if let value = fields.1.handWritten { info["b"] = value }
    if let value = fields.2.handWritten { info["c"] = value }
    if let value = fields.3.handWritten { info["d"] = value }
    return info as [AnyHashable: Any]
  }

  @inline(never)
  static func decode(_ info: [AnyHashable: Any]) -> (T, T, T, T)? {
    var a: Any?
    var b: Any?
    var c: Any?
    var d: Any?
    for (key, value) in info {
      switch key.base as? String {
      case "a": a = value
      case "b": b = value
      case "c": c = value
      case "d": d = value
      default: break
      }
    }
    guard let a = T.handWritten(a), let b = T.handWritten(b), let c = T.handWritten(c), let d = T.handWritten(d) else {
      return nil
    }
    return (a, b, c, d)
  }

  /// The event without fields, read as `decode` reads: one pass, ignoring every key.
  @inline(never)
  static func decodeNone(_ info: [AnyHashable: Any]) -> NoFields? {
    for (key, value) in info { blackHole((key.base as? String, value)) }
    return NoFields()
  }
}

/// Types that are their own property-list form, read back with one `as?`.
protocol PlainField: HandWrittenField {}
extension PlainField {
  var handWritten: Any? { self }
  static func handWritten(_ value: Any?) -> Self? { value as? Self }
}
extension String: PlainField {}
extension Int: PlainField {}
extension Double: PlainField {}
extension Bool: PlainField {}
extension Date: PlainField {}
extension Array: PlainField, HandWrittenField where Element == String {}
extension Dictionary: PlainField, HandWrittenField where Key == String, Value == Int {}

extension Decimal: HandWrittenField {
  var handWritten: Any? { description }
  static func handWritten(_ value: Any?) -> Decimal? { (value as? String).flatMap(Fastest.decimal) }
}
extension UUID: HandWrittenField {
  var handWritten: Any? { uuidString }
  static func handWritten(_ value: Any?) -> UUID? { (value as? String).flatMap(UUID.init(uuidString:)) }
}
extension URL: HandWrittenField {
  var handWritten: Any? { absoluteString }
  static func handWritten(_ value: Any?) -> URL? { (value as? String).flatMap { URL(string: $0) } }
}
extension Status: HandWrittenField {
  var handWritten: Any? { rawValue }
  static func handWritten(_ value: Any?) -> Status? { (value as? String).map(Status.init(rawValue:)) }
}
extension OrderID: HandWrittenField {
  var handWritten: Any? { rawValue }
  static func handWritten(_ value: Any?) -> OrderID? { (value as? String).map(OrderID.init(rawValue:)) }
}
extension Money: HandWrittenField {
  var handWritten: Any? { Fastest.encode(self) }
  static func handWritten(_ value: Any?) -> Money? { (value as? [String: Any]).flatMap(Fastest.money) }
}
extension Optional: HandWrittenField where Wrapped == String {
  var handWritten: Any? { self }
  /// A missing key is nil, as the generated codec reads it.
  static func handWritten(_ value: Any?) -> String?? {
    guard let value else { return .some(nil) }
    return (value as? String).map { .some($0) }
  }
}
