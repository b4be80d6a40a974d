import EventSchema

/// Renders the conformance of each event to Foundation's typed notifications
/// (`NotificationCenter.MainActorMessage` or `AsyncMessage`), when the run opts in.
///
/// The conversion to and from `Notification` goes through the event's `userInfo` coding, so that
/// an observer of either kind receives what a poster of the other kind sent, where Foundation
/// converts (Apple platforms). A `userInfo` that does not decode is reported to
/// `NotificationDecodingFailure.handler` before `makeMessage(_:)` returns nil.
struct NotificationMessageRenderer {
  let access: AccessLevel
  let message: NotificationMessage

  /// The first toolchain whose Foundation has the protocols (Xcode 26, Swift 6.2).
  static let compilerCondition = "compiler(>=6.2)"
  /// The first Apple systems that have them.
  static let availability = "@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)"

  private var protocolName: TypeReference {
    switch message {
    case .mainActor: return .foundation("NotificationCenter.MainActorMessage")
    case .async: return .foundation("NotificationCenter.AsyncMessage")
    }
  }

  /// One `#if` block with a conformance per event, or nothing when there are no events.
  func render(_ events: [EventDeclaration]) -> [Declaration] {
    guard !events.isEmpty else { return [] }
    return [.conditional(Self.compilerCondition, events.map(conformance))]
  }

  private func conformance(_ event: EventDeclaration) -> Declaration {
    let notification = TypeReference.foundation("Notification")
    let name = TypeReference.foundation("Notification.Name")
    return .extension(
      ExtensionDecl(
        attributes: [Self.availability], type: .local(event.name), conformances: [protocolName],
        members: [
          .typeAlias(
            TypeAliasDecl(
              doc: ["Posted without a subject object."], modifiers: [.access(access)], name: "Subject",
              type: .swift("AnyObject"))),
          .property(
            PropertyDecl(
              doc: ["The notification name: the event's wire name."], modifiers: [.access(access), .static],
              name: "name",
              type: name, getter: [.line("\(name)(Self.eventName)")])),
          .function(
            FunctionDecl(
              doc: [
                "The event in the notification's `userInfo`, or nil once the reason went to",
                "`NotificationDecodingFailure.handler`.",
              ],
              modifiers: [.access(access), .static],
              signature: "func makeMessage(_ notification: \(notification)) -> Self?",
              body: [.line("Self._message(from: notification)")])),
          .function(
            FunctionDecl(
              doc: ["The event as a notification: its wire name and `userInfo`."],
              modifiers: [.access(access), .static],
              signature: "func makeNotification(_ message: Self) -> \(notification)",
              body: [.line("message.notification()")])),
        ]))
  }
}
