import AllocationCounting
import EdgeCaseEvents
import Foundation
import SampleEvents
import Testing
import TypedEvents

/// How many heap allocations the calling thread makes in `body`.
private func allocations(_ body: () -> Void) -> UInt64 {
  allocation_counting_start()
  body()
  return allocation_counting_stop()
}

/// Keeps a result alive so that the optimizer cannot drop the work that made it.
@inline(never)
private func keep<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// `==` and `hash(into:)` of generated events and values run on every `Set` insert, dictionary
/// lookup and `#expect(a == b)`; they must not allocate.
@Suite(
  "Equality and hashing allocate nothing",
  .enabled(
    if: allocation_counting_available(), "allocation counting is off in sanitizer builds, which bring their own malloc")
)
struct EqualityAllocationTests {
  /// The counter itself works: otherwise the zero below would prove nothing.
  @Test func theCounterSeesAnAllocation() {
    let count = allocations {
      keep([Int](repeating: 7, count: 100))
    }
    #expect(count >= 1)
  }

  /// Nested values, arrays, dictionaries, optionals, strong identifiers and enums.
  @Test(arguments: [
    Fixtures.nested as any Event,
    Fixtures.sold,
    Fixtures.item,
    Fixtures.keywords,
  ])
  func equalityAndHashingOfAnEvent(_ event: any Event) {
    func check<E: Event>(_ event: E) {
      // A copy that shares no storage with the original, so that == compares contents.
      let copy = try? E(userInfo: event.userInfo)
      #expect(copy == event)
      // First calls fill caches and lazily made metadata outside the count.
      keep(copy == event)
      keep(event.hashValue)
      let count = allocations {
        for _ in 0..<10 {
          keep(copy == event)
          var hasher = Hasher()
          event.hash(into: &hasher)
          keep(hasher.finalize())
          keep(event.hashValue)
        }
      }
      #expect(count == 0, "\(E.self): \(count) allocations in 10 comparisons and hashes")
    }
    check(event)
  }

  /// A message with an array of attachments and a dictionary of reactions, inside an array.
  @Test func equalityAndHashingOfAPage() throws {
    let page = Fixtures.page
    let copy = try MessagesLoaded(userInfo: page.userInfo)
    #expect(copy == page)
    let different = MessagesLoaded(
      conversation: page.conversation, messages: page.messages, hasMore: !page.hasMore, loadedIn: page.loadedIn,
      score: page.score)
    keep(copy == page)
    keep(page.hashValue)
    let count = allocations {
      for _ in 0..<10 {
        keep(copy == page)
        keep(different == page)
        var hasher = Hasher()
        page.hash(into: &hasher)
        keep(hasher.finalize())
      }
    }
    #expect(count == 0, "\(count) allocations in 20 comparisons and 10 hashes")
    #expect(different != page)
  }
}
