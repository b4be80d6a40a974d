#if PostgreSQL
  import CoreMetrics
  import Foundation
  import Instrumentation
  import Tracing
  import TypedEvents

  /// The names of the metrics a ``PostgresEventStore`` and its consumer groups report through
  /// swift-metrics, and of their dimensions.
  ///
  /// Names and dimensions follow the OpenTelemetry messaging semantic conventions where one fits
  /// (`messaging.*`, `cloudevents.event_type`, `error.type`); the rest are `typedevents.*`.
  /// Every metric has `messaging.system` = `typedevents` and `messaging.destination.name` = the
  /// store's ``PostgresEventStore/channel``.
  ///
  /// | name | kind | unit | dimensions beyond those two | what |
  /// |---|---|---|---|---|
  /// | `messaging.client.sent.messages` | counter | events | `cloudevents.event_type`, `error.type` when the write failed | events appended (attempted: an outbox append counts before its transaction commits) |
  /// | `messaging.client.consumed.messages` | counter | events | group, `cloudevents.event_type` | events a group's handler returned from |
  /// | `messaging.process.duration` | timer | ns | group, `cloudevents.event_type`, `error.type` when it threw | each handler call |
  /// | `typedevents.consumer.retries` | counter | calls | group, `cloudevents.event_type` | handler calls that threw and are tried again |
  /// | `typedevents.consumer.dead_letters` | counter | events | group, `cloudevents.event_type` | events parked after their last attempt |
  /// | `typedevents.consumer.lag` | gauge | events | group, `messaging.destination.partition.id` | events after the partition's checkpoint, up to ``lagCountLimit`` |
  /// | `typedevents.consumer.lag.seconds` | gauge | s | group, partition | age of the partition's oldest event not yet handled; 0 when none |
  /// | `typedevents.consumer.partitions` | gauge | partitions | group, `messaging.client.id` (the member) | partitions the member holds |
  /// | `typedevents.consumer.members` | gauge | members | group | live members, as the member's last round saw them |
  /// | `typedevents.consumer.partition.changes` | counter | partitions | group, `change` (`taken`, `given_up`) | partitions a member took or gave up |
  ///
  /// "group" is `messaging.consumer.group.name`. Lag, partitions and members are set by every
  /// member for its own partitions at least once per poll interval (and each second).
  public enum PostgresEventStoreMetrics {
    public static let sentMessages = "messaging.client.sent.messages"
    public static let consumedMessages = "messaging.client.consumed.messages"
    public static let processDuration = "messaging.process.duration"
    public static let retries = "typedevents.consumer.retries"
    public static let deadLetters = "typedevents.consumer.dead_letters"
    public static let lag = "typedevents.consumer.lag"
    public static let lagSeconds = "typedevents.consumer.lag.seconds"
    public static let partitions = "typedevents.consumer.partitions"
    public static let members = "typedevents.consumer.members"
    public static let partitionChanges = "typedevents.consumer.partition.changes"

    /// The most events ``lag`` counts per partition: counting is a scan, so a partition further
    /// behind reports this many, and ``lagSeconds`` says how far behind it is.
    public static let lagCountLimit = 10_000

    /// Dimension and attribute names.
    public enum Key {
      public static let system = "messaging.system"
      public static let destination = "messaging.destination.name"
      public static let operationName = "messaging.operation.name"
      public static let operationType = "messaging.operation.type"
      public static let group = "messaging.consumer.group.name"
      public static let partition = "messaging.destination.partition.id"
      public static let member = "messaging.client.id"
      public static let messageID = "messaging.message.id"
      public static let batchCount = "messaging.batch.message_count"
      public static let eventType = "cloudevents.event_type"
      public static let eventID = "cloudevents.event_id"
      public static let eventSubject = "cloudevents.event_subject"
      public static let errorType = "error.type"
      public static let change = "change"
    }

    /// The value of `messaging.system`.
    public static let system = "typedevents"
  }

  /// Where a store and its groups report: a metrics factory, unless it is swift-metrics' no-op
  /// one (then nothing is measured, so a process without a backend pays nothing), and a tracer.
  struct Observability: Sendable {
    let factory: (any MetricsFactory)?
    let explicitTracer: (any Tracer)?
    let destination: String

    init(factory: any MetricsFactory, tracer: (any Tracer)?, destination: String) {
      self.factory = factory is NOOPMetricsHandler ? nil : factory
      self.explicitTracer = tracer
      self.destination = destination
    }

    /// The tracer given, else the one the process bootstrapped, looked up at each call.
    var tracer: any Tracer { explicitTracer ?? InstrumentationSystem.tracer }

    private func dimensions(_ extra: [(String, String)]) -> [(String, String)] {
      [
        (PostgresEventStoreMetrics.Key.system, PostgresEventStoreMetrics.system),
        (PostgresEventStoreMetrics.Key.destination, destination),
      ] + extra
    }

    func count(_ label: String, by amount: Int = 1, _ extra: [(String, String)]) {
      guard let factory else { return }
      Counter(label: label, dimensions: dimensions(extra), factory: factory).increment(by: amount)
    }

    func set(_ label: String, _ value: Double, _ extra: [(String, String)]) {
      guard let factory else { return }
      Gauge(label: label, dimensions: dimensions(extra), factory: factory).record(value)
    }

    func time(_ label: String, _ duration: Duration, _ extra: [(String, String)]) {
      guard let factory else { return }
      let (seconds, attoseconds) = duration.components
      CoreMetrics.Timer(label: label, dimensions: dimensions(extra), factory: factory)
        .recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    var measures: Bool { factory != nil }
  }

  /// Trace context in an envelope's metadata, under keys that are CloudEvents attribute names.
  struct TraceContextCarrier: Injector, Extractor {
    typealias Carrier = [String: EventAttributeValue]

    /// A propagator's key as a CloudEvents attribute name: lowercased, letters and digits only,
    /// at most 20 characters. `traceparent` and `tracestate` stay as they are.
    static func attributeName(_ key: String) -> String {
      String(key.lowercased().filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }.prefix(20))
    }

    func inject(_ value: String, forKey key: String, into carrier: inout Carrier) {
      let name = Self.attributeName(key)
      if carrier[name] == nil { carrier[name] = .string(value) }
    }

    func extract(key: String, from carrier: Carrier) -> String? {
      carrier[Self.attributeName(key)]?.stringValue
    }
  }

  extension EventEnvelope {
    /// The envelope with `context`'s trace context added to its `EventEnvelope.metadata`,
    /// as `instrument` writes it.
    ///
    /// With a W3C propagator (swift-otel's, for one) the entries are `traceparent` and
    /// `tracestate`, which are also the attributes of CloudEvents' distributed-tracing extension,
    /// so the CloudEvents conversions carry them. Other propagators' keys are kept as CloudEvents
    /// attribute names (lowercased, letters and digits only, at most 20 characters) and read
    /// back by ``traceContext(instrument:)`` under the same names. An entry the envelope has
    /// already is kept: a forwarded event keeps the trace it came with.
    ///
    /// ``PostgresEventStore`` adds it on every append; call it yourself for an
    /// `EventLog`, whose envelopes keep their metadata, so that an
    /// `EventConsumer` reading the log finds it.
    public func addingTraceContext(
      _ context: InstrumentationContext = .current ?? .topLevel,
      instrument: any Instrument = InstrumentationSystem.instrument
    ) -> EventEnvelope {
      var envelope = self
      instrument.inject(context, into: &envelope.metadata, using: TraceContextCarrier())
      return envelope
    }

    /// The trace context that `EventEnvelope.metadata` carries, as `instrument` reads it:
    /// the parent for the span of whatever handles the event.
    public func traceContext(instrument: any Instrument = InstrumentationSystem.instrument) -> InstrumentationContext {
      var context = InstrumentationContext.topLevel
      instrument.extract(metadata, into: &context, using: TraceContextCarrier())
      return context
    }
  }
#endif
