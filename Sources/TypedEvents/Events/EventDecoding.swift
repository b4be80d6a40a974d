import Foundation

/// How an ``EventCatalog`` reads the data of one of its types. Whether the type is
/// ``FieldCodable`` (a conformance look-up) is decided once, when the catalog is made, instead of
/// for every event, and what ``JSONFieldReader`` read needs no cast back to the type. Whether
/// the reader still tries the type is a flag of the type's own: a lock for each event, where a
/// set of all the types the reader gave up on cost a hash too. A class: a look-up takes one
/// reference, where a copy of a struct retained each of its closures.
package final class EventDecoding: Sendable {
  /// The type.
  package let type: any Event.Type
  /// The type's ``Event/eventVersion``.
  let version: Int
  /// Whether the type is a ``BinaryEvent``, whose data is bytes rather than JSON.
  package let isBinary: Bool
  /// The subject text of an event of the type, as ``EventEnvelope`` writes it: nil unless it is
  /// ``SubjectIdentifiable``. Found once for the type: casting each event to that protocol took
  /// a twentieth of an endpoint's own time an event.
  package let subjectText: @Sendable (any Event) -> String?
  /// Reads an event of the type from its JSON data, and says whether ``JSONFieldReader`` read
  /// it: then the whole data was scanned as strict JSON, where `JSONDecoder` only skims what no
  /// field reads. The flag says the data's keys were checked distinct already (``StrictJSON``):
  /// the reader does not look for a repeat again.
  let decode: @Sendable (Data, _ keysChecked: Bool) throws -> (event: any Event, readDirectly: Bool)
  /// Whether ``decode`` tries ``JSONFieldReader`` first; nil for a type it never reads.
  private let direct: Locked<Bool>?

  init<E: Event>(_ type: E.Type) {
    self.type = type
    version = type.eventVersion
    isBinary = type is any BinaryEvent.Type
    if let identifiable = type as? any (Event & SubjectIdentifiable).Type {
      subjectText = Self.subjectText(identifiable)
    } else {
      subjectText = { _ in nil }
    }
    if let binary = type as? any BinaryEvent.Type {
      // Bytes, not JSON: the type reads them itself.
      decode = { data, _ in (try binary.init(bytes: data), false) }
      direct = nil
    } else if let fields = type as? any (Event & FieldCodable).Type {
      (decode, direct) = Self.decoding(fields)
    } else {
      decode = { data, _ in (try EventJSON.decoder.decode(E.self, from: data), false) }
      direct = nil
    }
  }

  private static func subjectText<S: Event & SubjectIdentifiable>(_ type: S.Type) -> @Sendable (any Event) -> String? {
    { event in (event as? S).map(EventEnvelope.subjectText(of:)) }
  }

  /// Whether ``decode`` tries ``JSONFieldReader`` first: a generated type, until an event showed
  /// a field of a type the reader does not read.
  var readsDirectly: Bool { direct?.withLock { $0 } ?? false }

  /// Generated types are read without `JSONDecoder` where that is sure to give the same, and with
  /// it otherwise, which decides and words any error. A type with a field the reader does not
  /// read (`Decimal`, say), a wire key not in ASCII, or other keys (`additionalProperties`) goes
  /// to `JSONDecoder` from then on, without a scan first that would only add to its time.
  private static func decoding<F: Event & FieldCodable>(
    _ type: F.Type
  ) -> (@Sendable (Data, Bool) throws -> (event: any Event, readDirectly: Bool), Locked<Bool>) {
    let readsDirectly = Locked(true)
    let decode: @Sendable (Data, Bool) throws -> (event: any Event, readDirectly: Bool) = { data, keysChecked in
      if readsDirectly.withLock({ $0 }) {
        do throws(JSONFieldReader.Unsure) {
          return (try JSONFieldReader.read(F.self, from: data, keysChecked: keysChecked), true)
        } catch {
          if error.typeNotRead { readsDirectly.withLock { $0 = false } }
        }
      }
      return (try EventJSON.decoder.decode(F.self, from: data), false)
    }
    return (decode, readsDirectly)
  }
}
