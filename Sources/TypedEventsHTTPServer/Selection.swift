#if HTTPServer
  import Foundation
  import Hummingbird
  import TypedEvents

  extension EventPermission {
    /// The permission to read `envelope`.
    init(read envelope: EventEnvelope) {
      self.init(action: .read, type: envelope.name, subject: envelope.subject, source: envelope.source)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
  extension EventsEndpoint {
    /// What a GET asks for: the position to go on after, the types and subject it filters on,
    /// and who asks.
    struct Selection: Sendable {
      var after: Store.Position?
      /// The identity of the store ``after``'s token is from; nil in a token without one.
      var afterStore: String?
      /// The types and subject asked for, within the principal's read scope: a store passes over
      /// the rest.
      var filter: EventReadFilter
      var principal: Principal
      var authorize: @Sendable (Principal, EventPermission) -> Bool

      /// Reads `Last-Event-ID` (sent by a reconnecting `EventSource`) or else `?after=`, the
      /// `type` parameters and `subject`. An empty `Last-Event-ID` is none, as the server-sent
      /// events standard has it (an `EventSource` whose last id is empty sends none); an empty
      /// `after` is refused: read from the start without it.
      ///
      /// - Throws: ``EventProblem``: 400 for text that is no position of the store, 403 when the
      ///   request names a subject and the principal may read none of the request's types about
      ///   it: those named by `type`, or without `type`, every type of `catalog`.
      init(_ request: Request, principal: Principal, access: EventAccess<Principal>, catalog: EventCatalog) throws {
        self.principal = principal
        self.authorize = access.authorize
        let header = request.headers[.lastEventID].flatMap { $0.isEmpty ? nil : $0 }
        let token = header ?? request.uri.queryParameters["after"].map(String.init)
        if token?.isEmpty == true {
          throw EventProblem.badRequest(
            "bad-position", "after is empty: leave it out to read from the start, or give a position")
        }
        if let token {
          guard let (position, store) = PositionToken.position(token, as: Store.Position.self) else {
            throw EventProblem.badRequest(
              "bad-position", "\(token.prefix(80)) is no position of this endpoint (from Last-Event-ID or after)")
          }
          after = position
          afterStore = store
        }
        let types = request.uri.queryParameters.getAll("type")
        let subject = request.uri.queryParameters["subject"].map(String.init)
        filter = EventReadFilter(types: types.isEmpty ? nil : Set(types), subject: subject)
        // What the principal may read at most, passed over in the store with the request's own.
        if let scope = access.readScope?(principal) { filter = filter.intersection(scope) }
        // One rule whether or not `type` is named: a subject the principal may read nothing
        // about is refused before any event is read, never served as a silent, empty stream.
        // Without `type` the catalog's names stand for every type, unless it reads names it
        // cannot list (patterns) or lists none: then the request is served, event by event.
        let listsEveryType = !catalog.eventNames.isEmpty && !catalog.matchesUnlistedNames
        if let subject, !types.isEmpty || listsEveryType {
          let asked = types.isEmpty ? catalog.eventNames : types
          if !asked.contains(where: {
            access.authorize(principal, EventPermission(action: .read, type: $0, subject: subject))
          }) {
            let what = types.isEmpty ? "no type of event" : "none of the types \(types.sorted())"
            throw EventProblem.forbidden("the principal may read \(what) about \(subject)")
          }
        }
      }

      /// Whether the request selects `envelope` and its principal may read it.
      func admits(_ envelope: EventEnvelope) -> Bool {
        admits(EventPermission(read: envelope))
      }

      /// Whether the request selects the event that `permission` reads, and its principal may.
      func admits(_ permission: EventPermission) -> Bool {
        // A UUID subject is stored as Swift writes it (upper case), and asked for as another
        // language does: the filter compares UUIDs by value.
        filter.admits(name: permission.type, subject: permission.subject) && authorize(principal, permission)
      }
    }
  }
#endif
