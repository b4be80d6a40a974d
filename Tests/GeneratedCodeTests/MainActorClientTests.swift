import Foundation
import MainActorClient
import SampleEvents
import Testing
import TypedEvents

/// `MainActorClient` is compiled with default main-actor isolation and warnings as errors; these
/// tests run it: every subscription form delivers, and its handlers ran on the main actor (they
/// mutate the board's main-actor state, which the compiler allows only there).
@Suite("A main-actor target subscribes through every form")
struct MainActorClientTests {
  @Test @MainActor func everyFormDeliversToMainActorHandlers() async throws {
    let bus = EventBus()
    bus.keepLatestPerSubject(ListingSold.self)
    let listing = ListingID("l-1")
    bus.publish(ListingSold(id: listing, price: Money(amount: 5, currency: .euro), soldAt: Date()))
    let board = ListingBoard()
    board.bind(to: bus, listing: listing)
    bus.publish(ListingSold(id: listing, price: Money(amount: 7, currency: .euro), soldAt: Date()))
    bus.publish(ListingSold(id: ListingID("other"), price: Money(amount: 1, currency: .euro), soldAt: Date()))
    let expected: [String: Int] = [
      "type": 2, "group": 2, "about": 2, "group about": 1, "selector": 2, "helper": 1, "group helper": 2,
      "stream helper": 2,
    ]
    let total = expected.values.reduce(0, +)
    let deadline = Date().addingTimeInterval(120)  // only a hang reaches it
    while board.seen.count < total && Date() < deadline {
      try await Task.sleep(for: .milliseconds(2))
    }
    var counts: [String: Int] = [:]
    for line in board.seen {
      let form = line.replacingOccurrences(of: " Listings.ListingSold", with: "")
      counts[form, default: 0] += 1
    }
    #expect(counts == expected)
    #expect(board.immediateCount == 2)
    board.unbind()
    bus.publish(ListingSold(id: listing, price: Money(amount: 9, currency: .euro), soldAt: Date()))
    #expect(board.immediateCount == 2)
  }
}
