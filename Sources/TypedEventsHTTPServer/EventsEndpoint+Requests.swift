#if HTTPServer
  import Foundation
  import HTTPTypes
  import Hummingbird

  @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
  extension EventsEndpoint {
    /// The methods the endpoint's path answers, as `Allow` lists them.
    static var allowedMethods: String { "GET, HEAD, POST" }

    /// The methods of the IANA HTTP Method Registry but `GET`, `HEAD`, `POST` and `PRI` (HTTP/2's
    /// preface): each gets 405 with `Allow` on the endpoint's paths. Hummingbird answers a
    /// method it has no route for with an empty 404, and has no route for every method.
    static var unansweredMethods: [HTTPRequest.Method] {
      let registered = [
        "ACL", "BASELINE-CONTROL", "BIND", "CHECKIN", "CHECKOUT", "COPY", "LABEL", "LINK", "LOCK", "MERGE",
        "MKACTIVITY", "MKCALENDAR", "MKCOL", "MKREDIRECTREF", "MKWORKSPACE", "MOVE", "ORDERPATCH", "PROPFIND",
        "PROPPATCH", "QUERY", "REBIND", "REPORT", "SEARCH", "UNBIND", "UNCHECKOUT", "UNLINK", "UNLOCK", "UPDATE",
        "UPDATEREDIRECTREF", "VERSION-CONTROL",
      ].compactMap { HTTPRequest.Method($0) }
      return [.put, .delete, .patch, .options, .trace, .connect] + registered
    }

    /// The OpenAPI description, with the media type OpenAPI registers for its JSON form.
    static func describe(_ description: Data, bodiless: Bool) -> Response {
      Response(
        status: .ok,
        headers: [
          .contentType: "application/vnd.oai.openapi+json", .contentLength: "\(description.count)",
          .cacheControl: "no-cache",
        ],
        body: bodiless ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: description)))
    }

    /// The query parameters each method reads; the configuration's
    /// ``EventsEndpointConfiguration/accessQueryParameters`` are allowed beside them.
    static func knownParameters(of method: HTTPRequest.Method) -> Set<String> {
      method == .post ? [] : ["after", "type", "subject", "limit"]
    }

    /// 405 for a method the path does not answer, with `Allow`.
    static func methodNotAllowed(
      _ method: HTTPRequest.Method, path: String = "the events path", allowed: String = allowedMethods
    ) -> Response {
      var response = EventProblem(
        status: 405, kind: "method-not-allowed", title: "Method not allowed",
        detail: "\(path) answers \(allowed), not \(method.rawValue)"
      ).response
      response.headers[.allow] = allowed
      return response
    }

    /// A 400 for a query parameter the request's method does not read, or one it reads given
    /// twice: a misspelt filter (`?typ=`, `?limt=`) would otherwise be ignored, and the answer
    /// hold everything. Nil when every parameter is known.
    func parameterProblem(_ request: Request) -> EventProblem? {
      let known = Self.knownParameters(of: request.method)
      var seen: Set<String> = []
      for (name, _) in request.uri.queryParameters {
        let name = String(name)
        if configuration.accessQueryParameters.contains(name) || access.queryParameters.contains(name) { continue }
        guard known.contains(name) else {
          let expected = known.isEmpty ? "none" : known.sorted().joined(separator: ", ")
          return EventProblem.badRequest(
            "unknown-parameter",
            "\(request.method.rawValue) reads no query parameter \(name.prefix(80)) (it reads \(expected))")
        }
        guard seen.insert(name).inserted || name == "type" else {
          return EventProblem.badRequest("repeated-parameter", "the query parameter \(name) is given more than once")
        }
      }
      return nil
    }
  }
#endif
