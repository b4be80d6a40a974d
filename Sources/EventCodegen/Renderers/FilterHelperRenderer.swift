import EventSchema

/// Renders a named selector per subject-bearing event or group, such as
/// `.listingEvents(listing:)`, that receives only the events about one entity: the pattern of
/// screens that each show a few listings.
///
/// One static function per type, without default arguments, is all the generated code adds:
/// subscribing, main-actor delivery, replay and streams are the runtime's generic
/// `subscribe(_:delivery:replay:_:)` and `events(_:replay:bufferingPolicy:)`, written once. Every
/// generated public declaration is type-checked again by the emit-module job after any edit, so
/// three overloads with defaults per type cost every rebuild about a fifth more: 4.5 s of the
/// emit-module job after one edit in 500 events, against 3.6 s without them.
struct FilterHelperRenderer {
  let access: AccessLevel

  /// A subject-bearing event or group.
  struct Subjected {
    var typeName: String
    var subjectType: FieldType
    /// The last property of the subject path, when the subject type says nothing better.
    var fallbackLabel: String
    /// Whether the type is a group, selected with `.group(_:)` rather than `.event(_:)`.
    var isGroup: Bool
  }

  /// One constrained extension of `EventSelector` per subject-bearing event or group.
  func render(_ items: [Subjected]) -> [Declaration] {
    items.map { item in
      let label = Self.label(for: item)
      let name = Self.selectorName(for: item.typeName)
      // `subject subject:` draws a warning: a label equal to the parameter's name is the name.
      // A keyword label (a subject field named `var`, a type named `LetID`) keeps its backticks
      // in the declaration; a call writes it as an argument label.
      let parameter = label == "subject" ? "subject" : "\(SwiftSpelling.identifier(label)) subject"
      // `.group(_:)` is not inlinable; `.event(_:)` is, so events go through the runtime's
      // `_event(about:)`, which keeps the delivery path from being specialised per event type.
      let selector: Code =
        item.isGroup ? "Self.group(\(item.typeName).self).about(subject)" : "Self._event(about: subject)"
      return .extension(
        ExtensionDecl(
          type: .runtime("EventSelector"),
          sameType: ("Value", .local(item.typeName)),
          members: [
            .function(
              FunctionDecl(
                doc: [
                  "The `\(item.typeName)` events about one \(label), for `subscribe(_:)` or `events(_:)`,",
                  "as in `bus.subscribe(.\(name)(\(SwiftSpelling.argumentLabel(label)): id)) { … }`.",
                ],
                modifiers: [.access(access), .static],
                signature: "func \(name)(\(parameter): \(SwiftSpelling.type(item.subjectType))) -> Self",
                body: [.line(selector)]))
          ]))
    }
  }

  /// `ListingSold` → `listingSoldEvents`, `ListingEvent` → `listingEvents`.
  static func selectorName(for typeName: String) -> String {
    let base = SwiftNames.lowerCamelCase(typeName)
    return typeName.hasSuffix("Event") ? "\(base)s" : "\(base)Events"
  }

  /// The suffixes that mark a type as an entity's identifier, longest first: `ListingIdentifier`,
  /// `ListingRef`, `ListingKey` and `ListingID` all label a helper `listing:`.
  static let identifierSuffixes = ["Identifier", "Ref", "Key", "ID", "Id"]

  /// `ListingID` → `listing`; otherwise the subject path's last property, such as `conversation`.
  ///
  /// A suffix counts only as a word of its own, after a lower-case letter or a digit:
  /// `OrderUUID` keeps its `UUID` and labels a helper `orderUUID:`.
  static func label(for item: Subjected) -> String {
    if case .named(let name, .wrapper) = item.subjectType {
      for suffix in identifierSuffixes where name.hasSuffix(suffix) && name.count > suffix.count {
        let stem = name.dropLast(suffix.count)
        guard let last = stem.last, last.isLowercase || last.isNumber else { continue }
        return SwiftNames.lowerCamelCase(String(stem))
      }
      return SwiftNames.lowerCamelCase(name)
    }
    return item.fallbackLabel
  }
}
