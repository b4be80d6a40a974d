import BenchmarkEvents
import Foundation
import TypedEvents

/// userInfo encode + decode of a generated 5-field event with a nested type, against
/// hand-written `as?` code and against JSON.
func codecBenchmarks(iterations: Int) -> [Measurement] {
  let event = OrderPlaced(
    id: OrderID("o-1"), total: Money(amount: Decimal(string: "12.50") ?? 0, currency: "EUR"), items: 3,
    placedAt: Date(timeIntervalSince1970: 1_700_000_000), note: "gift")
  var results: [Measurement] = []
  results.append(Harness.measure("generated userInfo round trip", operations: iterations) {
    for _ in 0..<iterations { blackHole(try? OrderPlaced(userInfo: event.userInfo)) }
  })
  results.append(Harness.measure("hand-written userInfo with as? casts", operations: iterations) {
    for _ in 0..<iterations { blackHole(HandWritten.decode(HandWritten.encode(event))) }
  })
  let encoder = JSONEncoder()
  let decoder = JSONDecoder()
  results.append(Harness.measure("JSONEncoder + JSONDecoder", operations: iterations) {
    for _ in 0..<iterations {
      blackHole(try? decoder.decode(OrderPlaced.self, from: (try? encoder.encode(event)) ?? Data()))
    }
  })
  return results
}

/// What people write by hand today for the same event.
enum HandWritten {
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
