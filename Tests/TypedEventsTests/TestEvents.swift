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

/// An event whose "schema" declares that the latest event per subject is kept, up to two.
struct Position: Event, SubjectIdentifiable {
  static var eventName: String { "Test.Position" }
  static var eventVersion: Int { 1 }
  static var latestKeptPerSubject: Int? { 2 }
  var vehicle: String
  var kilometre: Int

  init(vehicle: String, kilometre: Int) {
    self.vehicle = vehicle
    self.kilometre = kilometre
  }

  init(reading reader: UserInfoReader) throws(UserInfoDecodingError) {
    vehicle = try reader.decode(String.self, forKey: "vehicle")
    kilometre = try reader.decode(Int.self, forKey: "kilometre")
  }

  func write(to writer: inout UserInfoWriter) {
    writer.encode(vehicle, forKey: "vehicle")
    writer.encode(kilometre, forKey: "kilometre")
  }

  var eventSubject: String { vehicle }
}

/// An event about a subject that declares nothing kept, used only by the report's test (a
/// report is made once per type and process).
struct Unkept: Event, SubjectIdentifiable {
  static var eventName: String { "Test.Unkept" }
  static var eventVersion: Int { 1 }
  var id: String

  init(id: String) {
    self.id = id
  }

  init(reading reader: UserInfoReader) throws(UserInfoDecodingError) {
    id = try reader.decode(String.self, forKey: "id")
  }

  func write(to writer: inout UserInfoWriter) {
    writer.encode(id, forKey: "id")
  }

  var eventSubject: String { id }
}

/// An event a backend sends under every type a pattern matches.
struct Notice: Event {
  static var eventName: String { "gov.notice.received" }
  static var eventVersion: Int { 1 }
  static var acceptedEventNames: EventNames { .matching(#"^gov\.notice\."#) }
  var text: String

  init(text: String) {
    self.text = text
  }

  init(reading reader: UserInfoReader) throws(UserInfoDecodingError) {
    text = try reader.decode(String.self, forKey: "text")
  }

  func write(to writer: inout UserInfoWriter) {
    writer.encode(text, forKey: "text")
  }
}

/// An event a backend sends under two listed types; `Test.Tick` among them, which `Tick` owns.
struct Change: Event {
  static var eventName: String { "item.created" }
  static var eventVersion: Int { 1 }
  static var acceptedEventNames: EventNames { .oneOf(["item.created", "item.updated", "Test.Tick"]) }

  init() {}

  init(reading reader: UserInfoReader) throws(UserInfoDecodingError) {}

  func write(to writer: inout UserInfoWriter) {}
}
