import Foundation

/// The wire names an event type is known by when it comes in: its own ``Event/eventName`` and,
/// for an event that a backend sends under several CloudEvents types, the others.
///
/// `eventgen` generates it from an AsyncAPI payload that writes the CloudEvents envelope out
/// and allows several `type`s: an `enum` of them, or a `pattern`. An ``EventCatalog`` then
/// decodes every one of those types as the event, and an ``EventEnvelope`` keeps the type that
/// came. An event published from Swift carries ``Event/eventName``, unless the app names
/// another of these with ``EventEnvelope/init(_:id:source:time:name:metadata:)``.
public struct EventNames: Sendable, Hashable {
  /// The names listed; those `eventgen` generates list the type's own first.
  public let names: [String]
  /// The regular expression whose matches are names of the type, as JSON Schema's `pattern`:
  /// it may match anywhere in the name unless it is anchored with `^` or `$`.
  public let pattern: String?

  /// The names listed.
  public static func oneOf(_ names: [String]) -> EventNames { EventNames(names: names, pattern: nil) }

  /// Every name `pattern` matches (an ICU regular expression, as `NSRegularExpression` reads it).
  public static func matching(_ pattern: String) -> EventNames { EventNames(names: [], pattern: pattern) }

  /// Whether `name` is listed or matches the pattern.
  public func contains(_ name: String) -> Bool {
    if names.contains(name) { return true }
    return pattern.flatMap(EventNamePattern.init).map { $0.matches(name) } ?? false
  }
}

extension Event {
  /// Only ``Event/eventName``.
  public static var acceptedEventNames: EventNames { .oneOf([eventName]) }
}

/// A compiled `pattern` of ``EventNames``.
///
/// `@unchecked Sendable`: `NSRegularExpression` is immutable once made, and Apple documents it
/// as safe to use from several threads at once; swift-corelibs-foundation's is the same class.
final class EventNamePattern: @unchecked Sendable {
  private let expression: NSRegularExpression

  /// The pattern compiled, or nil when it is not a regular expression.
  init?(_ pattern: String) {
    guard let expression = try? NSRegularExpression(pattern: pattern) else { return nil }
    self.expression = expression
  }

  func matches(_ name: String) -> Bool {
    expression.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
  }
}
