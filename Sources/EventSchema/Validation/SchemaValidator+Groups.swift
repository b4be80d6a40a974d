// The checks of groups: their members, case names and size, and the replay limit a group
// passes on to its events.
extension SchemaValidator {
  /// A group's `replay: { per-subject: N }` applies to each of its events that does not say
  /// its own; an event in several such groups keeps the largest limit. Every event of such a
  /// group must have a subject.
  mutating func applyGroupReplay(_ documents: [SchemaDocument], to files: inout [SchemaFile]) {
    var limits: [String: Int] = [:]
    let eventsByName = Dictionary(
      files.flatMap(\.events).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    for group in documents.flatMap(\.groups) {
      guard let replay = group.replayPerSubject else { continue }
      for entry in group.cases {
        guard let event = eventsByName[entry.event.value] else { continue }
        guard event.subject != nil else {
          log.error(
            "group `\(group.name.value)` keeps its latest events per subject, but its event `\(event.name)` has no `subject:`",
            at: replay.location)
          continue
        }
        limits[event.name] = max(limits[event.name] ?? 0, replay.value)
      }
    }
    for fileIndex in files.indices {
      for eventIndex in files[fileIndex].events.indices
      where files[fileIndex].events[eventIndex].replayPerSubject == nil {
        files[fileIndex].events[eventIndex].replayPerSubject = limits[files[fileIndex].events[eventIndex].name]
      }
    }
  }

  mutating func group(_ syntax: GroupSyntax, events: [String: EventDeclaration]) -> GroupDeclaration? {
    var cases: [GroupDeclaration.Case] = []
    var caseNames: Set<String> = []
    var members: Set<String> = []
    var valid = true
    for entry in syntax.cases {
      let eventName = entry.event.value
      guard events[eventName] != nil else {
        if symbols[eventName] == nil {
          let hint = Suggestions.hint(for: eventName, among: symbols.eventNames)
          log.error("group `\(syntax.name.value)` names no event `\(eventName)`\(hint)", at: entry.event.location)
        } else if case .event = symbols[eventName]?.kind {
          // The event exists but is invalid; its own error says why.
        } else {
          log.error(
            "`\(eventName)` is a \(symbols[eventName]?.kind.noun ?? "name"), not an event; groups hold events",
            at: entry.event.location)
        }
        valid = false
        continue
      }
      guard members.insert(eventName).inserted else {
        log.error("event `\(eventName)` appears twice in group `\(syntax.name.value)`", at: entry.event.location)
        valid = false
        continue
      }
      let caseName = entry.name ?? Located(value: SwiftNames.lowerCamelCase(eventName), location: entry.event.location)
      guard checkMemberName(caseName, what: "group case", clashes: SwiftNames.groupMembers) else {
        valid = false
        continue
      }
      guard caseNames.insert(caseName.value).inserted else {
        log.error("duplicate case `\(caseName.value)` in group `\(syntax.name.value)`", at: caseName.location)
        valid = false
        continue
      }
      cases.append(.init(name: caseName.value, event: eventName))
    }
    guard valid, !cases.isEmpty else { return nil }
    guard cases.count <= Self.maximumGroupSize else {
      log.error(
        "group `\(syntax.name.value)` has \(cases.count) events; the limit is \(Self.maximumGroupSize), because Swift cannot check a `switch` over 630 or more cases in reasonable time; split it into several groups",
        at: syntax.name.location)
      return nil
    }
    let subjects = cases.map { events[$0.event]?.subject?.type }
    let shared: FieldType? =
      subjects.allSatisfy({ $0 != nil && $0 == subjects.first ?? nil }) ? subjects.first ?? nil : nil
    return GroupDeclaration(
      name: syntax.name.value, cases: cases, subjectType: shared, doc: syntax.doc, location: syntax.name.location)
  }
}
