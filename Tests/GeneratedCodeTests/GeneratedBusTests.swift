import EdgeCaseEvents
import Foundation
import SampleEvents
import Testing
import TypedEvents

/// Generated events, groups, filter helpers and the catalog, plugged into the runtime.
@Suite("Generated events on the bus")
struct GeneratedBusTests {
  @Test func wireNamesAndVersionsComeFromTheSchema() {
    #expect(ListingSold.eventName == "Listings.ListingSold")
    #expect(ListingSold.eventVersion == 2)
    #expect(MessagesLoaded.eventVersion == 3)
    #expect(Everything.eventName == "Edge.Everything")
    #expect(ShapeDrawn.eventName == "ShapeDrawn")
  }

  /// `replay: { per-subject: 10000 }` on the schema's `ListingEvent` group: a fresh bus keeps
  /// the latest event about each listing with no call, for the type, the group and the helper.
  @Test func aReplayDeclaredInTheSchemaNeedsNoCall() {
    #expect(ListingSold.latestKeptPerSubject == 10_000)
    #expect(ItemMoved.latestKeptPerSubject == nil)
    let bus = EventBus()
    let price = Money(amount: 10, currency: .euro)
    bus.publish(ListingSold(id: ListingID("a"), price: price, soldAt: Date(timeIntervalSince1970: 1)))
    bus.publish(ListingSold(id: ListingID("b"), price: price, soldAt: Date(timeIntervalSince1970: 2)))
    let received = Locked<[String]>([])
    let subscriptions = [
      bus.subscribe(ListingSold.self, about: ListingID("a"), replay: true) { sold in
        received.withValue { $0.append("type \(sold.id.rawValue)") }
      },
      bus.subscribe(ListingEvent.self, about: ListingID("a"), replay: true) { event in
        received.withValue { $0.append("group \(event.eventSubject.rawValue)") }
      },
      bus.subscribe(.listingEvents(listing: ListingID("a")), replay: true) { event in
        received.withValue { $0.append("helper \(event.eventSubject.rawValue)") }
      },
    ]
    #expect(received.value == ["type a", "group a", "helper a"])
    withExtendedLifetime(subscriptions) {}
  }

  @Test func theCatalogHoldsEveryEventOfTheRun() {
    #expect(SampleEvents.GeneratedEvents.catalog.count == 14)
    #expect(SampleEvents.GeneratedEvents.catalog.type(named: "Inventory.ItemProvisioned") == ItemProvisioned.self)
    #expect(EdgeCaseEvents.GeneratedEvents.catalog.eventNames.contains("ShapeDrawn"))
  }

  @Test func groupsWrapTheirMembersAndShareASubject() throws {
    let sold = Fixtures.sold
    #expect(ListingEvent(sold) == .listingSold(sold))
    #expect(ListingChange(sold) == .sold(sold))
    // ListingRemoved is deprecated: creating one warns, so the test reads it from userInfo.
    #expect(ListingChange(try ListingRemoved(userInfo: ["id": "gone"])) == nil)
    #expect(ListingEvent.listingSold(sold).eventSubject == ListingID("l-1"))
    #expect(Pagination.members.count == 2)
  }

  @Test func filterHelpersDeliverOnlyTheirEntity() {
    let bus = EventBus()
    let seen = Locked<[String]>([])
    let screen = bus.subscribe(.listingEvents(listing: ListingID("l-1"))) { event in
      seen.withValue { $0.append(type(of: event.event).eventName) }
    }
    let boxScreen = bus.subscribe(.boxEvents(box: Fixtures.item.boxId)) { _ in seen.withValue { $0.append("box") } }
    bus.publish(Fixtures.sold)
    bus.publish(ListingSold(id: ListingID("other"), price: Money(amount: 1, currency: .euro), soldAt: Date()))
    bus.publish(ListingCreated(listing: Fixtures.listing))
    bus.publish(Fixtures.item)
    bus.publish(BoxProvisioned(boxId: BoxID(UUID()), title: "other box"))
    #expect(seen.value == ["Listings.ListingSold", "Listings.ListingCreated", "box"])
    withExtendedLifetime([screen, boxScreen]) {}
  }

  @Test func aFilterHelperIsASelectorThatFiltersChainOnto() {
    let bus = EventBus()
    let prices = Locked<[Decimal]>([])
    let cheapOnes = bus.subscribe(.listingSoldEvents(listing: ListingID("l-1")).filter { $0.price.amount < 100 }) {
      sold in prices.withValue { $0.append(sold.price.amount) }
    }
    for (listing, amount) in [("l-1", 50), ("l-1", 500), ("l-2", 60), ("l-1", 70)] {
      bus.publish(
        ListingSold(id: ListingID(listing), price: Money(amount: Decimal(amount), currency: .euro), soldAt: Date()))
    }
    #expect(prices.value == [50, 70])
    withExtendedLifetime(cheapOnes) {}
  }

  /// The subject of `Keywords` is its field `var`: the helper is declared with a backticked label
  /// and called with a bare one.
  @Test func aHelperLabelledWithAKeywordSelectsItsSubject() {
    let bus = EventBus()
    let writers = Locked<[String]>([])
    let handler = bus.subscribe(.keywordsEvents(var: 7)) { event in writers.withValue { $0.append(event.writer) } }
    bus.publish(Fixtures.keywords)
    bus.publish(
      Keywords(
        default: "", in: 0, class: false, protocol: .monday, reader: "", container: 0, encoder: false, decoder: false,
        writer: "other", var: 8))
    #expect(Fixtures.keywords.eventSubject == 7)
    #expect(writers.value == ["w"])
    withExtendedLifetime(handler) {}
  }

  @Test func aGroupHelperStreamsTheLatestAboutItsSubjectFirst() async {
    let bus = EventBus()
    bus.publish(ListingCreated(listing: Fixtures.listing))
    let stream = bus.events(.listingEvents(listing: Fixtures.listing.id), replay: true)
    bus.publish(ListingSold(id: ListingID("other"), price: Money(amount: 1, currency: .euro), soldAt: Date()))
    bus.publish(Fixtures.sold)
    var names: [String] = []
    for await event in stream {
      names.append(type(of: event.event).eventName)
      if names.count == 2 { break }
    }
    #expect(names == ["Listings.ListingCreated", "Listings.ListingSold"])
  }

  @Test func equalEventsHashAlikeAndASetKeepsOne() {
    let sold = Fixtures.sold
    let copy = ListingSold(
      id: sold.id, price: sold.price, soldAt: sold.soldAt, buyer: sold.buyer, channel: sold.channel)
    let other = ListingSold(
      id: ListingID("other"), price: sold.price, soldAt: sold.soldAt, buyer: sold.buyer, channel: sold.channel)
    #expect(copy.hashValue == Fixtures.sold.hashValue)
    #expect(other.hashValue != Fixtures.sold.hashValue)
    // hashValue is the runtime's, not synthesized per type: it must agree with hash(into:).
    var hasher = Hasher()
    sold.hash(into: &hasher)
    #expect(sold.hashValue == hasher.finalize())
    #expect(Set([Fixtures.sold, copy, other]).count == 2)
  }

  @Test func oneHandlerReceivesAWholeGroup() {
    let bus = EventBus()
    let actions = Locked<[String]>([])
    let handler = bus.subscribe(AnalyticsWindowAction.self) { action in
      switch action {
      case .changeDateRange(let range): actions.withValue { $0.append("range \(range.granularity)") }
      case .selectApplication(let app): actions.withValue { $0.append("select \(app.id)") }
      case .unselectApplication(let app): actions.withValue { $0.append("unselect \(app.id)") }
      case .exportRequested(let export): actions.withValue { $0.append("export \(export.format)") }
      }
    }
    bus.publish(ChangeDateRange(from: Date(), until: Date()))
    bus.publish(SelectApplication(id: ApplicationID("com.example.Mail")))
    bus.publish(AnalyticsWindowAction.unselectApplication(UnselectApplication(id: ApplicationID("com.example.Mail"))))
    bus.publish(ExportRequested())
    #expect(actions.value == ["range day", "select com.example.Mail", "unselect com.example.Mail", "export csv"])
    withExtendedLifetime(handler) {}
  }

  @Test func anEventWithDatesOfNowReplaysFromALogEqualToTheEventAppended() throws {
    let log = EventLog(
      url: FileManager.default.temporaryDirectory.appendingPathComponent("now-\(UUID().uuidString).jsonl"))
    defer { try? FileManager.default.removeItem(at: log.url) }
    let events = (0..<100).map { _ in ChangeDateRange(from: Date(), until: Date().addingTimeInterval(86_400.123456789))
    }
    for event in events { try log.append(event) }
    let bus = RecordingEventBus()
    let report = try log.replay(into: bus, using: SampleEvents.GeneratedEvents.catalog)
    #expect(report.replayed == 100 && report.problems.isEmpty)
    #expect(bus.published(ChangeDateRange.self) == events)
  }

  @Test func envelopesDecodeThroughTheGeneratedCatalog() throws {
    let envelope = try EventEnvelope(Fixtures.page)
    let decoded = try envelope.decode(using: SampleEvents.GeneratedEvents.catalog)
    #expect(decoded as? MessagesLoaded == Fixtures.page)
  }
}

final class Locked<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  init(_ value: Value) {
    stored = value
  }

  var value: Value {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }

  func withValue(_ body: (inout Value) -> Void) {
    lock.lock()
    body(&stored)
    lock.unlock()
  }
}
