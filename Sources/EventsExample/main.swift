// The four scenarios of Schemas/, end to end: generated events flowing through the bus.
// Run it with `swift run events-example`.
import Foundation
import SampleEvents
import SessionEvents
import TypedEvents

let bus = EventBus()
var subscriptions = Set<EventSubscription>()

/// Prints a line with the scenario's name, so the output reads as a story.
func say(_ scenario: String, _ text: String) {
  print("[\(scenario)] \(text)")
}

// MARK: Listings: screens kept in sync, each filtered to the listings it shows.

let bike = Listing(
  id: ListingID("bike-1"), title: "Vintage bike", price: Money(amount: 129, currency: .euro), status: .active,
  seller: UserID(UUID()), photos: [])
bus.subscribe(.listingEvents(listing: bike.id)) { event in
  say("listings", "detail screen of \(bike.id) redraws for \(type(of: event.event).eventName)")
}.store(in: &subscriptions)
/// The detail screen as an app writes it: main-actor state, and a handler typed `@MainActor`
/// (`delivery: .mainActor`), so it touches that state with no cast and the compiler checks it.
@MainActor
final class ListingDetailScreen {
  private(set) var title: String
  private var subscriptions = Set<EventSubscription>()

  init(_ listing: Listing, events: some EventObserving) {
    title = listing.title
    events.subscribe(.listingEvents(listing: listing.id), delivery: .mainActor) { event in
      if case .listingSold = event { self.title = "\(listing.title) (sold)" }
      say("listings", "detail screen on the main actor shows \"\(self.title)\"")
    }.store(in: &subscriptions)
  }
}
let bikeScreen = ListingDetailScreen(bike, events: bus)
bus.subscribe(ListingEvent.self) { event in
  say("listings", "feed sees \(type(of: event.event).eventName) about \(event.eventSubject)")
}.store(in: &subscriptions)
bus.publish(ListingCreated(listing: bike))
bus.publish(
  ListingCreated(
    listing: Listing(
      id: ListingID("lamp-7"), title: "Lamp", price: Money(amount: 15, currency: .euro), status: .active,
      seller: UserID(UUID()), photos: [])))
bus.publish(ListingSold(id: bike.id, price: bike.price, soldAt: Date()))
// Main-actor deliveries wait for the main actor: suspending lets them run, in publish order.
await Task.yield()
say("listings", "screen title now: \(bikeScreen.title)")

// MARK: Analytics window: a deep view publishes, one handler applies.

struct WindowState {
  var granularity = Granularity.day
  var selected: Set<ApplicationID> = []
}
let window = Locked(WindowState())
bus.subscribe(AnalyticsWindowAction.self) { action in
  window.withLock { state in
    switch action {
    case .changeDateRange(let change): state.granularity = change.granularity
    case .selectApplication(let select): state.selected.insert(select.id)
    case .unselectApplication(let unselect): state.selected.remove(unselect.id)
    case .exportRequested: break
    }
    say("analytics", "state: \(state.granularity), \(state.selected.map(\.rawValue).sorted())")
  }
}.store(in: &subscriptions)
let deepView: any EventPublishing = bus  // the view knows only the publishing side
deepView.publish(ChangeDateRange(from: Date(timeIntervalSinceNow: -86_400 * 7), until: Date(), granularity: .hour))
deepView.publish(SelectApplication(id: ApplicationID("com.example.Mail")))
deepView.publish(SelectApplication(id: ApplicationID("com.example.Notes")))
deepView.publish(UnselectApplication(id: ApplicationID("com.example.Mail")))

// MARK: Chat pagination: a trigger and an observer wired through one binding.

let conversation = ConversationID(42)
bus.subscribe(.fetchMessagesRequestedEvents(conversation: conversation)) { request in
  // The loader answers every request with a page.
  let page = (0..<min(Int(request.limit), 3)).map { index in
    Message(
      id: MessageID("m\(index)"), sender: "ana", text: "message \(index)", sentAt: Date(), attachments: [],
      reactions: [:])
  }
  bus.publish(MessagesLoaded(conversation: conversation, messages: page, hasMore: false, loadedIn: 0.01))
}.store(in: &subscriptions)
bus.subscribe(.messagesLoadedEvents(conversation: conversation), replay: true) { page in
  say("chat", "list shows \(page.messages.count) messages, more: \(page.hasMore)")
}.store(in: &subscriptions)
bus.publish(FetchMessagesRequested(conversation: conversation, before: nil))

// MARK: Boxes and items: posted through NotificationCenter, read back typed.

let center = NotificationCenter.default
center.observe(ItemProvisioned.self, onFailure: { failure in say("inventory", "dropped: \(failure)") }) { provisioned in
  say("inventory", "\(provisioned.item.title) ×\(provisioned.item.quantity) into box \(provisioned.boxId)")
}.store(in: &subscriptions)
let box = BoxID(UUID())
center.post(
  ItemProvisioned(boxId: box, item: Item(id: ItemID(UUID()), title: "Screws", quantity: 40, tags: ["hardware"])))
// An Objective-C-style post with a wrong type never crashes: it reaches the failure handler.
center.post(
  name: Notification.Name(ItemProvisioned.self), object: nil,
  userInfo: ["boxId": box.rawValue.uuidString, "item": "screws"])

// MARK: Session (generated at build time by the plugin): state that follows the bus.

let session = SessionState(events: bus)
bus.publish(SignedIn(account: AccountID("ana"), displayName: "Ana"))
say("session", "signed in: \(session.account?.rawValue ?? "nobody")")
bus.publish(SignedOut(account: AccountID("ana")))
say("session", "signed in: \(session.account?.rawValue ?? "nobody")")

/// A value behind a lock, for state a handler changes.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock(_ body: (inout Value) -> Void) {
    lock.lock()
    body(&value)
    lock.unlock()
  }
}
