#if HTTPServer
  import HTTPTypes
  import Hummingbird

  @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
  extension EventsEndpoint {
    /// The methods the endpoint's path answers, as `Allow` lists them.
    static var allowedMethods: String { "GET, HEAD, POST" }

    /// The query parameters each method reads; the configuration's
    /// ``Configuration/accessQueryParameters`` are allowed beside them.
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
        if configuration.accessQueryParameters.contains(name) { continue }
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
