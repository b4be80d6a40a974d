// Events to every client, runnable: a server that serves a store's events over HTTP, a reader
// that receives them into its bus, and a publisher whose events wait in an offline outbox.
//
//   swift run --traits HTTPServer,HTTPClient events-http-example server 8080
//   swift run --traits HTTPServer,HTTPClient events-http-example reader http://127.0.0.1:8080/events reader.checkpoint
//   swift run --traits HTTPServer,HTTPClient events-http-example publisher http://127.0.0.1:8080/events outbox 5
//
// The server keeps its events in `events.log` in FOLDER (`server PORT FOLDER`; the working
// directory without one), or, built with the
// PostgreSQL trait too and TYPEDEVENTS_POSTGRES_URL set, in PostgreSQL (schema
// TYPEDEVENTS_SCHEMA, default "typedevents"). The bearer token `reader` may read every event;
// `app` may read them and append boxes, `admin` append any; /events/openapi.json describes the endpoint. A browser
// is a third kind of client: the server's page, http://127.0.0.1:8080/?token=reader, lists
// boxes as they are provisioned.

#if HTTPServer && HTTPClient
  import Foundation
  import Hummingbird
  import Logging
  import SampleEvents
  import ServiceLifecycle
  import TypedEvents
  import TypedEventsHTTPClient
  import TypedEventsHTTPServer
  #if PostgreSQL
    import PostgresNIO
    import TypedEventsPostgres
  #endif

  func printLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  struct ExampleError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// What a bearer token may do: `reader` reads, `app` reads and appends boxes, `admin` reads
  /// and appends events of every type (the contract tests' fuzzer posts as it).
  enum Role: Sendable {
    case reader, app, admin
  }

  // A bearer token in the Authorization header (the scheme in any case), or, for a browser's
  // EventSource, which cannot send that header, in the query (RFC 6750, section 2.3).
  let access = EventAccess<Role>.bearer(
    queryParameter: "access_token",
    verify: { token in
      switch token {
      case "reader": Role.reader
      case "app": Role.app
      case "admin": Role.admin
      default: nil
      }
    },
    authorize: { role, permission in
      permission.action == .read || role == .admin || (role == .app && permission.type == BoxProvisioned.eventName)
    })

  let logger = Logger(label: "events-http-example")

  /// The page a browser opens: its own `EventSource` receives the boxes and lists them. The
  /// browser reconnects by itself after a dropped connection, sending `Last-Event-ID`; it gives
  /// up on an HTTP error (a 503 while a restarted server starts), so then the page opens a new
  /// source after the last id it received. Each box is also logged to the console.
  let page = """
    <!doctype html>
    <meta charset="utf-8">
    <title>Boxes</title>
    <h1>Boxes, as they are provisioned</h1>
    <ol id="boxes"></ol>
    <script>
    const token = new URLSearchParams(location.search).get("token") ?? "";
    let last = "";
    function listen() {
      const query = new URLSearchParams({ type: "\(BoxProvisioned.eventName)", access_token: token });
      if (last) query.set("after", last);
      const source = new EventSource("events?" + query);
      source.addEventListener("\(BoxProvisioned.eventName)", (message) => {
        last = message.lastEventId;
        const title = JSON.parse(message.data).data.title;
        console.log("received " + title);
        const item = document.createElement("li");
        item.textContent = title;
        document.getElementById("boxes").append(item);
      });
      source.onerror = () => {
        if (source.readyState === EventSource.CLOSED) setTimeout(listen, 1000);
      };
    }
    listen();
    </script>

    """

  /// With `EXAMPLE_POST_ANSWER_DELAY_MS` set, each POST is answered that much after its events
  /// are appended, and the server prints `POST appended` and `POST answered`: a client killed
  /// between the two lines had a request in flight whose events are stored (the crash test).
  struct DelayedPostAnswers<Context: RequestContext>: RouterMiddleware {
    let delay: Duration

    func handle(
      _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
      guard request.method == .post else { return try await next(request, context) }
      let response = try await next(request, context)
      printLine("POST appended")
      try await Task.sleep(for: delay)
      printLine("POST answered")
      return response
    }
  }

  /// Serves `store` on 127.0.0.1:`port` until SIGTERM or SIGINT, with `services` (the store's
  /// own) run beside it.
  func serve<Store: IdempotentEventStore>(_ store: Store, port: Int, services: [any Service]) async throws {
    var configuration = EventsEndpointConfiguration()
    // The OpenAPI description that `eventgen openapi Schemas` wrote, at /events/openapi.json.
    configuration.openAPIDescription = try Bundle.module.url(forResource: "openapi", withExtension: "json")
      .map { try Data(contentsOf: $0) }
    let endpoint = EventsEndpoint(
      store: store, catalog: GeneratedEvents.catalog, access: access, configuration: configuration)
    let router = Router()
    if let delay = ProcessInfo.processInfo.environment["EXAMPLE_POST_ANSWER_DELAY_MS"].flatMap(Int.init) {
      router.add(middleware: DelayedPostAnswers(delay: .milliseconds(delay)))
    }
    endpoint.addRoutes(to: router, at: "events")
    router.get("/") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }
    // Each connection's requests are handled on the event loop that reads it: no hand-over to
    // Swift's pool and back for each request (BENCHMARKS-HTTP.md measures the difference).
    let app = Application(
      router: router, server: .http1OnEventLoop(), configuration: .init(address: .hostname("127.0.0.1", port: port)),
      services: services + [endpoint],
      onServerRunning: { channel in printLine("serving http://127.0.0.1:\(channel.localAddress?.port ?? port)/events")
      },
      logger: logger)
    let group = ServiceGroup(
      configuration: .init(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    try await group.run()
  }

  #if PostgreSQL
    /// Serves the PostgreSQL store at `url`, migrated first.
    func servePostgres(url: String, port: Int) async throws {
      let configuration = try PostgresEventStore.clientConfiguration(url: url, tls: .disable)
      let schema = ProcessInfo.processInfo.environment["TYPEDEVENTS_SCHEMA"] ?? "typedevents"
      // A client of its own for the migration: a PostgresClient runs once.
      let migrator = PostgresClient(configuration: configuration)
      try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { await migrator.run() }
        try await PostgresEventStore(client: migrator, schema: schema).migrate()
        tasks.cancelAll()
      }
      let client = PostgresClient(configuration: configuration)
      let store = try PostgresEventStore(client: client, schema: schema)
      try await serve(store, port: port, services: [client, store])
    }
  #endif

  let arguments = Array(CommandLine.arguments.dropFirst())
  switch arguments.first {
  case "server":
    let port = arguments.dropFirst().first.flatMap { Int($0) } ?? 8080
    if let url = ProcessInfo.processInfo.environment["TYPEDEVENTS_POSTGRES_URL"] {
      #if PostgreSQL
        try await servePostgres(url: url, port: port)
      #else
        throw ExampleError("TYPEDEVENTS_POSTGRES_URL is set: build with --traits HTTPServer,HTTPClient,PostgreSQL")
      #endif
    } else {
      let folder = URL(fileURLWithPath: arguments.count > 2 ? arguments[2] : ".", isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let log = EventLog(url: folder.appendingPathComponent("events.log"))
      try await serve(log, port: port, services: [])
    }

  case "reader" where arguments.count == 3:
    guard let url = URL(string: arguments[1]) else { throw ExampleError("not a URL: \(arguments[1])") }
    let client = EventsClient(
      url: url, catalog: GeneratedEvents.catalog, headers: { ["Authorization": "Bearer reader"] })
    let bus = EventBus()
    // An app's existing subscriber: it neither knows nor cares that the event came over HTTP.
    let subscription = bus.subscribe(BoxProvisioned.self, delivery: .immediate) { box in
      printLine("received \(box.title)")
    }
    // The position is saved in the checkpoint file: a reader started again goes on from it.
    try await client.run(from: FileCheckpoint<String>(url: URL(fileURLWithPath: arguments[2])), into: bus)
    withExtendedLifetime(subscription) {}

  case "publisher" where arguments.count == 4:
    guard let url = URL(string: arguments[1]), let count = Int(arguments[3]), count >= 0 else {
      throw ExampleError("publisher URL OUTBOX COUNT: a URL and a count")
    }
    let batchSize = ProcessInfo.processInfo.environment["EXAMPLE_BATCH_SIZE"].flatMap { Int($0) } ?? 100
    let client = EventsClient(url: url, catalog: GeneratedEvents.catalog, headers: { ["Authorization": "Bearer app"] })
    let outbox = try EventOutbox(
      folder: URL(fileURLWithPath: arguments[2]), source: "events-http-example/publisher", client: client,
      batchSize: batchSize)
    // Published first, all of them, with one fsync: from here on they are on disk, sent or not.
    let boxes: [any Event] = (0..<count).map { BoxProvisioned(boxId: BoxID(UUID()), title: "box \($0)") }
    try await outbox.publish(contentsOf: boxes)
    printLine("published \(count)")
    // What an app does: send in the background (retrying while the endpoint cannot be
    // reached), and wait until the endpoint has everything published so far.
    let sending = Task { try await outbox.run() }
    try await outbox.waitUntilSent()
    sending.cancel()
    printLine("sent")

  default:
    FileHandle.standardError.write(
      Data(
        "usage: events-http-example server [PORT [FOLDER]] | reader URL CHECKPOINT | publisher URL OUTBOX COUNT\n".utf8)
    )
    exit(2)
  }

#else
  import Foundation

  FileHandle.standardError.write(
    Data(
      "events-http-example needs the traits HTTPServer and HTTPClient: swift run --traits HTTPServer,HTTPClient events-http-example\n"
        .utf8))
  exit(2)
#endif
