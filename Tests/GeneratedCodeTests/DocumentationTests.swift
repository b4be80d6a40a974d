import Foundation
import SampleEvents
import Testing
import TypedEvents

// The screen of the article "The four scenarios", compiled as written there (Swift 6 mode) and
// run; `theScenariosArticleShowsThisScreen` keeps the two texts the same.
// article: begin
@MainActor final class ListingDetailScreen {
  private var subscriptions = Set<EventSubscription>()

  init(listing: ListingID, events: some EventObserving) {
    events.subscribe(.listingEvents(listing: listing), delivery: .mainActor, replay: true) { [weak self] event in
      self?.redraw(for: event)  // the handler is @MainActor: checked by the compiler
    }.store(in: &subscriptions)
  }

  // article: end
  private(set) var redraws: [String] = []

  func redraw(for event: ListingEvent) {
    redraws.append("\(type(of: event.event).eventName) \(event.eventSubject.rawValue)")
  }
}

/// What the README and the DocC articles show is what the code does: the screen sample runs, and
/// every link of the README leads somewhere that exists.
@Suite("Documentation")
struct DocumentationTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let catalog = "Sources/TypedEvents/TypedEvents.docc"
  /// Every DocC catalog, with its root page, which the README need not link.
  static let catalogs = [
    (catalog, "TypedEvents.md"),
    ("Sources/TypedEventsPostgres/TypedEventsPostgres.docc", "TypedEventsPostgres.md"),
  ]

  static func read(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  @Test @MainActor func theListingScreenReplaysItsListingAndThenFollowsItOnly() async {
    let bus = EventBus()  // a fresh bus and no other call: the schema declares the replay
    bus.publish(Fixtures.sold)
    bus.publish(ListingSold(id: ListingID("l-2"), price: Money(amount: 1, currency: .euro), soldAt: Date()))
    let screen = ListingDetailScreen(listing: ListingID("l-1"), events: bus)
    bus.publish(ListingSold(id: ListingID("other"), price: Money(amount: 1, currency: .euro), soldAt: Date()))
    bus.publish(ListingArchived(id: ListingID("l-1")))
    // Main-actor deliveries are queued on the main queue: let them run.
    await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
    #expect(screen.redraws == ["Listings.ListingSold l-1", "Listings.ListingArchived l-1"])
  }

  @Test func theScenariosArticleShowsThisScreen() throws {
    let article = try Self.read("\(Self.catalog)/Scenarios.md")
    let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    let tested = try #require(source.components(separatedBy: "// article: begin\n").dropFirst().first)
      .components(separatedBy: "  // article: end\n")[0]
    // The article ends the class with a `redraw` whose body it leaves out.
    let shown = tested + "  func redraw(for event: ListingEvent) { /* … */ }\n}\n"
    #expect(article.contains("```swift\n" + shown + "```"), "Scenarios.md no longer shows the tested screen")
  }

  /// `[text](target)` links of a Markdown text.
  static func links(in markdown: String) -> [String] {
    let pattern = /\[[^\]]+\]\(([^)\s]+)\)/
    return markdown.matches(of: pattern).map { String($0.output.1) }
  }

  /// GitHub's anchor for a heading: lowercased, punctuation dropped, spaces as dashes.
  static func anchor(_ heading: String) -> String {
    String(
      heading.lowercased().compactMap { character -> Character? in
        if character == " " { return "-" }
        return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
      })
  }

  @Test func everyReadmeLinkResolves() throws {
    let readme = try Self.read("README.md")
    let anchors = Set(
      readme.split(separator: "\n").filter { $0.hasPrefix("#") }
        .map { Self.anchor(String($0.drop(while: { $0 == "#" }).drop(while: { $0 == " " }))) })
    let links = Self.links(in: readme)
    #expect(links.count > 10)
    for link in links {
      if link.hasPrefix("https://") { continue }  // the web is not ours to check offline
      if link.hasPrefix("#") {
        #expect(anchors.contains(String(link.dropFirst())), "README links to a missing heading: \(link)")
        continue
      }
      let path = String(link.split(separator: "#", maxSplits: 1)[0])
      #expect(
        FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path),
        "README links to a missing file: \(link)")
    }
  }

  @Test func theReadmeLinksEveryArticleAndStaysALandingPage() throws {
    let readme = try Self.read("README.md")
    let linked = Set(Self.links(in: readme))
    var count = 0
    for (catalog, root) in Self.catalogs {
      let articles = try FileManager.default.contentsOfDirectory(
        atPath: Self.root.appendingPathComponent(catalog).path
      ).filter { $0.hasSuffix(".md") && $0 != root }
      count += articles.count
      for article in articles {
        #expect(linked.contains("\(catalog)/\(article)"), "README's documentation table misses \(article)")
      }
    }
    #expect(count >= 14)
    let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
    #expect(lines < 200, "README.md has \(lines) lines: move reference material into the DocC catalog")
  }

  /// Each article names its neighbours with `<doc:Name>`; DocC fails the documentation build
  /// on a broken one, and this fails `swift test` sooner.
  @Test func everyArticleLinkNamesAnArticleOfItsCatalog() throws {
    for (catalog, _) in Self.catalogs {
      let folder = Self.root.appendingPathComponent(catalog)
      let articles = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }
      let names = Set(articles.map { String($0.dropLast(3)) })
      for article in articles {
        let text = try Self.read("\(catalog)/\(article)")
        for match in text.matches(of: /<doc:([A-Za-z0-9-]+)>/) {
          #expect(names.contains(String(match.output.1)), "\(article) links to a missing article: \(match.output.0)")
        }
      }
    }
  }
}
