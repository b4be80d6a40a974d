#if HTTPClient
  /// One event of a Server-Sent Events stream, as the WHATWG HTML standard's "interpret an
  /// event stream" dispatches it.
  public struct ServerSentEvent: Sendable, Hashable {
    /// The last event ID when the event was dispatched: the stream's position after it.
    public var id: String
    /// The `event` field, or `message` when the frame named none.
    public var type: String
    /// The `data` lines, joined by line feeds.
    public var data: String

    /// An event from its parts.
    public init(id: String, type: String, data: String) {
      self.id = id
      self.type = type
      self.data = data
    }
  }

  /// Turns the bytes of a `text/event-stream` body into events, however the body is split.
  ///
  /// It follows the standard's parsing rules: a byte order mark may open the stream, lines end
  /// with CR, LF or CRLF (also when a CRLF is split between two pieces), a line that starts with
  /// a colon is a comment, a field without a colon has an empty value, one space after the colon
  /// is dropped, an `id` that holds NUL is ignored, and the last event ID changes when a frame
  /// ends (its blank line), also for a frame without `data`, which dispatches nothing. Lines are
  /// split into field and value on their bytes and decoded as UTF-8 only when whole, so a scalar
  /// split between two pieces survives.
  public struct ServerSentEventParser: Sendable {
    /// The last event ID: the `id` of the last frame that ended, including frames that carried
    /// no data (a heartbeat that moves the position past events the server did not send). An
    /// `id` line of a frame that has not ended yet does not change it.
    public private(set) var lastEventID = ""
    /// The reconnection time the server asked for with a `retry` field, in milliseconds.
    public private(set) var retryMilliseconds: Int?

    private var line: [UInt8] = []
    /// The standard's "last event ID buffer": set by an `id` field, made the last event ID when
    /// the frame ends.
    private var idBuffer = ""
    private var isFirstLine = true
    private var lastWasCR = false
    private var eventType = ""
    private var data = ""
    private var hasData = false

    /// A parser at the start of a stream.
    public init() {}

    /// Parses `bytes`, the next piece of the body, and returns the events it completed.
    public mutating func parse(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
      var events: [ServerSentEvent] = []
      for byte in bytes {
        switch byte {
        case 0x0A where lastWasCR:
          // The LF of a CRLF whose CR already ended the line.
          lastWasCR = false
        case 0x0A, 0x0D:
          lastWasCR = byte == 0x0D
          if let event = endLine() { events.append(event) }
        default:
          lastWasCR = false
          line.append(byte)
        }
      }
      return events
    }

    /// Processes the line in `line`; returns an event when the line was empty and data is set.
    private mutating func endLine() -> ServerSentEvent? {
      defer { line.removeAll(keepingCapacity: true) }
      if isFirstLine {
        // A byte order mark may open the stream; it is no part of the first field.
        isFirstLine = false
        if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
      }
      guard !line.isEmpty else { return dispatch() }
      guard line[0] != UInt8(ascii: ":") else { return nil }
      // Split on the bytes: a colon or space followed by a combining mark is still a colon or
      // a space to the standard, which works on code points.
      let field: String
      var value: ArraySlice<UInt8>
      if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
        field = String(decoding: line[..<colon], as: UTF8.self)
        value = line[(colon + 1)...]
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
      } else {
        field = String(decoding: line, as: UTF8.self)
        value = []
      }
      switch field {
      case "event":
        eventType = String(decoding: value, as: UTF8.self)
      case "data":
        if hasData { data += "\n" }
        data += String(decoding: value, as: UTF8.self)
        hasData = true
      case "id" where !value.contains(0):
        idBuffer = String(decoding: value, as: UTF8.self)
      case "retry":
        if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }),
          let milliseconds = Int(String(decoding: value, as: UTF8.self))
        {
          retryMilliseconds = milliseconds
        }
      default:
        break
      }
      return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
      lastEventID = idBuffer
      defer {
        eventType = ""
        data = ""
        hasData = false
      }
      guard hasData else { return nil }
      return ServerSentEvent(id: lastEventID, type: eventType.isEmpty ? "message" : eventType, data: data)
    }
  }
#endif
