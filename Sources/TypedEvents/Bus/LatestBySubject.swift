/// A subject as a dictionary key. The subject is `Hashable & Sendable` (see
/// ``SubjectIdentifiable``), so its box may cross threads.
@usableFromInline
struct SubjectKey: Hashable, @unchecked Sendable {
  let value: AnyHashable

  @usableFromInline
  init<Subject: Hashable & Sendable>(_ subject: Subject) {
    value = AnyHashable(subject)
  }
}

/// The latest event about each subject of one event type, for at most `limit` subjects: when a
/// new subject would exceed it, the subject published least recently is forgotten (and can no
/// longer be replayed). Guarded by the bus's lock.
@usableFromInline
final class LatestBySubject<E: Event>: @unchecked Sendable {
  let limit: Int
  private let subjectOf: @Sendable (E) -> SubjectKey
  private var latest: [SubjectKey: (event: E, sequence: UInt64)] = [:]
  /// Subjects in publish order, oldest first; an entry is current only if its sequence number
  /// is still the subject's latest (later publishes about the subject leave stale entries).
  private var order: [(subject: SubjectKey, sequence: UInt64)] = []
  private var head = 0

  init(limit: Int, subjectOf: @escaping @Sendable (E) -> SubjectKey) {
    self.limit = limit
    self.subjectOf = subjectOf
  }

  /// How many subjects have a latest event.
  var count: Int { latest.count }

  @usableFromInline
  func record(_ event: E, _ sequence: UInt64) {
    let subject = subjectOf(event)
    latest[subject] = (event, sequence)
    order.append((subject, sequence))
    while latest.count > limit, head < order.count {
      let oldest = order[head]
      head += 1
      if latest[oldest.subject]?.sequence == oldest.sequence {
        latest[oldest.subject] = nil
      }
    }
    // Drop taken, stale and evicted entries once they outnumber the live ones, so that `order`
    // stays within twice the subjects kept: amortised O(1) per publish. (Counting from `head`
    // only, the array kept every subject ever published: 45 MB over a million subjects.)
    if order.count > 2 * Swift.max(latest.count, 16) {
      order = order[head...].filter { latest[$0.subject]?.sequence == $0.sequence }
      head = 0
    }
  }

  func latest(about subject: SubjectKey) -> (event: E, sequence: UInt64)? {
    latest[subject]
  }
}
