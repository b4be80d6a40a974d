import EventSchema

/// Renders the conformance of each event to Foundation's typed notifications
/// (`NotificationCenter.MainActorMessage` or `AsyncMessage`), when the run opts in.
///
/// The conversion to and from `Notification` goes through the event's `userInfo` coding, so that
/// an observer of either kind receives what a poster of the other kind sent, where Foundation
/// converts (Apple platforms). A `userInfo` that does not decode is reported to
/// `NotificationDecodingFailure.handler` before `makeMessage(_:)` returns nil.
struct NotificationMessageRenderer {
  let access: String
  let message: NotificationMessage

  /// The first toolchain whose Foundation has the protocols (Xcode 26, Swift 6.2).
  static let compilerCondition = "compiler(>=6.2)"
  /// The first Apple systems that have them.
  static let availability = "@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)"

  private var protocolName: String {
    switch message {
    case .mainActor: return "Foundation.NotificationCenter.MainActorMessage"
    case .async: return "Foundation.NotificationCenter.AsyncMessage"
    }
  }

  /// One `#if` block with a conformance per event, or nothing when there are no events.
  func render(_ events: [EventDeclaration]) -> [Declaration] {
    guard !events.isEmpty else { return [] }
    return [.conditional(Self.compilerCondition, events.map(conformance))]
  }

  private func conformance(_ event: EventDeclaration) -> Declaration {
    .extension(
      ExtensionDecl(
        attributes: [Self.availability], type: event.name, conformances: [protocolName],
        members: [
          .line("/// Posted without a subject object.\n\(access)typealias Subject = Swift.AnyObject"),
          .property(
            PropertyDecl(
              doc: ["The notification name: the event's wire name."], modifiers: "\(access)static ", name: "name",
              type: "Foundation.Notification.Name", getter: [.line("Foundation.Notification.Name(Self.eventName)")])),
          .function(
            FunctionDecl(
              doc: [
                "The event in the notification's `userInfo`, or nil once the reason went to",
                "`NotificationDecodingFailure.handler`.",
              ],
              signature: "\(access)static func makeMessage(_ notification: Foundation.Notification) -> Self?",
              body: [.line("Self._message(from: notification)")])),
          .function(
            FunctionDecl(
              doc: ["The event as a notification: its wire name and `userInfo`."],
              signature: "\(access)static func makeNotification(_ message: Self) -> Foundation.Notification",
              body: [.line("message.notification()")])),
        ]))
  }
}
