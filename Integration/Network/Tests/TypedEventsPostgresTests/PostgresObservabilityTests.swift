#if PostgreSQL
  import CoreMetrics
  import Foundation
  import InMemoryTracing
  import Instrumentation
  import MetricsTestKit
  import PostgresNIO
  import SampleEvents
  import Testing
  import Tracing
  import TypedEvents
  @testable import TypedEventsPostgres

  /// What an operator sees: the store's metrics, asserted by value with swift-metrics' test kit,
  /// and its traces, followed from a writer's span into the handler's with `InMemoryTracer`.
  extension PostgresEventStoreTests {
    typealias Names = PostgresEventStoreMetrics
    typealias Key = PostgresEventStoreMetrics.Key

    /// A store on `store`'s client and schema that reports to `metrics` and `tracer`.
    static func observed(
      _ store: PostgresEventStore, metrics: any MetricsFactory = NOOPMetricsHandler.instance,
      tracer: (any Tracer)? = nil
    ) throws -> PostgresEventStore {
      try PostgresEventStore(client: store.client, schema: store.schema, metrics: metrics, tracer: tracer)
    }

    /// The total of the counters labelled `label` whose dimensions include `wanted`.
    static func total(_ metrics: TestMetrics, _ label: String, _ wanted: [(String, String)]) -> Int64 {
      metrics.counters(label: label).filter { counter in
        wanted.allSatisfy { key, value in counter.dimensions.contains { $0 == key && $1 == value } }
      }.map(\.totalValue).reduce(0, +)
    }

    static func gauge(_ metrics: TestMetrics, _ label: String, _ wanted: [(String, String)]) -> [Double] {
      metrics.recorders(label: label).filter { recorder in
        wanted.allSatisfy { key, value in recorder.dimensions.contains { $0 == key && $1 == value } }
      }.flatMap(\.values)
    }

    @Test func metricsCountAppendedDeliveredRetriedAndParkedEventsAndReportLag() async throws {
      try await withStore { plain in
        let metrics = TestMetrics()
        let store = try Self.observed(plain, metrics: metrics)
        let subject = BoxID(UUID())
        try await store.append(["ok", "flaky", "poison", "a", "b"].map { try EventEnvelope(Self.box($0, subject)) })
        try await store.append([
          EventEnvelope(id: "tick", time: Date(), name: "Other.Tick", version: 1, payload: Data("{}".utf8))
        ])
        let box = "Inventory.BoxProvisioned"
        #expect(Self.total(metrics, Names.sentMessages, [(Key.eventType, box)]) == 5)
        #expect(Self.total(metrics, Names.sentMessages, [(Key.eventType, "Other.Tick")]) == 1)
        #expect(Self.total(metrics, Names.sentMessages, [(Key.destination, "\(store.schema).events")]) == 6)

        struct Failed: Error {}
        let calls = Collected<String>()
        let group = try PostgresConsumerGroup(
          store: store, name: "metered", catalog: GeneratedEvents.catalog, batchSize: 1,
          pollInterval: .milliseconds(50), attempts: 2, retryDelay: .milliseconds(1))
        let running = Task {
          try await group.run { event, _ in
            let title = Self.title(event)
            await calls.append(title)
            let flakyCalls = await calls.all.filter { $0 == "flaky" }.count
            if title == "poison" || (title == "flaky" && flakyCalls == 1) { throw Failed() }
            try await Task.sleep(for: .milliseconds(60))  // slow enough for the lag to be seen
          }
        }
        let dimensions = [(Key.group, "metered"), (Key.eventType, box)]
        try await eventually { Self.total(metrics, Names.consumedMessages, dimensions) == 4 }
        try await eventually { Self.gauge(metrics, Names.lag, [(Key.group, "metered")]).last == 0 }
        running.cancel()
        try await running.value

        // ok, flaky (second try), a, b delivered; flaky retried once; poison tried twice, parked.
        #expect(Self.total(metrics, Names.consumedMessages, dimensions) == 4)
        #expect(Self.total(metrics, Names.retries, dimensions) == 2)
        #expect(Self.total(metrics, Names.deadLetters, dimensions) == 1)
        let durations = metrics.timers(label: Names.processDuration)
        #expect(durations.flatMap(\.values).count == 7)  // one per handler call
        #expect(
          durations.filter { $0.dimensions.contains { $0.0 == Key.errorType } }.flatMap(\.values).count == 3)
        #expect(durations.flatMap(\.values).allSatisfy { $0 > 0 })
        // The lag: the 6 events before the first delivery (the tick too), then down to none.
        let lag = Self.gauge(metrics, Names.lag, [(Key.group, "metered"), (Key.partition, "0")])
        #expect(lag.first == 6, "\(lag)")
        #expect(lag == lag.sorted(by: >), "the lag only falls: \(lag)")
        let seconds = Self.gauge(metrics, Names.lagSeconds, [(Key.group, "metered")])
        #expect(seconds.contains { $0 > 0 } && seconds.last == 0, "\(seconds)")
        // The member held the one partition, alone, and took it once.
        #expect(Self.gauge(metrics, Names.partitions, [(Key.group, "metered")]).last == 1)
        #expect(Self.gauge(metrics, Names.members, [(Key.group, "metered")]).last == 1)
        #expect(Self.total(metrics, Names.partitionChanges, [(Key.group, "metered"), (Key.change, "taken")]) == 1)
      }
    }

    @Test func aStoreWithoutAMetricsBackendMeasuresNothing() async throws {
      try await withStore { store in
        let noop = try Self.observed(store, metrics: NOOPMetricsHandler.instance)
        let test = try Self.observed(store, metrics: TestMetrics())
        #expect(!store.observability.measures)  // the process bootstrapped no backend
        #expect(!noop.observability.measures)
        #expect(test.observability.measures)
      }
    }

    @Test func aTraceFollowsAnEventFromTheWritersSpanIntoTheHandlersInAnotherTask() async throws {
      try await withStore { plain in
        let tracer = InMemoryTracer()
        let store = try Self.observed(plain, tracer: tracer)
        // The writer: a request's span, and the append inside it, in a task of its own.
        let writer = Task {
          try await tracer.withSpan("POST /boxes") { _ in
            _ = try await store.append(Self.box("traced"))
          }
        }
        try await writer.value

        let handled = Collected<String>()
        let group = try PostgresConsumerGroup(
          store: store, name: "traced", catalog: GeneratedEvents.catalog, pollInterval: .milliseconds(50))
        let consumer = Task {
          try await group.run { _, _ in
            // The handler runs inside the consumer span: its context is the current one.
            await handled.append(InstrumentationContext.current?.inMemorySpanContext?.traceID ?? "none")
          }
        }
        try await eventually { await handled.count == 1 }
        consumer.cancel()
        try await consumer.value

        let spans = tracer.finishedSpans
        let request = try #require(spans.first { $0.operationName == "POST /boxes" })
        let send = try #require(spans.first { $0.operationName == "send \(store.schema).events" })
        let process = try #require(spans.first { $0.operationName == "process traced" })
        #expect(send.kind == .producer && process.kind == .consumer)
        #expect(send.traceID == request.traceID && process.traceID == request.traceID)
        #expect(send.parentSpanID == request.spanID)
        #expect(process.parentSpanID == send.spanID)
        #expect(await handled.all == [request.traceID])
        #expect(process.attributes[Key.group]?.toSpanAttribute() == .string("traced"))
        #expect(process.attributes[Key.operationType]?.toSpanAttribute() == .string("process"))
        #expect(process.attributes[Key.partition]?.toSpanAttribute() == .string("0"))
        #expect(process.attributes[Key.eventType]?.toSpanAttribute() == .string("Inventory.BoxProvisioned"))
        #expect(send.attributes[Key.system]?.toSpanAttribute() == .string("typedevents"))
        // Stored as CloudEvents attribute names: InMemoryTracer's keys, letters and digits only.
        let stored = try #require(try await store.read(after: nil, limit: 1).envelopes.first?.envelope)
        #expect(stored.metadata["inmemorytraceid"] == .string(request.traceID))
        #expect(stored.metadata["inmemoryspanid"] == .string(send.spanID))
      }
    }

    /// A W3C propagator's keys are kept as they are, so the CloudEvents conversions carry them
    /// as the distributed-tracing extension's attributes; and an event log keeps them, so an
    /// EventConsumer reading it finds the writer's context.
    @Test func w3cTraceContextTravelsAsCloudEventsAttributesAndThroughAnEventLog() async throws {
      let propagator = W3CPropagator()
      var context = InstrumentationContext.topLevel
      context[W3CPropagator.Key.self] = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
      let envelope = try EventEnvelope(Self.box("w3c")).addingTraceContext(context, instrument: propagator)
      #expect(envelope.metadata["traceparent"] == .string("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
      #expect(envelope.metadata["tracestate"] == .string("typedevents=1"))

      let json = try JSONSerialization.jsonObject(with: envelope.cloudEventJSON(source: "/test")) as? [String: Any]
      #expect(json?["traceparent"] as? String == "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
      let binary = try envelope.cloudEventMessage(.http, source: "/test")
      #expect(binary.headers["ce-traceparent"] == "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
      #expect(
        try EventEnvelope(cloudEventJSON: envelope.cloudEventJSON(source: "/test")).traceContext(
          instrument: propagator)[W3CPropagator.Key.self] == context[W3CPropagator.Key.self])

      // An envelope that has a trace context keeps it: a forwarded event stays in its trace.
      var other = InstrumentationContext.topLevel
      other[W3CPropagator.Key.self] = "00-11111111111111111111111111111111-2222222222222222-01"
      #expect(envelope.addingTraceContext(other, instrument: propagator).metadata == envelope.metadata)

      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID())")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let log = EventLog(url: folder.appendingPathComponent("events.jsonl"))
      try await log.append(envelope)
      let consumer = EventConsumer(store: log, catalog: GeneratedEvents.catalog)
      let checkpoint = FileCheckpoint<EventLog.Position>(url: folder.appendingPathComponent("checkpoint"))
      for try await delivery in consumer.events(from: checkpoint) {
        #expect(
          delivery.envelope.traceContext(instrument: propagator)[W3CPropagator.Key.self]
            == context[W3CPropagator.Key.self])
        break
      }
    }
  }

  /// A W3C trace-context propagator reduced to what the test needs: it writes the context's
  /// `traceparent` and a fixed `tracestate`, and reads `traceparent` back.
  struct W3CPropagator: Instrument {
    enum Key: InstrumentationContextKey {
      typealias Value = String
    }

    func inject<Carrier, Inject: Injector>(
      _ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
      guard let traceparent = context[Key.self] else { return }
      injector.inject(traceparent, forKey: "traceparent", into: &carrier)
      injector.inject("typedevents=1", forKey: "tracestate", into: &carrier)
    }

    func extract<Carrier, Extract: Extractor>(
      _ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
      context[Key.self] = extractor.extract(key: "traceparent", from: carrier)
    }
  }
#endif
