import Testing
import TypedEvents

@testable import TypedEventsHTTPServer

@Suite("Accept, weighed as RFC 9110 weighs it")
struct AcceptanceTests {
  static let page = "application/cloudevents-batch+json"
  static let stream = "text/event-stream"

  /// What a GET with these `Accept` fields is answered with: a page, a stream, or nil (406).
  func answer(_ fields: [String]) -> String? {
    Acceptance(fields).choose(Self.page, over: Self.stream)
  }

  @Test(
    arguments: [
      ([], stream),  // no Accept: anything
      (["*/*"], stream),
      (["text/*"], stream),
      (["text/event-stream"], stream),
      (["application/*"], page),
      (["application/cloudevents-batch+json"], page),
      (["Application/CloudEvents-Batch+JSON"], page),  // media types are case-insensitive
      (["application/cloudevents-batch+json, text/event-stream"], page),  // both named: the page
      (["text/event-stream, */*"], stream),
      (["application/cloudevents-batch+json, */*"], page),
      (["application/cloudevents-batch+json;q=0.5, text/event-stream"], stream),
      (["application/cloudevents-batch+json;q=0.9", "text/event-stream;q=0.8"], page),  // two fields
      (["text/event-stream;q=1.0, application/cloudevents-batch+json; q=0.999"], stream),
      (["application/cloudevents-batch+json;charset=utf-8;q=0.2, text/event-stream;q=0.1"], page),
      (["*/*;q=0.1, application/cloudevents-batch+json;q=0"], stream),  // named with 0: never
    ] as [([String], String)])
  func chooses(_ fields: [String], _ expected: String) {
    #expect(answer(fields) == expected, "\(fields)")
  }

  @Test(arguments: [
    ["application/xml"],
    ["text/event-stream;q=0"],
    ["*/*;q=0"],
    ["text/event-stream;q=0, application/cloudevents-batch+json;q=0.000"],
    ["text/event-stream;q=2"],  // no weight: left out
    ["text/event-stream;q=high"],
    ["garbage"],
    [""],
  ])
  func refuses(_ fields: [String]) {
    #expect(answer(fields) == nil, "\(fields)")
  }
}

@Suite("Accept over HTTP")
struct AcceptOverHTTPTests {
  @Test("The endpoint answers the representation Accept weighs higher, and 406 for one weighed 0")
  func weights() async throws {
    let log = try temporaryLog()
    try await withServer(boardEndpoint(log)) { url in
      for (accept, expected) in [
        ("application/cloudevents-batch+json;q=0.5, text/event-stream", "text/event-stream"),
        ("application/cloudevents-batch+json, text/event-stream;q=0.5", "application/cloudevents-batch+json"),
        ("application/*", "application/cloudevents-batch+json"),
      ] {
        let answer = try await send(request(url, method: .HEAD, headers: [("Accept", accept)]))
        #expect(answer.status == 200, "\(accept)")
        #expect(answer.headers.first(name: "Content-Type")?.hasPrefix(expected) == true, "\(accept): \(answer.headers)")
      }
      let refused = try await send(request(url, headers: [("Accept", "*/*;q=0")]))
      #expect(refused.status == 406 && refused.problem == "not-acceptable", "\(refused.body)")
    }
  }
}
