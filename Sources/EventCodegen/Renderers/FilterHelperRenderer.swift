import EventSchema

/// Renders named helpers that deliver only the events about one entity, such as
/// `listingEvents(listing:)`: the pattern of screens that each show a few listings.
struct FilterHelperRenderer {
  let access: String

  /// A subject-bearing event or group.
  struct Subjected {
    var typeName: String
    var subjectType: FieldType
    /// The last property of the subject path, when the subject type says nothing better.
    var fallbackLabel: String
  }

  /// One extension of `EventObserving` with three helpers per subject-bearing event or group, or
  /// nothing when the file has none.
  func render(_ items: [Subjected]) -> [Declaration] {
    guard !items.isEmpty else { return [] }
    let members = items.flatMap { item -> [Declaration] in
      let label = Self.label(for: item)
      let base = SwiftNames.lowerCamelCase(item.typeName)
      let plural = item.typeName.hasSuffix("Event") ? "\(base)s" : "\(base)Events"
      let capitalized = plural.prefix(1).uppercased() + plural.dropFirst()
      let subject = Swift.type(item.subjectType)
      let streamCall =
        "self.events(\(item.typeName).self, about: subject, replay: replay, bufferingPolicy: bufferingPolicy)"
      let call = "self.subscribe(\(item.typeName).self, about: subject, delivery: delivery, replay: replay, handler)"
      return [
        .function(
          FunctionDecl(
            doc: [
              "`\(item.typeName)` events about one \(label), as an asynchronous sequence; with `replay`, the",
              "latest one first.",
            ],
            signature: """
              \(access)func \(plural)(
                \(label) subject: \(subject),
                replay: Swift.Bool = false,
                bufferingPolicy: \(Swift.runtime("EventBufferingPolicy")) = .unbounded
              ) -> \(Swift.runtime("EventStream"))<\(item.typeName)>
              """,
            body: [.line(streamCall)])),
        .function(
          FunctionDecl(
            doc: ["Calls `handler` with each `\(item.typeName)` event about one \(label)."],
            signature: """
              \(access)func subscribeTo\(capitalized)(
                \(label) subject: \(subject),
                delivery: \(Swift.runtime("EventDelivery")) = .immediate,
                replay: Swift.Bool = false,
                _ handler: @escaping @Sendable (\(item.typeName)) -> Swift.Void
              ) -> \(Swift.runtime("EventSubscription"))
              """,
            body: [.line(call)])),
        .function(
          FunctionDecl(
            doc: ["Calls `handler` on the main actor with each `\(item.typeName)` event about one \(label)."],
            signature: """
              \(access)func subscribeTo\(capitalized)(
                \(label) subject: \(subject),
                delivery: \(Swift.runtime("MainActorDelivery")),
                replay: Swift.Bool = false,
                _ handler: @escaping @Swift.MainActor @Sendable (\(item.typeName)) -> Swift.Void
              ) -> \(Swift.runtime("EventSubscription"))
              """,
            body: [.line(call)])),
      ]
    }
    return [
      .extension(
        ExtensionDecl(
          doc: ["Filter helpers: each receives only the events about one entity."],
          type: Swift.runtime("EventObserving"),
          members: members))
    ]
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
