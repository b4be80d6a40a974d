#if HTTPServer
  import Hummingbird
  import TypedEvents

  // Positions and the store they belong to: the identity every token carries, and the check of a
  // position a client sends.
  @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
  extension EventsEndpoint {
    /// The store's identity, which every token it writes carries; asked of the store until it
    /// has one (an empty log has none), then kept, and asked again for every position a client
    /// sends (``positionProblem(_:)``), which finds a log file replaced under the endpoint.
    func storeIdentity() async throws -> String? {
      if let known = identity.withLock({ $0 }) { return known }
      let asked = try await store.storeIdentity()
      if let asked { identity.withLock { $0 = asked } }
      return asked
    }

    /// A 400 `bad-position` for a position of another store (or of one replaced since), or one
    /// the store never gives out: past its end, or inside an event. Reading from either would
    /// skip events, or tear one, in silence. A 503 when the store cannot say.
    func positionProblem(_ selection: Selection) async -> EventProblem? {
      guard let after = selection.after else { return nil }
      do {
        // Asked anew, not taken from what is kept: a log file may have been replaced.
        let current = try await store.storeIdentity()
        if let current { identity.withLock { $0 = current } }
        if let from = selection.afterStore, from != current {
          return EventProblem.badRequest(
            "bad-position", "the position is from another store, or from one this store replaced: read from the start")
        }
        guard try await store.isPosition(after) else {
          return EventProblem.badRequest(
            "bad-position", "the position is past the end of the store, or not where an event ends")
        }
      } catch {
        logger.warning("checking a position failed", metadata: ["error": "\(error)"])
        return EventProblem(
          status: 503, kind: "store-unavailable", title: "Store unavailable",
          detail: "the event store could not be read; try again")
      }
      return nil
    }
  }
#endif
