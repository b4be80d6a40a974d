/// Finds value types that contain themselves by value, which Swift cannot lay out.
///
/// A field of type `T` or `T?` embeds `T`; `[T]` and `[String: T]` store it out of line, so a
/// cycle through them is fine. An event is a value type too, and may be a field's type.
enum RecursionCheck {
  static func check(records types: [TypeDeclaration], events: [EventDeclaration], log: inout DiagnosticLog) {
    var edges: [String: [(target: String, field: Field)]] = [:]
    func add(_ name: String, _ fields: [Field]) {
      edges[name] = fields.compactMap { field in
        embeddedRecord(field.type).map { ($0, field) }
      }
    }
    for type in types {
      guard case .record(let fields) = type.kind else { continue }
      add(type.name, fields)
    }
    for event in events {
      add(event.name, event.fields)
    }
    // Iterative depth-first search with colours, so a long chain cannot overflow the stack.
    enum Colour { case visiting, done }
    var colour: [String: Colour] = [:]
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
        case .visiting:
          let start = stack.firstIndex { $0.name == edge.target } ?? 0
          let cycle = stack[start...].map(\.name) + [edge.target]
          log.error(
            "recursive value type: `\(top.name).\(edge.field.name)` contains `\(edge.target)` by value (\(cycle.joined(separator: " → "))); make the field an array, such as `[\(edge.target)]`, to break the cycle",
            at: edge.field.location)
        case .done:
          break
        case nil:
          colour[edge.target] = .visiting
          stack.append((edge.target, 0))
        }
      }
    }
  }

  private static func embeddedRecord(_ type: FieldType) -> String? {
    switch type {
    case .named(let name, .record): return name
    case .optional(let wrapped): return embeddedRecord(wrapped)
    default: return nil
    }
  }
}
