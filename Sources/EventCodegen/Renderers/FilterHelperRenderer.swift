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

  /// One extension of `EventObserving` with two helpers per subject-bearing event or group, or
  /// nothing when the file has none.
  func render(_ items: [Subjected]) -> [Declaration] {
    guard !items.isEmpty else { return [] }
    let members = items.flatMap { item -> [Declaration] in
      let label = Self.label(for: item)
      let base = SwiftNames.lowerCamelCase(item.typeName)
      let plural = item.typeName.hasSuffix("Event") ? "\(base)s" : "\(base)Events"
      let capitalized = plural.prefix(1).uppercased() + plural.dropFirst()
      return [
        .function(
          FunctionDecl(
            doc: ["`\(item.typeName)` events about one \(label), as an asynchronous sequence."],
            signature: "\(access)func \(plural)(\n  \(label) subject: \(item.subjectType),\n  bufferingPolicy: EventBufferingPolicy = .unbounded\n) -> EventStream<\(item.typeName)>",
            body: [.line("events(\(item.typeName).self, about: subject, bufferingPolicy: bufferingPolicy)")])),
        .function(
          FunctionDecl(
            doc: ["Calls `handler` with each `\(item.typeName)` event about one \(label)."],
            signature: "\(access)func subscribeTo\(capitalized)(\n  \(label) subject: \(item.subjectType),\n  delivery: EventDelivery = .immediate,\n  replay: Bool = false,\n  _ handler: @escaping @Sendable (\(item.typeName)) -> Void\n) -> EventSubscription",
            body: [.line("subscribe(\(item.typeName).self, about: subject, delivery: delivery, replay: replay, handler)")])),
      ]
    }
    return [
      .extension(
        ExtensionDecl(
          doc: ["Filter helpers: each receives only the events about one entity."], type: "EventObserving",
          members: members))
    ]
  }

  /// `ListingID` → `listing`; otherwise the subject path's last property, such as `conversation`.
  static func label(for item: Subjected) -> String {
    if case .named(let name, .wrapper) = item.subjectType {
      for suffix in ["Identifier", "ID", "Id"] where name.hasSuffix(suffix) && name.count > suffix.count {
        return SwiftNames.lowerCamelCase(String(name.dropLast(suffix.count)))
      }
      return SwiftNames.lowerCamelCase(name)
    }
    return item.fallbackLabel
  }
}
