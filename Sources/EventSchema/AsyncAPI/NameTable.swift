/// The Swift names of one AsyncAPI document's events and types, each given once, so that no
/// name refuses a document: the document names freely, and Swift needs one name per type.
///
/// The rule (also in the article "Schema format", section "Names"):
/// - Events are named first, in the order their messages are met. A name that is taken, or
///   that Swift or the generated code keeps for itself, becomes `<Channel><Name>` for a
///   message written in a channel, else `<Name>Event`, else `<Name>2`, `<Name>3` and so on.
/// - Types are named as they are declared, after every event. A name that is taken becomes
///   `<File><Name>` for a schema of another file than the document (the file's stem, so two
///   files' `Error`s are `BillingError` and `OrdersError`), else `<Name>Schema`, else
///   `<Name>2`, `<Name>3` and so on.
/// - Each renamed event or type gets a note where it is declared, saying the name it got and
///   who holds the one it wanted. `x-eventgen-name` on the message or schema names it exactly,
///   and so does the config's `names` (``ConfiguredName``), before it; a name so chosen that is
///   taken or not a Swift type name is an error there.
///
/// Adding a message or a schema renames only what wants the same name: a new event takes its
/// name before any type, a new type before the types met after it. One table serves a whole
/// run, whose files share one Swift namespace: the names `.events.yaml` files declare are held
/// first, then each AsyncAPI document's in the order the run lists them.
struct NameTable {
  /// Who holds a name: what it is (`message \`audio\``) and where it is declared.
  private struct Holder {
    var what: String
    var location: SourceLocation
  }

  private var holders: [String: Holder] = [:]

  /// Records that `what`, declared at `location`, has `name`, as written in a `.events.yaml`
  /// file: such names are the user's own, given before any document's are derived.
  mutating func reserve(_ name: String, for what: String, at location: SourceLocation) {
    if holders[name] == nil { holders[name] = Holder(what: what, location: location) }
  }

  /// Whether `name` is free: no one holds it, and Swift lets a generated type have it.
  func isFree(_ name: String) -> Bool {
    holders[name] == nil && Self.reason(against: name) == nil
  }

  /// Why `name` cannot name a generated type whoever holds it, or nil.
  private static func reason(against name: String) -> String? {
    if !SwiftNames.isIdentifier(name) { return "not a Swift identifier" }
    if SwiftNames.keywords.contains(name) { return "a Swift keyword" }
    return SwiftNames.reservedTypeNames[name]
  }

  /// Gives `what`, declared at `location`, the name `wanted` when it is free, else the first free
  /// of `alternatives` and then `wanted` with 2, 3 and so on, with a note saying why.
  mutating func claim(
    _ wanted: String, alternatives: [String], for what: String, at location: SourceLocation,
    log: inout DiagnosticLog
  ) -> String {
    if isFree(wanted) {
      holders[wanted] = Holder(what: what, location: location)
      return wanted
    }
    var name = alternatives.first(where: isFree)
    var suffix = 2
    while name == nil {
      if isFree(wanted + "\(suffix)") { name = wanted + "\(suffix)" }
      suffix += 1
    }
    let given = name ?? wanted
    let why =
      holders[wanted].map { "\($0.what) at \($0.location) has that name" }
      ?? "`\(wanted)` is \(Self.reason(against: wanted) ?? "taken")"
    log.note(
      "\(what) is named `\(given)` in Swift, not `\(wanted)`: \(why); `x-eventgen-name` on it chooses another name",
      at: location)
    holders[given] = Holder(what: what, location: location)
    return given
  }

  /// Gives `what` the name `chosen` exactly, as `source` (`` `x-eventgen-name` ``, or the
  /// config's `names`) chooses it; nil, with an error at the choice, when it is taken or cannot
  /// name a type. `declaration` is where `what` is declared, when the choice is elsewhere.
  mutating func claim(
    chosen: Located<String>, by source: String = "`x-eventgen-name`", for what: String,
    declaredAt declaration: SourceLocation? = nil, log: inout DiagnosticLog
  ) -> String? {
    let subject = what + (declaration.map { " at \($0)" } ?? "")
    if let holder = holders[chosen.value] {
      log.error(
        "\(source) `\(chosen.value)` of \(subject) is taken: \(holder.what) at \(holder.location) has it",
        at: chosen.location)
      return nil
    }
    if let reason = Self.reason(against: chosen.value) {
      log.error("\(source) `\(chosen.value)` of \(subject) cannot name a type: it is \(reason)", at: chosen.location)
      return nil
    }
    holders[chosen.value] = Holder(what: what, location: declaration ?? chosen.location)
    return chosen.value
  }
}
