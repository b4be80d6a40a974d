import EdgeCaseEvents
import Foundation
import SampleEvents
import Testing
import TypedEvents

/// Collects what `NotificationDecodingFailure.handler` receives while a test runs.
private final class FailureRecorder: @unchecked Sendable {
  private let lock = NSLock()
  private var failures: [NotificationDecodingFailure] = []

  var recorded: [NotificationDecodingFailure] {
    lock.withLock { failures }
  }

  /// Runs `body` with the recorder as the handler, then puts the previous handler back.
  func recording<T>(_ body: () throws -> T) rethrows -> T {
    let previous = NotificationDecodingFailure.handler
    NotificationDecodingFailure.handler = { [self] failure in lock.withLock { failures.append(failure) } }
    defer { NotificationDecodingFailure.handler = previous }
    return try body()
  }
}

/// Notification names an old-style observer saw, from whichever thread it ran on.
private final class NamesSeen: @unchecked Sendable {
  private let lock = NSLock()
  private var seen: [Notification.Name] = []

  var names: [Notification.Name] { lock.withLock { seen } }

  func add(_ name: Notification.Name) {
    lock.withLock { seen.append(name) }
  }
}

/// Foundation's typed notifications (`notification-message:` in eventgen-config.yaml): the
/// samples are generated as `NotificationCenter.MainActorMessage`, the edge cases as
/// `AsyncMessage`. Serialized: the failure handler is process-wide.
@Suite("Foundation typed notifications", .serialized)
struct TypedMessageTests {
  @Test @MainActor func aMainActorMessageIsPostedAndObservedThroughFoundation() {
    let center = NotificationCenter()
    var received: [ListingSold] = []
    let token = center.addObserver(of: nil, for: ListingSold.self) { message in
      received.append(message)
    }
    // Foundation's own `post(_:)` for messages; TypedEvents' `post(_:object:)` names its object.
    center.post(Fixtures.sold as ListingSold)
    center.removeObserver(token)
    #expect(received == [Fixtures.sold])
  }

  @Test func anAsyncMessageIsPostedAndObservedThroughFoundation() async {
    let center = NotificationCenter()
    let (stream, continuation) = AsyncStream.makeStream(of: Nested.self)
    let token = center.addObserver(of: nil, for: Nested.self) { message in
      continuation.yield(message)
    }
    center.post(Fixtures.nested as Nested)
    var iterator = stream.makeAsyncIterator()
    let received = await iterator.next()
    center.removeObserver(token)
    #expect(received == Fixtures.nested)
  }

  @Test func makeNotificationAndMakeMessageRoundTrip() throws {
    let notification = ListingSold.makeNotification(Fixtures.sold)
    #expect(notification.name == ListingSold.name)
    #expect(notification.name.rawValue == "Listings.ListingSold")
    #expect(ListingSold.makeMessage(notification) == Fixtures.sold)
    // The same conversion as the runtime's NotificationCenter bridge.
    #expect(try ListingSold(notification: notification) == Fixtures.sold)

    let nested = Nested.makeNotification(Fixtures.nested)
    #expect(Nested.makeMessage(nested) == Fixtures.nested)
  }

  @Test func aMalformedUserInfoIsReportedNotLost() {
    let recorder = FailureRecorder()
    var userInfo = Fixtures.sold.userInfo
    userInfo["price"] = "not a price"
    let malformed = Notification(name: ListingSold.name, object: nil, userInfo: userInfo)
    let missing = Notification(name: ListingSold.name, object: nil, userInfo: nil)
    let results = recorder.recording {
      [ListingSold.makeMessage(malformed), ListingSold.makeMessage(missing)]
    }
    #expect(results == [nil, nil])
    let failures = recorder.recorded
    #expect(failures.count == 2)
    #expect(failures.first?.name == ListingSold.name)
    #expect(failures.first?.error.path == [.key("price")])
    #expect(failures.last?.error.problem == .missingKey)
    #expect(failures.first?.description.hasPrefix("notification Listings.ListingSold: ") == true)
  }

  /// Without a handler of one's own, the failure is a line on standard error, not silence.
  @Test func theDefaultHandlerPrintsToStandardError() throws {
    let pipe = Pipe()
    let saved = dup(FileHandle.standardError.fileDescriptor)
    try #require(saved >= 0)
    dup2(pipe.fileHandleForWriting.fileDescriptor, FileHandle.standardError.fileDescriptor)
    let message = ListingSold.makeMessage(Notification(name: ListingSold.name, object: nil, userInfo: ["id": 7]))
    dup2(saved, FileHandle.standardError.fileDescriptor)
    close(saved)
    try pipe.fileHandleForWriting.close()
    let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(message == nil)
    #expect(printed.hasPrefix("TypedEvents: notification Listings.ListingSold: "), "printed: \(printed)")
    #expect(printed.hasSuffix("(NotificationDecodingFailure.handler)\n"))
  }

  /// What this platform's Foundation does with a notification posted the old way under a
  /// message's name. Apple's Foundation converts it through `makeMessage(_:)` (documented, not
  /// run here); swift-foundation on Linux delivers typed messages only to typed observers and
  /// old-style notifications only to old-style observers.
  @Test @MainActor func aNotificationPostedTheOldWay() {
    let center = NotificationCenter()
    var typed: [ListingSold] = []
    let plain = NamesSeen()
    let typedToken = center.addObserver(of: nil, for: ListingSold.self) { typed.append($0) }
    let plainToken = center.addObserver(forName: ListingSold.name, object: nil, queue: nil) { plain.add($0.name) }
    center.post(name: ListingSold.name, object: nil, userInfo: Fixtures.sold.userInfo)
    center.removeObserver(typedToken)
    center.removeObserver(plainToken)
    #expect(plain.names == [ListingSold.name])
    #if canImport(Darwin)
      #expect(typed == [Fixtures.sold])
    #else
      #expect(typed.isEmpty, "this Foundation now converts old-style posts: update GeneratedSwift.md and this test")
    #endif
  }
}
