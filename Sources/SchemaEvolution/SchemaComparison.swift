import EventSchema

/// Lists every difference between two versions of a schema set that a reader could notice:
/// events by wire name, types and groups by name, fields by wire key, enum cases by raw value.
struct SchemaComparison {
  private(set) var changes: [SchemaChange] = []
  /// What the changes reported now are inside of.
  private var owner: SchemaChange.Owner?

  init(old: SchemaSet, new: SchemaSet) {
    compareEvents(old.allEvents, new.allEvents)
    compareTypes(old.files.flatMap(\.types), new.files.flatMap(\.types))
    compareGroups(old.files.flatMap(\.groups), new.files.flatMap(\.groups))
  }

  private mutating func report(_ location: SourceLocation, _ message: String, breaks: Directions = []) {
    changes.append(SchemaChange(at: location, message, breaks: breaks, owner: owner))
  }

  // MARK: Events

  private mutating func compareEvents(_ old: [EventDeclaration], _ new: [EventDeclaration]) {
    let newByWireName = Dictionary(new.map { ($0.wireName, $0) }, uniquingKeysWith: { first, _ in first })
    let oldWireNames = Set(old.map(\.wireName))
    for event in old {
      guard let counterpart = newByWireName[event.wireName] else {
        report(
          event.location,
          "event `\(event.name)` (\(event.wireName)) was removed or renamed: apps on the new schema cannot read the events already written; deprecate it instead",
          breaks: .backward)
        continue
      }
      owner = .event(event.wireName)
      compareFields(event.fields, counterpart.fields, of: "event `\(counterpart.name)`")
      if event.replayPerSubject != counterpart.replayPerSubject {
        // What a bus keeps for replay is local to each process: no reader is affected.
        let describe = { (limit: Int?) in limit.map { "the latest event of \($0) subjects" } ?? "nothing per subject" }
        report(
          counterpart.location,
          "event `\(counterpart.name)` now keeps \(describe(counterpart.replayPerSubject)) for replay, instead of \(describe(event.replayPerSubject))"
        )
      }
      owner = nil
    }
    for event in new where !oldWireNames.contains(event.wireName) {
      report(event.location, "event `\(event.name)` (\(event.wireName)) was added")
    }
  }

  // MARK: Fields

  /// Fields are matched by wire key, which is what readers see; a field whose key changed is
  /// found by its Swift name.
  private mutating func compareFields(_ old: [Field], _ new: [Field], of owner: String) {
    let newByKey = Dictionary(new.map { ($0.wireKey, $0) }, uniquingKeysWith: { first, _ in first })
    let oldKeys = Set(old.map(\.wireKey))
    var renamed: Set<String> = []
    for field in old {
      if let counterpart = newByKey[field.wireKey] {
        compareField(field, counterpart, of: owner, newFields: new)
      } else if let moved = new.first(where: { $0.name == field.name && !oldKeys.contains($0.wireKey) }) {
        renamed.insert(moved.wireKey)
        report(
          moved.location,
          "field `\(moved.name)` of \(owner) changed its wire key from \"\(field.wireKey)\" to \"\(moved.wireKey)\": each side misses the other's values; keep the old key with `key: \(field.wireKey)`",
          breaks: .both)
      } else if field.type.isOptional || field.defaultValue != nil {
        report(field.location, "field `\(field.name)` of \(owner) was removed; apps on the old schema do without it")
      } else {
        report(
          field.location,
          "field `\(field.name)` of \(owner) was removed: apps on the old schema require it; make it optional or give it a `default` first",
          breaks: .forward)
      }
    }
    for field in new where !oldKeys.contains(field.wireKey) && !renamed.contains(field.wireKey) {
      if field.type.isOptional || field.defaultValue != nil {
        report(field.location, "field `\(field.name)` of \(owner) was added; apps on the old schema ignore it")
      } else {
        report(
          field.location,
          "field `\(field.name)` of \(owner) was added without a default: apps on the new schema cannot read what was written before; make it optional or give it a `default`",
          breaks: .backward)
      }
    }
  }

  /// Two fields with the same wire key.
  private mutating func compareField(_ old: Field, _ new: Field, of owner: String, newFields: [Field]) {
    if old.name != new.name {
      if newFields.contains(where: { $0.name == old.name }) {
        report(
          new.location,
          "wire key \"\(new.wireKey)\" of \(owner) now belongs to field `\(new.name)` instead of `\(old.name)`: readers take one field's values for the other's",
          breaks: .both)
        return
      }
      report(
        new.location,
        "field `\(old.name)` of \(owner) was renamed to `\(new.name)`, keeping its wire key \"\(new.wireKey)\"")
    }
    if old.type == new.type, old.defaultValue != nil, new.defaultValue == nil, !new.type.isOptional {
      report(
        new.location, "field `\(new.name)` of \(owner) lost its default: what was written without it cannot be read",
        breaks: .backward)
    }
    guard old.type != new.type else { return }
    if case .optional(let wrapped) = new.type, wrapped == old.type {
      if old.defaultValue != nil {
        report(
          new.location, "field `\(new.name)` of \(owner) became optional; apps on the old schema have a default for it")
      } else {
        report(
          new.location, "field `\(new.name)` of \(owner) became optional: apps on the old schema require it",
          breaks: .forward)
      }
    } else if case .optional(let wrapped) = old.type, wrapped == new.type {
      if new.defaultValue != nil {
        report(
          new.location,
          "field `\(new.name)` of \(owner) became required, with a default for what was written without it")
      } else {
        report(
          new.location,
          "field `\(new.name)` of \(owner) became required without a default: what was written without it cannot be read",
          breaks: .backward)
      }
    } else {
      report(
        new.location, "field `\(new.name)` of \(owner) changed type from `\(old.type)` to `\(new.type)`",
        breaks: .both)
    }
  }

  // MARK: Types

  private mutating func compareTypes(_ old: [TypeDeclaration], _ new: [TypeDeclaration]) {
    let newByName = Dictionary(new.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    let oldNames = Set(old.map(\.name))
    for type in old {
      guard let counterpart = newByName[type.name] else {
        report(type.location, "type `\(type.name)` was removed or renamed", breaks: .both)
        continue
      }
      owner = .type(type.name)
      compareType(type, counterpart)
      owner = nil
    }
    for type in new where !oldNames.contains(type.name) {
      report(type.location, "type `\(type.name)` was added")
    }
  }

  private mutating func compareType(_ old: TypeDeclaration, _ new: TypeDeclaration) {
    switch (old.kind, new.kind) {
    case (.wrapper(let oldRaw), .wrapper(let newRaw)):
      if oldRaw != newRaw {
        report(
          new.location, "type `\(new.name)` now wraps `\(newRaw.swiftName)` instead of `\(oldRaw.swiftName)`",
          breaks: .both)
      }
    case (.enumeration(let oldCases, let oldFrozen), .enumeration(let newCases, let newFrozen)):
      compareEnum(new, old: (oldCases, oldFrozen), new: (newCases, newFrozen))
    case (.record(let oldFields), .record(let newFields)):
      compareFields(oldFields, newFields, of: "type `\(new.name)`")
    default:
      report(
        new.location, "type `\(new.name)` changed from \(Self.kind(old.kind)) to \(Self.kind(new.kind))", breaks: .both)
    }
  }

  private mutating func compareEnum(
    _ type: TypeDeclaration, old: (cases: [EnumCase], frozen: Bool), new: (cases: [EnumCase], frozen: Bool)
  ) {
    let name = type.name
    if old.frozen != new.frozen {
      if new.frozen {
        report(
          type.location,
          "enum `\(name)` became frozen: values that older apps kept as `UNRECOGNIZED` can no longer be read",
          breaks: .backward)
      } else {
        report(type.location, "enum `\(name)` became open")
      }
    }
    let newRawValues = Set(new.cases.map(\.rawValue))
    let oldRawValues = Set(old.cases.map(\.rawValue))
    for enumCase in old.cases where !newRawValues.contains(enumCase.rawValue) {
      if new.frozen {
        report(
          type.location,
          "case `\(enumCase.name)` (\"\(enumCase.rawValue)\") was removed from frozen enum `\(name)`: values written before cannot be read",
          breaks: .backward)
      } else {
        report(
          type.location,
          "case `\(enumCase.name)` (\"\(enumCase.rawValue)\") was removed from enum `\(name)`: values written before now read as `UNRECOGNIZED`",
          breaks: .backward)
      }
    }
    for enumCase in new.cases where !oldRawValues.contains(enumCase.rawValue) {
      if old.frozen {
        report(
          type.location,
          "case `\(enumCase.name)` (\"\(enumCase.rawValue)\") was added to frozen enum `\(name)`: apps on the old schema cannot read it; an enum that grows should be open",
          breaks: .forward)
      } else {
        report(
          type.location,
          "case `\(enumCase.name)` (\"\(enumCase.rawValue)\") was added to enum `\(name)`; older apps read it as `UNRECOGNIZED`"
        )
      }
    }
  }

  private static func kind(_ kind: TypeDeclaration.Kind) -> String {
    switch kind {
    case .wrapper: return "a wrapper"
    case .enumeration: return "an enum"
    case .record: return "a value type"
    case .choice: return "a choice"
    }
  }

  // MARK: Groups

  /// Groups never travel: their changes break the code that switches over them, which a new
  /// schema must keep compiling (counted as backward).
  private mutating func compareGroups(_ old: [GroupDeclaration], _ new: [GroupDeclaration]) {
    let newByName = Dictionary(new.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    for group in old {
      guard let counterpart = newByName[group.name] else {
        report(
          group.location, "group `\(group.name)` was removed: code that subscribes to it no longer compiles",
          breaks: .backward)
        continue
      }
      let newEvents = Set(counterpart.cases.map(\.event))
      for groupCase in group.cases where !newEvents.contains(groupCase.event) {
        report(
          counterpart.location,
          "case `\(groupCase.name)` (event `\(groupCase.event)`) was removed from group `\(group.name)`: code that switches over it no longer compiles",
          breaks: .backward)
      }
    }
  }
}
