#if HTTPServer
  import Foundation
  import HTTPTypes
  import Hummingbird

  /// A refused request, answered as an RFC 9457 problem (`application/problem+json`): what was
  /// wrong, and where, for a client to show or log.
  public struct EventProblem: Error, Sendable, Hashable {
    /// The HTTP status: 400, 401, 403, 405, 406, 408, 409, 413, 415, 422, 429, 500 or 503.
    public var status: Int
    /// A URI naming the kind of problem, `urn:typedevents:problem:` and a word such as
    /// `unknown-type`; stable, for clients to switch on.
    public var type: String
    /// A short summary of the kind of problem.
    public var title: String
    /// What was wrong with this request, and where.
    public var detail: String
    /// For a POST refused for one of its events once they were read (its permission, type, data
    /// or subject), the index of that event in the request (0 for one event); nil otherwise.
    public var event: Int?

    /// A problem from its parts; `kind` is the last word of ``type``.
    public init(status: Int, kind: String, title: String, detail: String, event: Int? = nil) {
      self.status = status
      self.type = "urn:typedevents:problem:" + kind
      self.title = title
      self.detail = detail
      self.event = event
    }

    /// The problem's JSON body.
    var json: Data {
      var object: [String: Any] = ["type": type, "title": title, "status": status, "detail": detail]
      if let event { object["event"] = event }
      return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }

    /// The response: the status, `Content-Type: application/problem+json` and ``json``; a 401
    /// carries `WWW-Authenticate: Bearer`, as HTTP requires a challenge with it.
    var response: Response {
      var headers: HTTPFields = [.contentType: "application/problem+json", .cacheControl: "no-store"]
      if status == 401 { headers[.wwwAuthenticate] = "Bearer" }
      // The rest of a body that timed out may still come: the connection cannot be reused.
      if status == 408 { headers[.connection] = "close" }
      return Response(
        status: HTTPResponse.Status(code: status), headers: headers,
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
    }
  }

  extension EventProblem {
    static let unauthenticated = EventProblem(
      status: 401, kind: "unauthenticated", title: "Not authenticated",
      detail: "The request does not say who sent it, or the endpoint authenticates no one.")

    static func forbidden(_ detail: String, event: Int? = nil) -> EventProblem {
      EventProblem(status: 403, kind: "forbidden", title: "Not allowed", detail: detail, event: event)
    }

    static func badRequest(_ kind: String, _ detail: String, event: Int? = nil) -> EventProblem {
      EventProblem(status: 400, kind: kind, title: "Bad request", detail: detail, event: event)
    }

    static func unprocessable(_ kind: String, _ detail: String, event: Int?) -> EventProblem {
      EventProblem(status: 422, kind: kind, title: "Event refused", detail: detail, event: event)
    }
  }
#endif
