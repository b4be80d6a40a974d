/// A line-based unified diff (Myers' algorithm), to show what `eventgen check` found stale.
enum UnifiedDiff {
  private enum Edit: Equatable {
    case same(String), removed(String), added(String)
  }

  /// `--- old` / `+++ new` and hunks with `context` lines around each change; empty when equal.
  static func diff(old: String, new: String, oldName: String, newName: String, context: Int = 3) -> String {
    let a = lines(old)
    let b = lines(new)
    guard a != b else { return "" }
    let edits = script(a, b)
    var output = "--- \(oldName)\n+++ \(newName)\n"
    let changes = edits.indices.filter { if case .same = edits[$0] { return false } else { return true } }
    // Changes closer than 2 × context lines share a hunk.
    var groups: [[Int]] = []
    for change in changes {
      if let last = groups.last?.last, change - last <= 2 * context {
        groups[groups.count - 1].append(change)
      } else {
        groups.append([change])
      }
    }
    for group in groups {
      guard let first = group.first, let last = group.last else { continue }
      let start = max(0, first - context)
      let stop = min(edits.count, last + context + 1)
      let (oldStart, newStart) = positions(edits, before: start)
      let slice = edits[start..<stop]
      let oldCount = slice.filter { if case .added = $0 { return false } else { return true } }.count
      let newCount = slice.filter { if case .removed = $0 { return false } else { return true } }.count
      output += "@@ -\(oldStart + 1),\(oldCount) +\(newStart + 1),\(newCount) @@\n"
      for edit in slice {
        switch edit {
        case .same(let line): output += " \(line)\n"
        case .removed(let line): output += "-\(line)\n"
        case .added(let line): output += "+\(line)\n"
        }
      }
    }
    return output
  }

  private static func lines(_ text: String) -> [String] {
    var result = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if result.last == "" { result.removeLast() }
    return result
  }

  private static func positions(_ edits: [Edit], before end: Int) -> (Int, Int) {
    var old = 0
    var new = 0
    for edit in edits[..<end] {
      switch edit {
      case .same: old += 1; new += 1
      case .removed: old += 1
      case .added: new += 1
      }
    }
    return (old, new)
  }

  /// The shortest edit script from `a` to `b`.
  private static func script(_ a: [String], _ b: [String]) -> [Edit] {
    let n = a.count
    let m = b.count
    let offset = n + m
    var frontier = [Int](repeating: 0, count: 2 * offset + 2)
    var trace: [[Int]] = []
    search: for d in 0...offset {
      trace.append(frontier)
      for k in stride(from: -d, through: d, by: 2) {
        var x: Int
        if k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1]) {
          x = frontier[offset + k + 1]
        } else {
          x = frontier[offset + k - 1] + 1
        }
        var y = x - k
        while x < n && y < m && a[x] == b[y] {
          x += 1
          y += 1
        }
        frontier[offset + k] = x
        if x >= n && y >= m { break search }
      }
    }
    // Walk the trace back from the end to recover the edits.
    var edits: [Edit] = []
    var x = n
    var y = m
    for d in stride(from: trace.count - 1, through: 0, by: -1) {
      let v = trace[d]
      let k = x - y
      let previousK = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? k + 1 : k - 1
      let previousX = v[offset + previousK]
      let previousY = previousX - previousK
      while x > previousX && y > previousY {
        edits.append(.same(a[x - 1]))
        x -= 1
        y -= 1
      }
      if d > 0 {
        if x == previousX {
          edits.append(.added(b[y - 1]))
        } else {
          edits.append(.removed(a[x - 1]))
        }
      }
      x = previousX
      y = previousY
    }
    return edits.reversed()
  }
}
