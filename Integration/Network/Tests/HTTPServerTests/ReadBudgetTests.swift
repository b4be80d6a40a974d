import Foundation
import NIOCore
import Testing

@testable import TypedEventsHTTPServer

/// The byte budget the endpoint's reads of its store share: a read waits its turn while others
/// hold the budget, and gets it once they give it back.
@Suite("ReadBudget")
struct ReadBudgetTests {
  /// Whether `task` has finished, without waiting for it.
  final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
  }

  @Test("A read waits while others hold the budget, and goes on when they give it back, in order")
  func readsWaitTheirTurn() async throws {
    let budget = ReadBudget(bytes: 100)
    var first: ReadBudget.Grant? = try await budget.take(60)
    let secondDone = Flag()
    let second = Task {
      let grant = try await budget.take(60)
      secondDone.set()
      return grant.bytes
    }
    try await Task.sleep(for: .milliseconds(100))
    #expect(!secondDone.isSet, "60 + 60 bytes of a budget of 100 were held at once")
    // What a read did not use goes back at once: 10 kept, 50 free with the 40 left.
    first?.keep(10)
    #expect(try await second.value == 60)
    #expect(first?.bytes == 10)
    first = nil
    // A share larger than the budget is the whole budget, not a wait forever.
    #expect(try await budget.take(1_000).bytes == 100)
  }

  @Test("A read cancelled while it waits gives up its place and takes nothing")
  func cancelledWaitersLeave() async throws {
    let budget = ReadBudget(bytes: 10)
    var held: ReadBudget.Grant? = try await budget.take(10)
    let waiting = Task { try await budget.take(10) }
    try await Task.sleep(for: .milliseconds(50))
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    withExtendedLifetime(held) {}
    held = nil
    // The whole budget is free again: the cancelled read took none of it.
    #expect(try await budget.take(10).bytes == 10)
  }

  /// What a connection holds of a piece a stream wrote: dropping it is the socket taking it.
  final class Connection: @unchecked Sendable {
    var queued: [ByteBuffer] = []
  }

  @Test("A share parked behind the marker of its last piece comes back once the piece is sent, while a read waits")
  func parkedSharesComeBackOnceSent() async throws {
    let budget = ReadBudget(bytes: 100)
    let connection = Connection()
    // The grant goes to the pieces, which nobody here prunes: as a stream waiting for events
    // holds the last turn it wrote.
    var pieces: [UnflushedWrites.Piece] = []
    do {
      let (parts, cut) = UnflushedWrites.cut(
        [(ByteBuffer(repeating: 1, count: 300), nil)], grant: try await budget.take(100))
      connection.queued = parts
      pieces = cut
    }
    let taken = Flag()
    let waiting = Task {
      let grant = try await budget.take(60)
      taken.set()
      return grant.bytes
    }
    try await Task.sleep(for: .milliseconds(200))
    #expect(!taken.isSet, "the share came back before its bytes were sent")
    connection.queued = []
    let clock = ContinuousClock()
    let sent = clock.now
    while !taken.isSet && clock.now - sent < .seconds(5) { try await Task.sleep(for: .milliseconds(5)) }
    #expect(taken.isSet, "the share was not given back within 5 s of its bytes being sent")
    if !taken.isSet { waiting.cancel() }
    _ = try? await waiting.value
    withExtendedLifetime(pieces) {}
    #expect(pieces.count == 1 && pieces[0].grant?.bytes == 0)
  }
}
