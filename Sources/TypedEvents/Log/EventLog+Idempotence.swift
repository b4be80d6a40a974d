import Foundation

extension EventLog: IdempotentEventStore, ValidatedEnvelopesAppending {
  /// Appends the envelopes whose `source` and `id` the log does not hold, with one `write` and,
  /// by default, one `fsync`, and returns where each is.
  ///
  /// The log keeps the identity (`source` and `id`) of every envelope in memory, read from the
  /// file on the first call and then from what was appended since, by this object or any other
  /// writer: memory grows with the log. The reading, writing and syncing happen on the log's
  /// writer thread, never on the caller's (see "Appending from async code" in ``EventLog``):
  /// calls made at the same moment share one `fsync`, and each returns after it. Two calls on
  /// one `EventLog` object never append the same pair twice; two objects or processes appending
  /// the same pair at the same moment can, as nothing locks the file between them, so one
  /// process writes a log that takes retried events.
  ///
  /// - Throws: ``EventLogError/malformed(_:)`` for an envelope that ``EventEnvelope/validate()``
  ///   refuses (nothing is written), ``EventLogError/io(path:reason:)`` when reading or writing
  ///   fails.
  public func appendOnce(_ envelopes: [EventEnvelope]) async throws -> [AppendedEnvelope<Position>] {
    guard !envelopes.isEmpty else { return [] }
    return try await submit(try checkedLines(envelopes, validating: true), kind: .once)
  }

  /// ``appendOnce(_:)`` without validating each envelope again (``ValidatedEnvelopesAppending``).
  package func appendOnce(validated envelopes: [EventEnvelope]) async throws -> [AppendedEnvelope<Position>] {
    guard !envelopes.isEmpty else { return [] }
    return try await submit(try checkedLines(envelopes, validating: false), kind: .once)
  }

  /// Reads the identities of the whole lines after those already indexed.
  ///
  /// A line whose bytes are those of the next line in `written` (what this call has just
  /// validated and written, in order) holds that envelope, so it is not decoded again: reading
  /// back a large event cost as much as checking it had. Any other line, another writer's, is
  /// decoded.
  func catchUp(
    _ index: inout IdentityIndex, recognizing written: [(line: Data, envelope: EventEnvelope)] = []
  ) throws {
    var next = written.startIndex
    let recognize = { (bytes: Data) -> LineShortcut? in
      guard next < written.endIndex, bytes == written[next].line else { return nil }
      defer { next += 1 }
      return .known(written[next].envelope)
    }
    _ = try scanLines(after: index.end, includingUnfinishedLine: false, shortcut: recognize) { _, scanned, end in
      // The first copy of a pair is the stored one, if two writers wrote it twice.
      if case .envelope(let entry) = scanned, index.positions[EnvelopeIdentity(entry.envelope)] == nil {
        index.positions[EnvelopeIdentity(entry.envelope)] = end
      }
      index.end = end
      return true
    }
  }
}

/// The identities of a log's envelopes up to ``end``, each with the position after its line.
struct IdentityIndex {
  var positions: [EnvelopeIdentity: EventLog.Position] = [:]
  var end = EventLog.Position.start
  /// Whether it has been read from the file: from then on, every append keeps it current.
  var isBuilt = false
}
