#if HTTPServer
  import Foundation
  import HTTPTypes
  import Hummingbird
  import NIOCore
  import TypedEvents

  @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
  extension EventsEndpoint {
    /// Appends the CloudEvents of a POST, in the HTTP binding's binary, structured or batch mode,
    /// once each by `source` and `id`; every event is checked before any is appended.
    func post(_ request: Request, identity: Principal? = nil) async -> Response {
      guard let principal = await principal(of: request, identity: identity) else {
        return EventProblem.unauthenticated.response
      }
      if let problem = parameterProblem(request) { return problem.response }
      do {
        var envelopes = try await incoming(request)
        // Authorized before the data is read, so that a principal that may not append learns
        // nothing of the catalog or its types; a UUID subject as the store will keep it (upper
        // case). Indices, not `enumerated()`, and no copy of each envelope: this generic function
        // is not specialized for the store, and each of those costs runtime look-ups an event.
        var authorized: [String?] = []
        authorized.reserveCapacity(envelopes.count)
        for index in envelopes.indices {
          let subject = envelopes[index].subject.map { UUID(uuidString: $0)?.uuidString ?? $0 }
          try authorize(
            principal, name: envelopes[index].name, source: envelopes[index].source, subject: subject, index: index)
          authorized.append(subject)
        }
        // The type of the last event, which the next one of a batch most often shares: hashing
        // its name for each event took a sixtieth of the endpoint's own time.
        var lastType: (name: String, decoding: EventDecoding)?
        for index in envelopes.indices {
          try check(&envelopes[index], index: index, lastType: &lastType)
          // A subject that looked like a UUID but is text to its type is stored as written.
          if envelopes[index].subject != authorized[index] {
            try authorize(
              principal, name: envelopes[index].name, source: envelopes[index].source,
              subject: envelopes[index].subject,
              index: index)
          }
        }
        let appended: [AppendedEnvelope<Store.Position>]
        do {
          appended = try await appendChecked(envelopes)
        } catch EventLogError.malformed(let reason) {
          // The store refuses the events themselves: a retry cannot succeed.
          throw EventProblem(status: 409, kind: "conflict", title: "Conflict", detail: reason)
        } catch {
          return unavailable(error)
        }
        let identity: String?
        do {
          identity = try await storeIdentity()
        } catch {
          return unavailable(error)
        }
        return try answer(envelopes, appended, store: identity)
      } catch let problem as EventProblem {
        return problem.response
      } catch {
        logger.error("answering an append failed", metadata: ["error": "\(error)"])
        return EventProblem(
          status: 500, kind: "internal", title: "Internal error", detail: "the server could not answer; see its log"
        ).response
      }
    }

    /// Throws 403 unless `principal` may append an event of type `name` from `source` about
    /// `subject`. The attributes, not the envelope: a copy of each envelope cost more than its
    /// authorization.
    private func authorize(_ principal: Principal, name: String, source: String?, subject: String?, index: Int) throws {
      let permission = EventPermission(action: .append, type: name, subject: subject, source: source)
      guard access.authorize(principal, permission) else {
        throw EventProblem.forbidden(
          "the principal may not append \(permission.type)" + (subject.map { " about \($0)" } ?? ""), event: index)
      }
    }

    /// Refuses an event the catalog does not know, or whose data does not decode as its type,
    /// or whose subject is not its data's. A subject that is a UUID is compared by value (Python's
    /// `str(uuid4())` is lower case, Swift's `uuidString` upper case) and stored as Swift writes
    /// it, so that filters and authorization by subject see one spelling.
    private func check(
      _ envelope: inout EventEnvelope, index: Int, lastType: inout (name: String, decoding: EventDecoding)?
    ) throws {
      let decoding: EventDecoding
      if let lastType, lastType.name == envelope.name {
        decoding = lastType.decoding
      } else if let found = catalog.decoding(named: envelope.name) {
        decoding = found
        lastType = (envelope.name, found)
      } else {
        throw EventProblem.unprocessable(
          "unknown-type", "no event type of this endpoint is named \(envelope.name)", event: index)
      }
      // Bytes of another content type that its type reads as JSON (`data_base64` without a
      // content type, a JSON event sent as `text/plain`) were no JSON to the reader: the
      // grammar checks them now, as it checked every JSON body, within the depth data has in
      // every mode.
      if !envelope.hasJSONPayload && !decoding.isBinary {
        do {
          try StrictJSON.check(envelope.payload, limits: configuration.jsonLimits.nested(in: 2))
        } catch {
          throw EventProblem.badRequest(
            "malformed-cloudevent", "the data of \(envelope.name), read as JSON, is not JSON at \(error)", event: index)
        }
      }
      let event: any Event
      do {
        // All of `validate()` holds already (see `appendChecked`), and the store checks none of it
        // again.
        // Its type decides the data's shape: an object for most events, any JSON value for one
        // whose message is a string, a number, a Boolean or an array. The data's keys are not
        // looked at for repeats again: the grammar refused those, in the reader or above (a
        // 1 MiB object of 65,000 keys took half again as long when they were).
        event = try envelope.decodeSayingReader(with: decoding, keysChecked: true).event
      } catch let error as DecodingError {
        throw EventProblem.unprocessable(
          "undecodable-data", "the data of \(envelope.name) does not decode: \(DecodingProblem(error))", event: index)
      } catch {
        throw EventProblem.unprocessable(
          "undecodable-data", "the data of \(envelope.name) does not decode: \(error)", event: index)
      }
      // Compared as bytes, as stores and other languages compare text: Swift's `==` takes an
      // NFC and an NFD spelling for one, and the subject stored would not be the data's.
      let subject = decoding.subjectText(event)
      let differs = subject.map { subject in envelope.subject.map { !$0.utf8.elementsEqual(subject.utf8) } ?? true }
      if let subject, differs == true, Self.isUUID(subject, spelled: envelope.subject) {
        envelope.subject = subject
      } else if let subject, differs == true {
        throw EventProblem.unprocessable(
          "subject-mismatch",
          "the subject attribute is \(envelope.subject.map { "\"\($0)\"" } ?? "missing"); the data's subject is \"\(subject)\"",
          event: index)
      }
    }

    /// Whether `spelled` is the UUID `subject` written in another case.
    private static func isUUID(_ subject: String, spelled: String?) -> Bool {
      guard let spelled, let uuid = UUID(uuidString: subject) else { return false }
      return UUID(uuidString: spelled) == uuid && spelled.utf8.count == subject.utf8.count
    }

    /// `appendOnce` of envelopes that ``check(_:index:lastType:)`` has passed, without the store
    /// validating each again where it can leave that out: every mode's reader had ``StrictJSON``
    /// check the data, `admit()` checked the attributes and put the data on one line, and the
    /// readers refuse an empty id or type, all that ``EventEnvelope/validate()`` checks.
    /// Validating them again took a tenth of the endpoint's own time on a batch.
    private func appendChecked(_ envelopes: [EventEnvelope]) async throws -> [AppendedEnvelope<Store.Position>] {
      guard let validating = store as? any ValidatedEnvelopesAppending else {
        return try await store.appendOnce(envelopes)
      }
      return try await Self.appendOnce(validated: envelopes, to: validating)
    }

    private static func appendOnce<Validating: ValidatedEnvelopesAppending>(
      validated envelopes: [EventEnvelope], to store: Validating
    ) async throws -> [AppendedEnvelope<Store.Position>] {
      let appended = try await store.appendOnce(validated: envelopes)
      // `Validating` is `Store` itself, so the positions' types are one: the array is taken as
      // it is. `as?` cast it element by element, a tenth of answering a batch.
      guard Validating.Position.self == Store.Position.self else { throw PositionTypeMismatch() }
      return unsafeBitCast(appended, to: [AppendedEnvelope<Store.Position>].self)
    }

    /// Thrown if a store's `appendOnce(validated:)` gave positions of another type than its
    /// `Position`, which no store in this package does.
    private struct PositionTypeMismatch: Error {}

    /// 201 when anything was appended, 200 when every event was stored before; the body lists,
    /// in order, each event's `source`, `id`, position token and whether it was stored before.
    private func answer(
      _ envelopes: [EventEnvelope], _ appended: [AppendedEnvelope<Store.Position>], store: String?
    ) throws -> Response {
      var answer = AppendAnswer(capacity: envelopes.count)
      let plain = store.map(PositionToken.isPlain) ?? true
      // The type compared, not cast: `as?` is a dynamic cast for every token of an answer.
      if plain, Store.Position.self == EventLog.Position.self {
        // The file log's positions, written outside this generic function: each element of the
        // generic array, and its position, took type metadata look-ups an event.
        answer.write(envelopes, unsafeBitCast(appended, to: [AppendedEnvelope<EventLog.Position>].self), store: store)
      } else {
        var token: [UInt8] = []
        try envelopes.withUnsafeBufferPointer { envelopes in
          for index in envelopes.indices {
            token.removeAll(keepingCapacity: true)
            try PositionToken.append(appended[index].position, store: store, plain: plain, to: &token)
            answer.write(
              envelopes.baseAddress.unsafelyUnwrapped + index, wasStored: appended[index].wasStored, logOffset: nil,
              store: store, token: token)
          }
        }
      }
      return answer.response()
    }
  }

  /// A decoding error as a sentence naming where: `at items[2].price: expected a number`.
  struct DecodingProblem: CustomStringConvertible {
    let error: DecodingError

    init(_ error: DecodingError) { self.error = error }

    var description: String {
      switch error {
      case .keyNotFound(let key, let context):
        return "at \(path(context.codingPath + [key])): the key is missing"
      case .typeMismatch(let type, let context):
        return "at \(path(context.codingPath)): expected \(type): \(context.debugDescription)"
      case .valueNotFound(let type, let context):
        return "at \(path(context.codingPath)): expected \(type), found null"
      case .dataCorrupted(let context):
        return "at \(path(context.codingPath)): \(context.debugDescription)"
      @unknown default:
        return "\(error)"
      }
    }

    private func path(_ keys: [any CodingKey]) -> String {
      guard !keys.isEmpty else { return "the top level" }
      var text = ""
      for key in keys {
        if let index = key.intValue {
          text += "[\(index)]"
        } else {
          text += (text.isEmpty ? "" : ".") + key.stringValue
        }
      }
      return text
    }
  }
#endif
