import Foundation

/// A subscription asked to replay the latest event about a subject (`replay: true` with
/// ``EventSelector/about(_:)``, an `about:` form or a generated filter helper) of an event type
/// whose bus keeps no latest event per subject, so the replay can find nothing but the type's
/// one latest event.
///
/// It is reported once per event type and process, through ``handler``; by default as one line
/// on standard error that names the type and the fix: declare `replay: { per-subject: N }` for
/// the event (or its group) in its schema, or call
/// ``EventBus/keepLatestPerSubject(_:limit:)`` before publishing. Nothing traps.
public struct UnkeptSubjectReplay: Sendable, CustomStringConvertible {
  /// The event type the replay was about.
  public let eventType: any Event.Type

  /// The type's wire name.
  public var eventName: String { eventType.eventName }

  public var description: String {
    "replay: true about a subject of \(eventName) found no latest event per subject: the bus keeps none for "
      + "\(eventType); declare `replay: { per-subject: 10000 }` for the event in its schema, or call "
      + "bus.keepLatestPerSubject(\(eventType).self) before publishing"
  }

  private static let reporter = Locked<@Sendable (UnkeptSubjectReplay) -> Void>(printToStandardError)
  private static let reported = Locked<Set<ObjectIdentifier>>([])

  /// What happens to a report; ``printToStandardError(_:)`` unless replaced. Set it at launch,
  /// to route reports to your logging or to fail a test.
  public static var handler: @Sendable (UnkeptSubjectReplay) -> Void {
    get { reporter.withLock { $0 } }
    set { reporter.withLock { $0 = newValue } }
  }

  /// Writes the report as one line on standard error.
  public static func printToStandardError(_ report: UnkeptSubjectReplay) {
    FileHandle.standardError.write(Data("TypedEvents: \(report) (UnkeptSubjectReplay.handler)\n".utf8))
  }

  /// Reports `type` unless it was reported before.
  static func report(_ type: any Event.Type) {
    guard reported.withLock({ $0.insert(ObjectIdentifier(type)).inserted }) else { return }
    handler(UnkeptSubjectReplay(eventType: type))
  }
}
