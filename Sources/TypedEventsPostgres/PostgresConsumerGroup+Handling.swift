#if PostgreSQL
  import Foundation
  import PostgresNIO
  import Tracing
  import TypedEvents

  /// A member's handler calls (spans, metrics, retries, parking) and what it reports of its
  /// partitions.
  extension PostgresConsumerGroup {
    /// Logs and counts the partitions a round took and gave up, and reports what the member
    /// holds: to ``onAssignment`` after its first round (`before` nil) and after every round that
    /// changed them.
    func report(_ round: GroupRound, member: UUID, before previous: Set<Int>?) {
      typealias Key = PostgresEventStoreMetrics.Key
      let now = Set(round.held.keys)
      let before = previous ?? []
      let (taken, givenUp) = (now.subtracting(before), before.subtracting(now))
      let observability = store.observability
      observability.set(
        PostgresEventStoreMetrics.partitions, Double(now.count), [(Key.group, name), (Key.member, "\(member)")])
      observability.set(PostgresEventStoreMetrics.members, Double(round.members), [(Key.group, name)])
      if now != before || previous == nil {
        onAssignment?(Assignment(member: member, partitions: now.sorted(), members: round.members))
      }
      guard now != before else { return }
      if !taken.isEmpty {
        observability.count(
          PostgresEventStoreMetrics.partitionChanges, by: taken.count, [(Key.group, name), (Key.change, "taken")])
      }
      if !givenUp.isEmpty {
        observability.count(
          PostgresEventStoreMetrics.partitionChanges, by: givenUp.count, [(Key.group, name), (Key.change, "given_up")])
      }
      store.logger.info(
        "consumer group \(name): member \(member) holds partitions \(now.sorted())",
        metadata: ["taken": "\(taken.sorted())", "given up": "\(givenUp.sorted())"])
    }

    /// Sets the lag gauges of the member's partitions.
    func reportLag(of held: [Int: PostgresEventPosition?]) async throws {
      typealias Key = PostgresEventStoreMetrics.Key
      guard !held.isEmpty else { return }
      let now = Date().timeIntervalSinceReferenceDate
      for lag in try await store.lag(of: held, in: partitions) {
        let dimensions = [(Key.group, name), (Key.partition, "\(lag.partition)")]
        store.observability.set(PostgresEventStoreMetrics.lag, Double(lag.events), dimensions)
        store.observability.set(
          PostgresEventStoreMetrics.lagSeconds, lag.oldest.map { max(0, now - $0) } ?? 0, dimensions)
      }
    }

    /// Calls the handler up to ``attempts`` times, then parks the event. Each call runs in a
    /// consumer span whose parent is the trace context the writer stored in the envelope: the
    /// handler handles one event at a time, so each call continues its own writer's trace
    /// (a batch-wide span with links would make every handler a sibling of the others instead).
    func handle(
      _ event: any Event, _ delivery: Delivery, tracer: (any Tracer)?,
      _ handler: (any Event, Delivery) async throws -> Void
    ) async throws {
      let stored = StoredEnvelope(position: delivery.position, envelope: delivery.envelope)
      typealias Key = PostgresEventStoreMetrics.Key
      let observability = store.observability
      // Without a tracer (nil) or a metrics backend, a handler call costs what it did without them.
      let parent = tracer.map { stored.envelope.traceContext(instrument: $0) } ?? .topLevel
      let dimensions = observability.measures ? [(Key.group, name), (Key.eventType, stored.envelope.name)] : []
      let (name, store) = (name, store)
      var delay = retryDelay
      for attempt in 1...attempts {
        let started = ContinuousClock.now
        do {
          if let tracer {
            try await tracer.withSpan("process \(name)", context: parent, ofKind: .consumer) { span in
              span.attributes[Key.system] = PostgresEventStoreMetrics.system
              span.attributes[Key.destination] = store.channel  // a new string: only when tracing
              span.attributes[Key.operationName] = "process"
              span.attributes[Key.operationType] = "process"
              span.attributes[Key.group] = name
              span.attributes[Key.partition] = "\(delivery.partition)"
              span.attributes[Key.messageID] = stored.envelope.id
              span.attributes[Key.eventType] = stored.envelope.name
              if let subject = stored.envelope.subject { span.attributes[Key.eventSubject] = subject }
              try await handler(event, delivery)
            }
          } else {
            try await handler(event, delivery)
          }
          observability.time(PostgresEventStoreMetrics.processDuration, ContinuousClock.now - started, dimensions)
          observability.count(PostgresEventStoreMetrics.consumedMessages, dimensions)
          return
        } catch {
          observability.time(
            PostgresEventStoreMetrics.processDuration, ContinuousClock.now - started,
            dimensions + [(Key.errorType, String(describing: type(of: error)))])
          try Task.checkCancellation()
          if attempt == attempts {
            try await store.park(stored, group: name, attempts: attempts, error: error)
            observability.count(PostgresEventStoreMetrics.deadLetters, dimensions)
            store.logger.error(
              "consumer group \(name): parked \(stored.envelope.name) \(stored.envelope.id) after \(attempts) attempts",
              metadata: ["error": "\(error)"])
            return
          }
          observability.count(PostgresEventStoreMetrics.retries, dimensions)
          try await Task.sleep(for: delay)
          delay *= 2
        }
      }
    }
  }
#endif
