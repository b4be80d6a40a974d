import Foundation

/// Problems reading or writing an event log.
public enum EventLogError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The catalog has no event type of this wire name.
  case unknownEvent(String)
  /// The file could not be opened or written.
  case io(path: String, reason: String)
  /// A line is not an event envelope.
  case malformed(String)

  public var description: String {
    switch self {
    case .unknownEvent(let name): return "no event type named \(name) in the catalog"
    case .io(let path, let reason): return "\(path): \(reason)"
    case .malformed(let reason): return reason
    }
  }
}

/// An append-only log of events in a JSON Lines file: one envelope per line,
/// `{"id":…,"name":…,"payload":{…},"time":…,"version":…}`.
///
/// Appends are whole lines, each one `write` to a file opened with `O_APPEND`, so that two logs
/// or two processes appending to one file never overwrite each other's lines. A crash mid-write
/// leaves at most a torn last line, which reading reports and skips; earlier lines are never
/// lost, and the next append starts a new line.
public final class EventLog: Sendable {
  /// The log file.
  public let url: URL
  private let writeLock = Locked(())

  /// A log at `url`; the file is created on the first append.
  public init(url: URL) {
    self.url = url
  }

  /// Appends `event` with a new id and the current time.
  @discardableResult
  public func append<E: Event>(_ event: E, time: Date = Date()) throws -> EventEnvelope {
    let envelope = try EventEnvelope(event, time: time)
    try append(envelope)
    return envelope
  }

  /// Appends an envelope as one line.
  public func append(_ envelope: EventEnvelope) throws {
    var line = try Self.line(for: envelope)
    try writeLock.withLock { _ in
      let descriptor = open(url.path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else {
        throw EventLogError.io(path: url.path, reason: "cannot open the log (\(String(cString: strerror(errno))))")
      }
      let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
      do {
        let end = try handle.seekToEnd()
        if end > 0 {
          // After a torn line, start a fresh one so the new event is not glued to it.
          try handle.seek(toOffset: end - 1)
          if try handle.read(upToCount: 1) != Data([0x0A]) { line.insert(0x0A, at: 0) }
        }
        // O_APPEND: the write goes to the end of the file as it is then, wherever we seeked.
        try handle.write(contentsOf: line)
      } catch {
        throw EventLogError.io(path: url.path, reason: error.localizedDescription)
      }
    }
  }

  /// A line of the log that could not be read, and why.
  public struct Problem: Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// Why it was skipped.
    public var reason: String

    public var description: String { "line \(line): \(reason)" }
  }

  /// The envelopes of the log, in order, and the lines that could not be read.
  public func read() throws -> (envelopes: [EventEnvelope], problems: [Problem]) {
    let (lines, problems) = try readLines()
    return (lines.map(\.envelope), problems)
  }

  /// The envelopes with their 1-based line numbers, and the lines that could not be read.
  private func readLines() throws -> (envelopes: [(line: Int, envelope: EventEnvelope)], problems: [Problem]) {
    guard FileManager.default.fileExists(atPath: url.path) else { return ([], []) }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw EventLogError.io(path: url.path, reason: error.localizedDescription)
    }
    var envelopes: [(line: Int, envelope: EventEnvelope)] = []
    var problems: [Problem] = []
    let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() where !line.isEmpty {
      let isLast = index == lines.count - 1
      do {
        envelopes.append((index + 1, try Self.envelope(from: Data(line))))
      } catch {
        let reason = isLast ? "torn last line (the writer stopped mid-line): \(error)" : "\(error)"
        problems.append(Problem(line: index + 1, reason: reason))
      }
    }
    return (envelopes, problems)
  }

  /// What replaying a log did.
  public struct ReplayReport: Sendable {
    /// How many events were published.
    public var replayed: Int
    /// The lines that were skipped, and why.
    public var problems: [Problem]
  }

  /// Publishes every event of the log, in order, decoding each through `catalog`. Lines that do
  /// not read or decode are skipped and reported; they never stop the replay.
  public func replay(into publisher: some EventPublishing, using catalog: EventCatalog) throws -> ReplayReport {
    let (envelopes, readProblems) = try readLines()
    var problems = readProblems
    var replayed = 0
    for (line, envelope) in envelopes {
      do {
        let event = try envelope.decode(using: catalog)
        publisher.publish(event)
        replayed += 1
      } catch {
        problems.append(Problem(line: line, reason: "\(envelope.name) \(envelope.id): \(error)"))
      }
    }
    return ReplayReport(replayed: replayed, problems: problems.sorted { $0.line < $1.line })
  }

  // MARK: Line format

  static func line(for envelope: EventEnvelope) throws -> Data {
    let header: [String: Any] = [
      "id": envelope.id.uuidString, "time": EventJSON.timestamp(envelope.time), "name": envelope.name,
      "version": envelope.version,
    ]
    let headerData = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
    // Splice the payload in as an object, not a string: `{…,"payload":{…}}`.
    var line = Data(headerData.dropLast())
    line.append(contentsOf: Array(",\"payload\":".utf8))
    line.append(envelope.payload)
    line.append(contentsOf: Array("}\n".utf8))
    return line
  }

  static func envelope(from line: Data) throws -> EventEnvelope {
    guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any] else {
      throw EventLogError.malformed("not a JSON object")
    }
    guard let idText = object["id"] as? String, let id = UUID(uuidString: idText),
      let timeText = object["time"] as? String, let time = EventJSON.date(timeText),
      let name = object["name"] as? String, let version = object["version"] as? Int,
      let payload = object["payload"], JSONSerialization.isValidJSONObject(payload)
    else {
      throw EventLogError.malformed("not an event envelope (id, time, name, version, payload)")
    }
    return EventEnvelope(
      id: id, time: time, name: name, version: version,
      payload: try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]))
  }
}
