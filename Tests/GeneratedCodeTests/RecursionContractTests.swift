import BackendEvents
import EdgeCaseEvents
import Foundation
import Testing
import TypedEvents

/// The Swift generated from `Tests/BackendEvents/Contract/recursion.asyncapi.yaml` and the
/// recursive types of `Tests/EdgeCaseEvents/Schemas/Shapes.events.yaml`: types that hold
/// themselves by value are stored out of line (fields of `TypedEvents.Indirect`, `indirect`
/// enums), and read and write the contract's JSON, through the catalog and `userInfo`.
@Suite("Recursion in a contract")
struct RecursionContractTests {
  /// Decodes `json` through the catalog as `E`, and checks that it writes the same JSON back
  /// and survives `userInfo`.
  @discardableResult
  private func roundTrip<E: TypedEvents.Event>(_ json: String, as type: E.Type) throws -> E {
    let envelope = EventEnvelope(id: "1", time: nil, name: E.eventName, version: 1, payload: Data(json.utf8))
    let decoded = try envelope.decode(using: BackendEvents.GeneratedEvents.catalog)
    let event = try #require(decoded as? E, "\(Swift.type(of: decoded))")
    let written = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
    #expect(try JSONValue(jsonText: written) == (try JSONValue(jsonText: json)), "\(written)")
    #expect(try E(userInfo: event.userInfo) == event)
    return event
  }

  @Test func aTreeHoldsItsParentAndChildren() throws {
    let changed = try roundTrip(
      #"""
      {"root": {"label": "c", "parent": {"label": "b", "parent": {"label": "a"}},
                "children": [{"label": "d", "parent": {"label": "c"}}]}}
      """#, as: TreeChanged.self)
    #expect(changed.root.parent?.parent?.label == "a")
    #expect(changed.root.parent?.parent?.parent == nil)
    #expect(changed.root.children?.first?.parent?.label == "c")
  }

  @Test func aFieldStoredOutOfLineHasValueSemantics() {
    let original = TreeNode(label: "leaf", parent: TreeNode(label: "root"))
    var copy = original
    copy.parent?.label = "other"
    #expect(original.parent?.label == "root")
    #expect(copy.parent?.label == "other")
    #expect(copy != original)
    copy.parent?.label = "root"
    #expect(copy == original && copy.hashValue == original.hashValue)
  }

  @Test func aCommentThreadAndAJSONSchemaLikeChoiceHoldThemselves() throws {
    let thread = try roundTrip(
      #"{"text": "1", "reply": {"text": "2", "reply": {"text": "3"}}}"#, as: Commented.self)
    #expect(thread.reply?.reply?.text == "3")
    let published = try roundTrip(
      #"""
      {"schema": {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}},
                  "open": true}, "not": false}}
      """#, as: SchemaPublished.self)
    guard case .object(let object)? = published.schema, case .object(let tags)? = object.properties?["tags"],
      case .object(let items)? = tags.items
    else {
      Issue.record("\(published)")
      return
    }
    #expect(items.type == "string")
    #expect(object.properties?["open"] == .boolean(true) && object.not == .boolean(false))
  }

  @Test func anEventNamedEventWhoseEnvelopeDataIsAChoiceIsNoRecursion() throws {
    // The message `Event` writes out the CloudEvents envelope: its JSON is `data`'s, a choice
    // named for `data`, not the event.
    let started = try roundTrip(#"{"at": "noon"}"#, as: BackendEvents.Event.self)
    #expect(started.payload == .started(Started(at: "noon")))
  }

  @Test func recursiveTypesOfASchemaFileRoundTrip() throws {
    let outline = Outline(title: "c", under: Outline(title: "b", under: Outline(title: "a")))
    let thread = Thread(first: Post(text: "1", replies: Thread(first: Post(text: "2"))))
    let event = OutlineChanged(outline: outline, thread: thread)
    let json = try JSONEncoder().encode(event)
    #expect(
      try JSONValue(jsonText: String(decoding: json, as: UTF8.self))
        == (try JSONValue(
          jsonText: #"""
            {"outline": {"title": "c", "under": {"title": "b", "under": {"title": "a"}}},
             "thread": {"first": {"text": "1", "replies": {"first": {"text": "2"}}}}}
            """#)))
    #expect(try JSONDecoder().decode(OutlineChanged.self, from: json) == event)
    #expect(try OutlineChanged(userInfo: event.userInfo) == event)
  }
}
