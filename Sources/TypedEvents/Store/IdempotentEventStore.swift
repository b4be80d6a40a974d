/// A store that knows an envelope it holds by its CloudEvents `source` and `id`, so that a
/// producer that sends an event again (after a timeout, a dropped connection or its own crash)
/// never stores it twice.
///
/// CloudEvents makes `source` + `id` an event's identity: a producer sends the same pair for the
/// same occurrence, however often it retries. An HTTP endpoint answers a retried request with the
/// position the first one stored. Both are compared as their UTF-8 bytes: an id spelled with
/// another normalization of the same text is another event.
public protocol IdempotentEventStore: EventStore {
  /// Appends, in order and as one unit where the store can, those of `envelopes` whose `source`
  /// and `id` it does not hold yet, and returns for each of `envelopes`, in order, where it is
  /// stored: where it was appended now, or where the same `source` and `id` already were. A pair
  /// that comes twice in `envelopes` is appended once.
  ///
  /// What is stored under a pair is what came first: an envelope that repeats a stored pair
  /// with other content is not appended, and its ``AppendedEnvelope/wasStored`` is true.
  func appendOnce(_ envelopes: [EventEnvelope]) async throws -> [AppendedEnvelope<Position>]
}

/// A store that can leave out ``EventEnvelope/validate()`` when it appends, for a caller in this
/// package that has checked every rule of it: the HTTP endpoint checks each event's data with
/// ``StrictJSON`` as it reads the request and each attribute as it admits it, and checking them
/// again took as long as half the endpoint's own work on a batch.
package protocol ValidatedEnvelopesAppending: IdempotentEventStore {
  /// ``IdempotentEventStore/appendOnce(_:)`` for envelopes that each pass
  /// ``EventEnvelope/validate()``, as the caller has made sure. A debug build validates them all
  /// the same and stops at one that does not pass: a caller's check that falls short of
  /// `validate()` fails its tests instead of storing what no reader can read.
  func appendOnce(validated envelopes: [EventEnvelope]) async throws -> [AppendedEnvelope<Position>]
}

/// Where ``IdempotentEventStore/appendOnce(_:)`` stored an envelope.
public struct AppendedEnvelope<Position: Hashable & Sendable>: Sendable, Hashable {
  /// The envelope's position, as ``StoredEnvelope/position``: reading after it gives the
  /// envelopes that follow.
  public var position: Position
  /// Whether the store held the envelope's `source` and `id` already, so nothing was appended.
  public var wasStored: Bool

  /// Creates an answer.
  public init(position: Position, wasStored: Bool) {
    self.position = position
    self.wasStored = wasStored
  }
}

/// An envelope's identity: CloudEvents' `source` and `id` (no source reads as the empty one),
/// compared as their UTF-8 bytes, as PostgreSQL's `text` and every other language compare them.
/// Swift's `String` equality would take two spellings of `é` (NFC and NFD) for one id, so two
/// stores, or a store and a reader elsewhere, would disagree on what is a repeat.
package struct EnvelopeIdentity: Hashable, Sendable {
  package var source: [UInt8]
  package var id: [UInt8]

  package init(_ envelope: EventEnvelope) {
    self.init(source: envelope.source ?? "", id: envelope.id)
  }

  package init(source: String, id: String) {
    self.source = Array(source.utf8)
    self.id = Array(id.utf8)
  }
}
