/// Gives value types that contain themselves the indirection Swift needs, and refuses the
/// cycles no finite value satisfies.
///
/// A field of type `T` or `T?` embeds `T`, and so does a choice's member of type `T`; `[T]` and
/// `[String: T]` store it out of line, so a cycle through them needs nothing. Of a cycle through
/// embedded values (a tree, a linked comment thread, a JSON Schema-like payload):
/// - a choice on it becomes an `indirect enum` (``Choice/isIndirect``), which holds its
///   members out of line;
/// - what is left is broken at fields the search finds closing a cycle, which are stored out
///   of line (``Field/isIndirect``), behind a property of the field's own type.
///
/// JSON and `userInfo` are unchanged. A cycle of required fields alone (`next: Node`) is an
/// error: no finite JSON value has that shape. An event is a value type too, and may be a
/// field's type.
enum RecursionCheck {
  /// One field or member that embeds a value of `target`.
  private struct Edge {
    var target: String
    /// The field's index in its record or event; nil for a choice's member.
    var field: Int?
    /// Whether a value must have it: a field that is neither optional nor has a default.
    var required: Bool
    var name: String
    var location: SourceLocation
  }

  /// Where a named type is declared: its file, and its index among the file's types or events.
  private enum Place {
    case type(file: Int, index: Int)
    case event(file: Int, index: Int)
  }

  static func apply(to files: inout [SchemaFile], log: inout DiagnosticLog) {
    var places: [String: Place] = [:]
    var edges: [String: [Edge]] = [:]
    var choices: Set<String> = []
    for (file, schema) in files.enumerated() {
      for (index, type) in schema.types.enumerated() {
        switch type.kind {
        case .record(let fields):
          places[type.name] = .type(file: file, index: index)
          edges[type.name] = fieldEdges(fields)
        case .choice(let choice):
          places[type.name] = .type(file: file, index: index)
          choices.insert(type.name)
          edges[type.name] = choice.members.compactMap { member in
            embedded(member.type).map {
              Edge(target: $0, field: nil, required: false, name: member.name, location: type.location)
            }
          }
        default:
          continue
        }
      }
      for (index, event) in schema.events.enumerated() {
        places[event.name] = .event(file: file, index: index)
        edges[event.name] = fieldEdges(event.fields)
      }
    }

    // No finite value: a cycle of required fields alone.
    let required = edges.mapValues { $0.filter(\.required) }
    for (from, edge) in backEdges(required) {
      log.error(
        "recursive value type: `\(from).\(edge.name)` requires a `\(edge.target)`, which requires a `\(from)` in turn, so no finite value has this shape; make a field on the cycle optional, or an array such as `[\(edge.target)]`",
        at: edge.location)
    }
    guard !log.hasErrors else { return }

    // Choices on a cycle are indirect enums; the cycles left are broken at fields.
    var reverse: [String: [String]] = [:]
    for (source, outgoing) in edges {
      for edge in outgoing { reverse[edge.target, default: []].append(source) }
    }
    let onCycle = Set(
      backEdges(edges).flatMap { cycleMembers(from: $0.from, edge: $0.edge, edges: edges, reverse: reverse) })
    var rest = edges
    for name in choices where onCycle.contains(name) {
      rest[name] = []
      guard case .type(let file, let index)? = places[name],
        case .choice(var choice) = files[file].types[index].kind
      else { continue }
      choice.isIndirect = true
      files[file].types[index].kind = .choice(choice)
    }
    for (from, edge) in backEdges(rest) {
      guard let field = edge.field else { continue }
      switch places[from] {
      case .type(let file, let index)?:
        guard case .record(var fields) = files[file].types[index].kind else { continue }
        fields[field].isIndirect = true
        files[file].types[index].kind = .record(fields)
      case .event(let file, let index)?:
        files[file].events[index].fields[field].isIndirect = true
      case nil:
        continue
      }
    }
  }

  private static func fieldEdges(_ fields: [Field]) -> [Edge] {
    fields.enumerated().compactMap { index, field in
      // A whole payload is its event's JSON: its choice, on a cycle, is what becomes indirect.
      guard field.constant == nil, let target = embedded(field.type) else { return nil }
      let required = !field.type.isOptional && field.defaultValue == nil && !field.isWholePayload
      return Edge(target: target, field: index, required: required, name: field.name, location: field.location)
    }
  }

  /// The record, event or choice a value of `type` embeds.
  private static func embedded(_ type: FieldType) -> String? {
    switch type {
    case .named(let name, .record), .named(let name, .choice): return name
    case .optional(let wrapped): return embedded(wrapped)
    default: return nil
    }
  }

  /// The edges a depth-first search finds closing a cycle (to a type still on its path), in a
  /// fixed order: roots by name, edges as declared. Without them the graph has no cycle.
  /// Iterative, so a long chain cannot overflow the stack.
  private static func backEdges(_ edges: [String: [Edge]]) -> [(from: String, edge: Edge)] {
    enum Colour { case visiting, done }
    var colour: [String: Colour] = [:]
    var found: [(from: String, edge: Edge)] = []
    for root in edges.keys.sorted() where colour[root] == nil {
      var stack: [(name: String, next: Int)] = [(root, 0)]
      colour[root] = .visiting
      while let top = stack.last {
        let outgoing = edges[top.name] ?? []
        guard top.next < outgoing.count else {
          colour[top.name] = .done
          stack.removeLast()
          continue
        }
        stack[stack.count - 1].next += 1
        let edge = outgoing[top.next]
        switch colour[edge.target] {
        case .visiting: found.append((top.name, edge))
        case .done: break
        case nil:
          colour[edge.target] = .visiting
          stack.append((edge.target, 0))
        }
      }
    }
    return found
  }

  /// The types on a cycle that `edge` (from `from`) closes: those that reach `from` from the
  /// edge's target.
  private static func cycleMembers(
    from: String, edge: Edge, edges: [String: [Edge]], reverse: [String: [String]]
  ) -> Set<String> {
    // Types that reach `from`: a search backwards from it.
    var reachesFrom: Set<String> = [from]
    var work = [from]
    while let next = work.popLast() {
      for source in reverse[next] ?? [] where reachesFrom.insert(source).inserted { work.append(source) }
    }
    // Of those, the ones the edge's target reaches.
    var onCycle: Set<String> = []
    var seen: Set<String> = [edge.target]
    work = [edge.target]
    while let next = work.popLast() {
      if reachesFrom.contains(next) { onCycle.insert(next) }
      for out in edges[next] ?? [] where seen.insert(out.target).inserted { work.append(out.target) }
    }
    return onCycle
  }
}
