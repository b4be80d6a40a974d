import Foundation
import SampleEvents
import Testing
import TypedEvents

/// The README's screen sample, compiled as written there (Swift 6 mode), and run.
@MainActor
final class ListingDetailScreen {
  private var subscriptions = Set<EventSubscription>()
  private(set) var redraws: [String] = []

  init(listing: ListingID, events: some EventObserving) {
    events.subscribe(.listingEvents(listing: listing), delivery: .mainActor, replay: true) { [weak self] event in
      self?.redraw(for: event)  // the handler is @MainActor: checked by the compiler
    }.store(in: &subscriptions)
  }

  func redraw(for event: ListingEvent) {
    redraws.append(type(of: event.event).eventName)
  }
}

@Suite("README samples")
struct ReadmeSampleTests {
  @Test @MainActor func theListingScreenRedrawsForItsListingOnly() async {
    let bus = EventBus()
    let screen = ListingDetailScreen(listing: ListingID("l-1"), events: bus)
    bus.publish(Fixtures.sold)
    bus.publish(ListingSold(id: ListingID("other"), price: Money(amount: 1, currency: .euro), soldAt: Date()))
    // Main-actor deliveries are queued on the main queue: let them run.
    await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
    #expect(screen.redraws == ["Listings.ListingSold"])
  }
}
