#if HTTPClient
  import Foundation

  /// An answer of the events endpoint that is not what was asked for.
  public enum EventsClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The endpoint refused the request: its status and the RFC 9457 problem it sent (or, when
    /// the body was no problem, the body's first characters as the detail).
    case refused(EventsProblem)
    /// The endpoint answered something the client cannot read: why.
    case unreadableAnswer(String)

    /// Whether the same request may succeed later: the endpoint was unavailable (503), busy
    /// (429), timed out (408) or failed inside (5xx). A refusal of the request itself (400,
    /// 401, 403, 404, 409, 413, 415, 422, …) comes again for the same request.
    public var isTransient: Bool {
      switch self {
      case .refused(let problem): problem.status == 408 || problem.status == 429 || problem.status >= 500
      case .unreadableAnswer: false
      }
    }

    public var description: String {
      switch self {
      case .refused(let problem): "\(problem.status) \(problem.type): \(problem.detail)"
      case .unreadableAnswer(let why): "the events endpoint's answer cannot be read: \(why)"
      }
    }
  }

  /// A refusal as the endpoint explains it (`application/problem+json`, RFC 9457).
  public struct EventsProblem: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// A URI naming the kind of problem, such as `urn:typedevents:problem:unknown-type`;
    /// `about:blank` when the body was no problem document.
    public var type: String
    /// What was wrong, and where.
    public var detail: String
    /// For a POST, the index of the refused event in the request.
    public var event: Int?

    /// A problem from its parts.
    public init(status: Int, type: String, detail: String, event: Int? = nil) {
      self.status = status
      self.type = type
      self.detail = detail
      self.event = event
    }

    /// The problem in `body`, or one that quotes the body's start when it is no problem.
    init(status: Int, body: Data) {
      let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
      self.init(
        status: status, type: object?["type"] as? String ?? "about:blank",
        detail: object?["detail"] as? String ?? String(decoding: body.prefix(200), as: UTF8.self),
        event: object?["event"] as? Int)
    }
  }
#endif
