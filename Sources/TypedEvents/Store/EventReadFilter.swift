import Foundation

/// The envelopes a reader wants: some types, about one subject. Given to
/// ``EventStore/read(after:limit:maximumBytes:matching:)``, it lets a store pass over the rest
/// where it reads (the PostgreSQL store in its query, so that their rows never leave the
/// server), and count only what it returns against the read's limits.
public struct EventReadFilter: Sendable, Hashable {
  /// The wire type names wanted; every type when nil.
  public var types: Set<String>?
  /// The subject wanted; every subject, and none, when nil. A subject that is a UUID matches
  /// the same UUID in any case: Swift writes it upper case, other languages lower case.
  public var subject: String? {
    didSet { subjectUUID = subject.flatMap(UUID.init(uuidString:)) }
  }
  /// ``subject`` as a UUID, when it is one.
  public private(set) var subjectUUID: UUID?

  /// A filter of `types` and `subject`; nil for either wants them all.
  public init(types: Set<String>? = nil, subject: String? = nil) {
    self.types = types
    self.subject = subject
    self.subjectUUID = subject.flatMap(UUID.init(uuidString:))
  }

  /// Every envelope.
  public static let all = EventReadFilter()

  /// Whether it wants every envelope.
  public var isEmpty: Bool { types == nil && subject == nil }

  /// Whether it wants an envelope of wire type `name` about `subject`.
  public func admits(name: String, subject envelopeSubject: String?) -> Bool {
    if let types, !types.contains(name) { return false }
    guard let subject else { return true }
    if envelopeSubject == subject { return true }
    guard let subjectUUID, let other = envelopeSubject.flatMap(UUID.init(uuidString:)) else { return false }
    return other == subjectUUID
  }

  /// Whether it wants `envelope`.
  public func admits(_ envelope: EventEnvelope) -> Bool {
    admits(name: envelope.name, subject: envelope.subject)
  }

  /// The envelopes both filters want: the types in both, and the subject that both name (a
  /// filter that names none takes the other's). Two subjects that are not the same (nor the
  /// same UUID) leave no type: such a filter wants nothing.
  public func intersection(_ other: EventReadFilter) -> EventReadFilter {
    var types: Set<String>? =
      switch (self.types, other.types) {
      case (nil, let some), (let some, nil): some
      case (let mine?, let theirs?): mine.intersection(theirs)
      }
    var subject = self.subject ?? other.subject
    if let mine = self.subject, let theirs = other.subject,
      !EventReadFilter(subject: mine).admits(name: "", subject: theirs)
    {
      types = []
      subject = mine
    }
    return EventReadFilter(types: types, subject: subject)
  }
}
