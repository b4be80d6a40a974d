import Foundation
import TypedEvents

/// Hand-written events, so that the runtime's tests do not depend on the generator.
struct Tick: Event, SubjectIdentifiable {
  static var eventName: String { "Test.Tick" }
  static var eventVersion: Int { 1 }
  var source: String
  var count: Int

  init(source: String = "a", count: Int) {
    self.source = source
    self.count = count
  }

  init(reading reader: UserInfoReader) throws(UserInfoDecodingError) {
    source = try reader.decode(String.self, forKey: "source")
    count = try reader.decode(Int.self, forKey: "count")
  }

  func write(to writer: inout UserInfoWriter) {
    writer.encode(source, forKey: "source")
    writer.encode(count, forKey: "count")
  }

  var eventSubject: String { source }
}

struct Tock: Event, SubjectIdentifiable {
  static var eventName: String { "Test.Tock" }
  static var eventVersion: Int { 2 }
  var source: String

  init(source: String = "a") {
    self.source = source
  }

  init(reading reader: UserInfoReader) throws(UserInfoDecodingError) {
    source = try reader.decode(String.self, forKey: "source")
  }

  func write(to writer: inout UserInfoWriter) {
    writer.encode(source, forKey: "source")
  }

  var eventSubject: String { source }
}

enum Clock: EventGroup, SubjectIdentifiable {
  case tick(Tick)
  case tock(Tock)

  static let members: [EventGroupMember<Clock>] = [
    EventGroupMember(Tick.self) { .tick($0) },
    EventGroupMember(Tock.self) { .tock($0) },
  ]

  var event: any Event {
    switch self {
    case .tick(let event): return event
    case .tock(let event): return event
    }
  }

  var eventSubject: String {
    switch self {
    case .tick(let event): return event.eventSubject
    case .tock(let event): return event.eventSubject
    }
  }
}

/// A thread-safe list for collecting what handlers receive.
final class Collected<Element: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [Element] = []

  func append(_ element: Element) {
    lock.lock()
    storage.append(element)
    lock.unlock()
  }

  var all: [Element] {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }
}
