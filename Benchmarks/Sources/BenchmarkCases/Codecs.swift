import BenchmarkEvents
import Foundation
import TypedEvents

/// A `userInfo` round trip (encode, then decode) of a generated 5-field event with a nested type,
/// against hand-written code for the same dictionary, and against JSON.
@MainActor
func codecCases() -> [BenchmarkCase] {
  let section = "userInfo round trip of a 5-field event with a nested type (ns per round trip)"
  let event = OrderPlaced(
    id: OrderID("o-1"), total: Money(amount: Decimal(string: "12.50") ?? 0, currency: "EUR"), items: 3,
    placedAt: Date(timeIntervalSince1970: 1_700_000_000), note: "gift")
  func codec(_ id: String, _ name: String, _ roundTrip: @escaping () -> Void) -> BenchmarkCase {
    BenchmarkCase(id: "codec.\(id)", section: section, name: name, iterations: 50_000) { iterations in
      .sync { for _ in 0..<iterations { roundTrip() } }
    }
  }
  let encoder = JSONEncoder()
  let decoder = JSONDecoder()
  // Every row must give the event back, or it would time a failure.
  precondition((try? OrderPlaced(userInfo: event.userInfo)) == event, "generated round trip")
  precondition(Idiomatic.decode(Idiomatic.encode(event)) == event, "idiomatic round trip")
  precondition(Fastest.decode(Fastest.encode(event)) == event, "fastest round trip")
  precondition((try? decoder.decode(OrderPlaced.self, from: encoder.encode(event))) == event, "JSON round trip")
  return [
    codec("generated", "generated userInfo codec") { blackHole(try? OrderPlaced(userInfo: event.userInfo)) },
    codec("idiomatic", "idiomatic hand-written: as? casts, Decimal(string:)") {
      blackHole(Idiomatic.decode(Idiomatic.encode(event)))
    },
    codec("fastest", "fastest hand-written: one pass, integer decimal parsing") {
      blackHole(Fastest.decode(Fastest.encode(event)))
    },
    codec("json", "JSONEncoder + JSONDecoder") {
      blackHole(try? decoder.decode(OrderPlaced.self, from: (try? encoder.encode(event)) ?? Data()))
    },
  ]
}

/// What app code writes by hand today for the same event.
enum Idiomatic {
  @inline(never)
  static func encode(_ event: OrderPlaced) -> [AnyHashable: Any] {
    var info: [AnyHashable: Any] = [
      "id": event.id.rawValue,
      "total": ["amount": event.total.amount.description, "currency": event.total.currency] as [String: Any],
      "items": event.items,
      "placedAt": event.placedAt,
    ]
    if let note = event.note { info["note"] = note }
    return info
  }

  @inline(never)
  static func decode(_ info: [AnyHashable: Any]) -> OrderPlaced? {
    guard let id = info["id"] as? String, let total = info["total"] as? [String: Any],
      let amountText = total["amount"] as? String, let amount = Decimal(string: amountText),
      let currency = total["currency"] as? String, let items = info["items"] as? Int,
      let placedAt = info["placedAt"] as? Date
    else { return nil }
    return OrderPlaced(
      id: OrderID(id), total: Money(amount: amount, currency: currency), items: items, placedAt: placedAt,
      note: info["note"] as? String)
  }
}

/// The fastest hand-written code found for the same dictionary (scratch measurements of five ways
/// to read it): write a `[String: Any]` with its capacity reserved and upcast it once; read in one
/// pass over the `[AnyHashable: Any]`, switching on each key (looking keys up one by one boxes
/// each key in an `AnyHashable`; copying into a `[String: Any]` first hashes twice); parse
/// decimals of up to 19 digits with integer arithmetic. It checks less than the generated codec:
/// other decimals go to `Decimal(string:)`, which reads `"12abc"` as 12, and a mistyped optional
/// reads as nil.
enum Fastest {
  @inline(never)
  static func encode(_ event: OrderPlaced) -> [AnyHashable: Any] {
    var info: [String: Any] = [:]
    info.reserveCapacity(5)
    info["id"] = event.id.rawValue
    info["total"] = encode(event.total)
    info["items"] = event.items
    info["placedAt"] = event.placedAt
    if let note = event.note { info["note"] = note }
    return info as [AnyHashable: Any]
  }

  static func encode(_ money: Money) -> [String: Any] {
    var info: [String: Any] = [:]
    info.reserveCapacity(2)
    info["amount"] = money.amount.description
    info["currency"] = money.currency
    return info
  }

  @inline(never)
  static func decode(_ info: [AnyHashable: Any]) -> OrderPlaced? {
    var id: String?
    var total: Money?
    var items: Int?
    var placedAt: Date?
    var note: String?
    for (key, value) in info {
      switch key.base as? String {
      case "id": id = value as? String
      case "total": total = (value as? [String: Any]).flatMap(money)
      case "items": items = value as? Int
      case "placedAt": placedAt = value as? Date
      case "note": note = value as? String
      default: break
      }
    }
    guard let id, let total, let items, let placedAt else { return nil }
    return OrderPlaced(id: OrderID(id), total: total, items: items, placedAt: placedAt, note: note)
  }

  static func money(_ info: [String: Any]) -> Money? {
    guard let amount = (info["amount"] as? String).flatMap(decimal), let currency = info["currency"] as? String else {
      return nil
    }
    return Money(amount: amount, currency: currency)
  }

  /// `[-]digits[.digits]` of at most 19 digits by integer arithmetic; anything else by Foundation.
  static func decimal(_ text: String) -> Decimal? {
    var significand: UInt64 = 0
    var digits = 0
    var scale = 0
    var afterPoint = false
    var negative = false
    for (offset, byte) in text.utf8.enumerated() {
      switch byte {
      case UInt8(ascii: "-") where offset == 0: negative = true
      case UInt8(ascii: "."): if afterPoint { return Decimal(string: text) } else { afterPoint = true }
      case UInt8(ascii: "0")...UInt8(ascii: "9") where digits < 19:
        significand = significand &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
        digits += 1
        if afterPoint { scale += 1 }
      default: return Decimal(string: text)
      }
    }
    guard digits > 0 else { return nil }
    return Decimal(
      sign: negative && significand != 0 ? .minus : .plus, exponent: -scale, significand: Decimal(significand))
  }
}
