import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import TypedEvents
import TypedEventsHTTPServer

/// The times of ``endpointOwnTime(batches:)``, each batch's in microseconds.
struct OwnTimes {
  /// The store's own `appendOnce`.
  var direct: [Double] = []
  /// POSTs to the endpoint.
  var posted: [Double] = []
  /// POSTs of the same bodies to a bare handler that collects each and answers 201.
  var bare: [Double] = []
}

/// `batches` batches of 100 events, appended with `appendOnce` to one `EventLog` and POSTed to
/// the endpoint on another and to a bare handler, in this process through HummingbirdTesting's
/// router client: no socket and no HTTP parsing, and logs that do not fsync. What a POST takes
/// past the store's append and the bare exchange is then the endpoint's own work (reading,
/// checking, answering) with little of the disk's and the network's spread, which in
/// ``batchAppend(direct:posted:batches:client:server:)`` is as large as the work itself. The three take
/// turns batch by batch, in each of their six orders alike (`batches` is a multiple of 6).
func endpointOwnTime(batches: Int) async throws -> OwnTimes {
  let all = try (0..<batches).map { try envelopes($0 * 100..<$0 * 100 + 100) }
  let bodies = try all.map { try EventEnvelope.cloudEventBatchJSON($0) }
  let direct = try freshLog(durability: .operatingSystem)
  let posted = try freshLog(durability: .operatingSystem)
  let (router, _) = endpointBesideBareHandler(on: posted)
  // One batch first, each way, so that the logs' identity indexes are built and first uses paid.
  let warmUp = try envelopes(10_000_000..<10_000_100)
  _ = try await direct.appendOnce(warmUp)
  let warmUpBody = try EventEnvelope.cloudEventBatchJSON(warmUp)
  let times = try await Application(router: router).test(.router) { client -> OwnTimes in
    func post(_ body: Data, to path: String) async throws {
      let response = try await client.execute(
        uri: path, method: .post, headers: [.contentType: EventEnvelope.cloudEventBatchContentType],
        body: ByteBuffer(data: body))
      guard response.status.code / 100 == 2 else { throw BenchmarkError("POST answered \(response.status)") }
    }
    try await post(warmUpBody, to: "/events")
    try await post(warmUpBody, to: "/bare")
    var times = OwnTimes()
    let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
    for (index, (batch, body)) in zip(all, bodies).enumerated() {
      for party in orders[index % orders.count] {
        let start = ContinuousClock.now
        switch party {
        case 0: _ = try await direct.appendOnce(batch)
        case 1: try await post(body, to: "/events")
        default: try await post(body, to: "/bare")
        }
        let time = seconds(ContinuousClock.now - start) * 1e6
        switch party {
        case 0: times.direct.append(time)
        case 1: times.posted.append(time)
        default: times.bare.append(time)
        }
      }
    }
    return times
  }
  // Each log holds the warm-up batch too.
  for store in [direct, posted] {
    guard try await count(store) == batches * 100 + 100 else { throw BenchmarkError("a store misses events") }
  }
  return times
}
