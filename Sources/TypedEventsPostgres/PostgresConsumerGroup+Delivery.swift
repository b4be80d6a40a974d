#if PostgreSQL
  import Foundation
  import Tracing
  import TypedEvents

  /// A member's turns: its rounds, its reads, its batches and their checkpoints.
  extension PostgresConsumerGroup {
    /// What a member knows between batches.
    struct MemberState {
      /// The partitions it holds, with their checkpoints (nil before the first).
      var held: [Int: PostgresEventPosition?] = [:]
      /// When its last round began, by this process's clock: its leases last at least
      /// ``lease`` from then.
      var round: ContinuousClock.Instant?
      /// When it last saved checkpoints that only the horizon moved.
      var idleSave: ContinuousClock.Instant?
      /// When it last reported its partitions' lag.
      var lagReport: ContinuousClock.Instant?
    }

    /// One turn: a round when one is due, then batches of the member's partitions delivered
    /// and checkpointed for as long as reads find events, or a wait for new events.
    ///
    /// A member reads its next batch while its handler runs the current one, from where that
    /// batch's checkpoints will be once it is saved. The batch read ahead is delivered only if
    /// they are: a round that moved partitions, or a save that found one taken over, drops it
    /// and the next turn reads again. It is never handled before the batch in front of it is
    /// saved, so a crash still delivers at most one batch again. With a handler that waits, the
    /// read costs no time of its own; with one that does not, the read and the save overlap.
    func deliverBatches(
      as member: UUID, state: inout MemberState, _ handler: (any Event, Delivery) async throws -> Void
    ) async throws {
      try await maintain(as: member, state: &state)
      guard !state.held.isEmpty else {
        // No partition is this member's now: it stands by, and a later round may give it some.
        try? await Task.sleep(for: roundInterval)
        return
      }
      let wakeUps = await store.wakeUps.generation
      var batch = try await store.read(partitions: state.held, of: partitions, limit: batchSize)
      if batch.isEmpty {
        try await idle(after: batch, as: member, state: &state)
        if !batch.full {
          // A full scan of others' events reads on at once; otherwise there is nothing until
          // the next wake-up.
          await store.wakeUps.wait(since: wakeUps, timeout: min(pollInterval, roundInterval))
        }
        return
      }
      while true {
        let expected = batch.next.map { Self.advanced(state.held, to: $0) }
        async let following = read(ahead: expected)
        guard try await handleBatch(batch, as: member, state: &state, handler), let next = batch.next else { return }
        try await save(upTo: next, as: member, state: &state)
        // A read ahead that failed throws here, with the batch before it saved. A round due now
        // runs before the first event of `ahead` is handled (in `handleBatch`).
        let ahead = try await following
        guard let ahead, !ahead.isEmpty, state.held == expected, !Task.isCancelled else { return }
        batch = ahead
      }
    }

    /// The next batch from `checkpoints`, or nil when there is nothing to read from.
    private func read(ahead checkpoints: [Int: PostgresEventPosition?]?) async throws -> PartitionBatch? {
      guard let checkpoints else { return nil }
      return try await store.read(partitions: checkpoints, of: partitions, limit: batchSize)
    }

    /// `held` with every partition behind `position` moved to it: what ``save(upTo:as:state:)``
    /// leaves when no partition was taken over, and where an idle member's partitions go on from.
    static func advanced(
      _ held: [Int: PostgresEventPosition?], to position: PostgresEventPosition
    ) -> [Int: PostgresEventPosition?] {
      held.mapValues { checkpoint in checkpoint.map { max($0, position) } ?? position }
    }

    /// Whether a round is due at `now`.
    private func roundDue(_ state: MemberState, at now: ContinuousClock.Instant) -> Bool {
      state.round.map { now - $0 >= roundInterval } ?? true
    }

    /// Whether the lag gauges are due at `now`: never without a metrics backend.
    private func lagReportDue(_ state: MemberState, at now: ContinuousClock.Instant) -> Bool {
      store.observability.measures && (state.lagReport.map { now - $0 >= min(pollInterval, roundInterval) } ?? true)
    }

    /// Runs a round when one is due and reports the lag when that is due.
    private func maintain(as member: UUID, state: inout MemberState) async throws {
      let now = ContinuousClock.now
      if roundDue(state, at: now) {
        let round = try await store.groupRound(group: name, member: member, partitions: partitions, lease: lease)
        guard round.partitions == partitions else {
          throw PostgresEventStoreError.partitionCountChanged(
            group: name, stored: round.partitions, requested: partitions)
        }
        report(round, member: member, before: state.round == nil ? nil : Set(state.held.keys))
        // A checkpoint this member moved in memory only (the horizon) is not lost by a round.
        let known = state.held
        state.held = round.held.reduce(into: [:]) { result, entry in
          let inMemory = known[entry.key].flatMap { $0 }
          let merged: PostgresEventPosition? =
            entry.value.map { saved in inMemory.map { max(saved, $0) } ?? saved } ?? inMemory
          result[entry.key] = .some(merged)
        }
        state.round = now
      }
      if lagReportDue(state, at: now) {
        state.lagReport = now
        do {
          try await reportLag(of: state.held)
        } catch {
          // A metric must not stop delivery.
          store.logger.warning("consumer group \(name): lag not measured", metadata: ["error": "\(error)"])
        }
      }
    }

    /// After a read that held none of the member's events: its partitions move on, in memory,
    /// and in the database at most once per round, so that an idle member neither scans the
    /// others' events again nor writes for each read.
    private func idle(after batch: PartitionBatch, as member: UUID, state: inout MemberState) async throws {
      guard let next = batch.next, !Self.partitions(of: state.held, before: next).isEmpty else { return }
      let now = ContinuousClock.now
      if state.idleSave.map({ now - $0 >= roundInterval }) ?? true {
        try await save(upTo: next, as: member, state: &state)
        state.idleSave = now
      } else {
        state.held = Self.advanced(state.held, to: next)
      }
    }

    /// Hands every event of `batch` to the handler, in order, running the rounds that fall due
    /// between two of them. Returns false when a round changed the member's partitions: what was
    /// handled is saved, and the rest must be read again.
    private func handleBatch(
      _ batch: PartitionBatch, as member: UUID, state: inout MemberState,
      _ handler: (any Event, Delivery) async throws -> Void
    ) async throws -> Bool {
      for reason in batch.skipped { onSkipped(.init(envelope: nil, reason: reason)) }
      // Looked up once a batch: finding the bootstrapped tracer takes a lock and casts.
      let tracer = store.observability.tracer
      let tracing = tracer is NoOpTracer ? nil : tracer
      var handled: PostgresEventPosition?
      do {
        for (partition, stored) in batch.envelopes {
          // A round or the lag is due: before the next event, what was handled is saved and the
          // round runs, so that slow handlers cannot outlast the leases. The rest of the batch
          // is still this member's only if the round left its partitions as they were.
          let now = ContinuousClock.now
          let round = roundDue(state, at: now)
          if round || lagReportDue(state, at: now) {
            if round, let handled { try await save(upTo: handled, as: member, state: &state) }
            let before = state.held
            try await maintain(as: member, state: &state)
            guard state.held == before else { return false }
          }
          let event: any Event
          do {
            event = try stored.envelope.decode(using: catalog, acceptingNewerVersions: acceptingNewerVersions)
          } catch {
            onSkipped(.init(envelope: stored.envelope, reason: "\(error)"))
            handled = stored.position
            continue
          }
          let delivery = Delivery(
            envelope: stored.envelope, position: stored.position, partition: partition, member: member)
          try await handle(event, delivery, tracer: tracing, handler)
          handled = stored.position  // not before: an event whose handler was stopped comes again
        }
      } catch {
        // Stopped in the middle of the batch (cancelled while a handler ran, or the database
        // failed while parking): what was handled is saved, so that whoever goes on starts at
        // the first event that was not.
        if let handled {
          try? await save(upTo: handled, as: member, state: &state)
        }
        throw error
      }
      return true
    }

    /// The partitions of `held` whose checkpoint is before `position`.
    static func partitions(
      of held: [Int: PostgresEventPosition?], before position: PostgresEventPosition
    ) -> [Int] {
      held.compactMap { partition, checkpoint in checkpoint.map { $0 < position } ?? true ? partition : nil }
    }

    /// Moves the checkpoint of every partition the member holds that is behind `position` to
    /// it: every event of those partitions up to there was handled. Saved even as the task is
    /// cancelled, so that the next member does not deliver them again. A partition whose save
    /// finds another owner is this member's no more.
    func save(upTo position: PostgresEventPosition, as member: UUID, state: inout MemberState) async throws {
      let behind = Self.partitions(of: state.held, before: position)
      guard !behind.isEmpty else { return }
      let (store, group, length) = (store, name, lease)
      let saved = try await finishing {
        try await store.saveCheckpoints(group: group, member: member, partitions: behind, at: position, lease: length)
      }
      for partition in behind {
        if saved.contains(partition) {
          state.held[partition] = position
        } else {
          state.held[partition] = nil
          store.logger.warning("consumer group \(name): partition \(partition) was taken over; leaving it")
        }
      }
    }
  }

  extension PartitionBatch {
    /// Whether the read found none of the member's rows.
    var isEmpty: Bool { envelopes.isEmpty && skipped.isEmpty }
  }
#endif
