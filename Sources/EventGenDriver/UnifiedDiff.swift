/// A line-based unified diff, to show what `eventgen check` found stale.
///
/// Memory is linear in the two files' sizes: Myers' linear-space refinement (the "middle snake"
/// divide and conquer, as GNU diff and git's xdiff do it) keeps two rows of the edit graph, not one
/// per step of the edit distance. A whole file regenerated after a change of output format — every
/// line different — is the common case for `check`, so two things keep it fast as well:
/// lines that occur in only one of the files are edits whatever the alignment, and are set aside
/// before the search; and a search that grows too costly splits at its best point so far, as GNU
/// diff does, trading a possibly longer diff for time that stays near-linear.
enum UnifiedDiff {
  /// `--- old` / `+++ new` and hunks with `context` lines around each change; empty when equal.
  ///
  /// Within a change, removed lines come before added ones; changes at most `2 × context`
  /// lines apart share a hunk.
  static func diff(old: String, new: String, oldName: String, newName: String, context: Int = 3) -> String {
    let a = lines(old)
    let b = lines(new)
    guard a != b else { return "" }
    let (removed, added) = LineMatcher(a, b).changes()
    var script = EditScript(removed: removed, added: added)
    var output = "--- \(oldName)\n+++ \(newName)\n"
    while let hunk = script.nextHunk(context: context) {
      output += "@@ -\(range(hunk.oldStart, hunk.oldCount)) +\(range(hunk.newStart, hunk.newCount)) @@\n"
      for edit in hunk.edits {
        switch edit {
        case .same(let index): output += " \(a[index])\n"
        case .removed(let index): output += "-\(a[index])\n"
        case .added(let index): output += "+\(b[index])\n"
        }
      }
    }
    return output
  }

  /// A hunk header's range: the first line (1-based) and the count, as the diff of eventgen has always written it.
  private static func range(_ start: Int, _ count: Int) -> String {
    "\(start + 1),\(count)"
  }

  /// The lines of `text`, without their newlines; a final newline does not start a line.
  static func lines(_ text: String) -> [Substring] {
    var result = text.split(separator: "\n", omittingEmptySubsequences: false)
    if result.last == "" { result.removeLast() }
    return result
  }
}

/// One line of a hunk, by its index in the old or new file.
enum DiffEdit: Equatable {
  case same(Int)
  case removed(Int)
  case added(Int)
}

/// Walks the changes of two files in order and groups them into hunks, one at a time, so that
/// nothing but the output grows with the number of hunks.
struct EditScript {
  private let removed: [Bool]
  private let added: [Bool]
  /// The next old and new lines to look at.
  private var old = 0
  private var new = 0

  init(removed: [Bool], added: [Bool]) {
    self.removed = removed
    self.added = added
  }

  /// A hunk: where it starts in each file (0-based), how many lines of each it spans, its lines.
  struct Hunk {
    var oldStart: Int
    var oldCount: Int
    var newStart: Int
    var newCount: Int
    var edits: [DiffEdit]
  }

  /// The next hunk, with `context` unchanged lines around its changes, or nil after the last.
  mutating func nextHunk(context: Int) -> Hunk? {
    // Skip unchanged lines up to the next change, keeping the last `context` of them.
    var skipped = 0
    while old < removed.count || new < added.count, !isChange {
      old += 1
      new += 1
      skipped += 1
    }
    guard old < removed.count || new < added.count else { return nil }
    let lead = min(context, skipped)
    var hunk = Hunk(oldStart: old - lead, oldCount: 0, newStart: new - lead, newCount: 0, edits: [])
    for offset in stride(from: lead, to: 0, by: -1) { hunk.append(.same(old - offset)) }
    // Take changes and the unchanged runs between them while a run is at most 2 × context long.
    while old < removed.count || new < added.count {
      while old < removed.count, removed[old] {
        hunk.append(.removed(old))
        old += 1
      }
      while new < added.count, added[new] {
        hunk.append(.added(new))
        new += 1
      }
      var run = 0
      while old + run < removed.count, new + run < added.count, !removed[old + run], !added[new + run] {
        run += 1
      }
      let atEnd = old + run == removed.count && new + run == added.count
      if atEnd || run > 2 * context {
        for offset in 0..<min(run, context) { hunk.append(.same(old + offset)) }
        old += min(run, context)
        new += min(run, context)
        return hunk
      }
      for offset in 0..<run { hunk.append(.same(old + offset)) }
      old += run
      new += run
    }
    return hunk
  }

  /// Whether the current old or new line is changed (unchanged lines advance both together).
  private var isChange: Bool {
    (old < removed.count && removed[old]) || (new < added.count && added[new])
  }
}

extension EditScript.Hunk {
  fileprivate mutating func append(_ edit: DiffEdit) {
    edits.append(edit)
    switch edit {
    case .same:
      oldCount += 1
      newCount += 1
    case .removed: oldCount += 1
    case .added: newCount += 1
    }
  }
}

/// Finds which lines of `a` to remove and which of `b` to add so that the rest match: a longest
/// common subsequence when the search is cheap enough (which it is, unless both files are large
/// and share many lines in scrambled order), a common subsequence otherwise.
struct LineMatcher {
  /// Each line as a number, equal numbers for equal lines, so the search compares integers.
  private let a: [Int32]
  private let b: [Int32]

  init(_ old: [Substring], _ new: [Substring]) {
    var numbers: [Substring: Int32] = [:]
    numbers.reserveCapacity(old.count)
    func number(_ line: Substring) -> Int32 {
      if let known = numbers[line] { return known }
      let next = Int32(numbers.count)
      numbers[line] = next
      return next
    }
    a = old.map(number)
    b = new.map(number)
  }

  /// Per line of `a`, whether it is removed; per line of `b`, whether it is added.
  func changes() -> (removed: [Bool], added: [Bool]) {
    var removed = [Bool](repeating: false, count: a.count)
    var added = [Bool](repeating: false, count: b.count)
    // A line that the other file lacks is an edit whatever the alignment: leave it out of the
    // search, which then runs over the lines the two files share.
    var inA = Set<Int32>(minimumCapacity: a.count)
    var inB = Set<Int32>(minimumCapacity: b.count)
    for line in a { inA.insert(line) }
    for line in b { inB.insert(line) }
    var keptA: [Int] = []
    var keptB: [Int] = []
    for (index, line) in a.enumerated() {
      if inB.contains(line) { keptA.append(index) } else { removed[index] = true }
    }
    for (index, line) in b.enumerated() {
      if inA.contains(line) { keptB.append(index) } else { added[index] = true }
    }
    var search = MiddleSnakeSearch(a: keptA.map { a[$0] }, b: keptB.map { b[$0] })
    search.run()
    for (position, index) in keptA.enumerated() where search.removed[position] { removed[index] = true }
    for (position, index) in keptB.enumerated() where search.added[position] { added[index] = true }
    return (removed, added)
  }
}

/// Myers' linear-space diff over two sequences of line numbers.
///
/// The ranges still to compare wait on a stack instead of in recursive calls, so no input,
/// however it splits, runs the stack out.
struct MiddleSnakeSearch {
  let a: [Int32]
  let b: [Int32]
  private(set) var removed: [Bool]
  private(set) var added: [Bool]
  /// Furthest x reached on each diagonal k = x − y, forward and backward, offset by `offset`.
  private var forward: [Int]
  private var backward: [Int]
  private let offset: Int
  /// After this many steps without the two searches meeting, a range splits at the best point
  /// found (about twice the square root of the sizes, as GNU diff computes it, and at least 256).
  private let costLimit: Int

  init(a: [Int32], b: [Int32]) {
    self.a = a
    self.b = b
    removed = [Bool](repeating: false, count: a.count)
    added = [Bool](repeating: false, count: b.count)
    let diagonals = a.count + b.count + 3
    forward = [Int](repeating: 0, count: diagonals)
    backward = [Int](repeating: 0, count: diagonals)
    offset = b.count + 1
    var limit = 1
    var remaining = diagonals
    while remaining != 0 {
      limit <<= 1
      remaining >>= 2
    }
    costLimit = max(256, limit)
  }

  private struct Range {
    var xLow: Int, xHigh: Int, yLow: Int, yHigh: Int
    /// Whether the range must be diffed minimally (no cost limit): a side of a costly split is not.
    var minimal: Bool
  }

  mutating func run() {
    var pending = [Range(xLow: 0, xHigh: a.count, yLow: 0, yHigh: b.count, minimal: false)]
    while var range = pending.popLast() {
      while range.xLow < range.xHigh, range.yLow < range.yHigh, a[range.xLow] == b[range.yLow] {
        range.xLow += 1
        range.yLow += 1
      }
      while range.xLow < range.xHigh, range.yLow < range.yHigh, a[range.xHigh - 1] == b[range.yHigh - 1] {
        range.xHigh -= 1
        range.yHigh -= 1
      }
      if range.xLow == range.xHigh || range.yLow == range.yHigh {
        markAll(range)
        continue
      }
      let split = middle(range)
      let low = Range(xLow: range.xLow, xHigh: split.x, yLow: range.yLow, yHigh: split.y, minimal: split.lowMinimal)
      let high = Range(xLow: split.x, xHigh: range.xHigh, yLow: split.y, yHigh: range.yHigh, minimal: split.highMinimal)
      // A split at a corner would not make progress; it only happens on a costly search, where
      // any valid script will do.
      guard (split.x, split.y) != (range.xLow, range.yLow), (split.x, split.y) != (range.xHigh, range.yHigh) else {
        markAll(range)
        continue
      }
      pending.append(high)
      pending.append(low)
    }
  }

  private mutating func markAll(_ range: Range) {
    for x in range.xLow..<range.xHigh { removed[x] = true }
    for y in range.yLow..<range.yHigh { added[y] = true }
  }

  private struct Split {
    var x: Int, y: Int, lowMinimal: Bool, highMinimal: Bool
  }

  /// The point where a shortest edit path through `range` crosses its middle: the forward search
  /// from the top left and the backward search from the bottom right advance one step each in
  /// turn until their furthest points on one diagonal overlap.
  private mutating func middle(_ range: Range) -> Split {
    let (xLow, xHigh, yLow, yHigh) = (range.xLow, range.xHigh, range.yLow, range.yHigh)
    let lowest = xLow - yHigh
    let highest = xHigh - yLow
    let forwardMiddle = xLow - yLow
    let backwardMiddle = xHigh - yHigh
    var forwardMin = forwardMiddle
    var forwardMax = forwardMiddle
    var backwardMin = backwardMiddle
    var backwardMax = backwardMiddle
    let odd = (forwardMiddle - backwardMiddle) & 1 != 0
    forward[offset + forwardMiddle] = xLow
    backward[offset + backwardMiddle] = xHigh
    var cost = 1
    while true {
      if forwardMin > lowest {
        forwardMin -= 1
        forward[offset + forwardMin - 1] = -1
      } else {
        forwardMin += 1
      }
      if forwardMax < highest {
        forwardMax += 1
        forward[offset + forwardMax + 1] = -1
      } else {
        forwardMax -= 1
      }
      for k in stride(from: forwardMax, through: forwardMin, by: -2) {
        let below = forward[offset + k - 1]
        let above = forward[offset + k + 1]
        var x = below < above ? above : below + 1
        var y = x - k
        while x < xHigh, y < yHigh, a[x] == b[y] {
          x += 1
          y += 1
        }
        forward[offset + k] = x
        if odd, backwardMin <= k, k <= backwardMax, backward[offset + k] <= x {
          return Split(x: x, y: y, lowMinimal: true, highMinimal: true)
        }
      }
      if backwardMin > lowest {
        backwardMin -= 1
        backward[offset + backwardMin - 1] = Int.max
      } else {
        backwardMin += 1
      }
      if backwardMax < highest {
        backwardMax += 1
        backward[offset + backwardMax + 1] = Int.max
      } else {
        backwardMax -= 1
      }
      for k in stride(from: backwardMax, through: backwardMin, by: -2) {
        let below = backward[offset + k - 1]
        let above = backward[offset + k + 1]
        var x = below < above ? below : above - 1
        var y = x - k
        while xLow < x, yLow < y, a[x - 1] == b[y - 1] {
          x -= 1
          y -= 1
        }
        backward[offset + k] = x
        if !odd, forwardMin <= k, k <= forwardMax, x <= forward[offset + k] {
          return Split(x: x, y: y, lowMinimal: true, highMinimal: true)
        }
      }
      if !range.minimal, cost >= costLimit {
        return bestSoFar(range, forward: forwardMin...forwardMax, backward: backwardMin...backwardMax)
      }
      cost += 1
    }
  }

  /// The furthest point either search reached, for a search that grew too costly: the side that
  /// got further is split off there, and the rest is searched again.
  private func bestSoFar(
    _ range: Range, forward forwardRange: ClosedRange<Int>, backward backwardRange: ClosedRange<Int>
  )
    -> Split
  {
    var forwardBest = (sum: -1, x: 0)
    for k in stride(from: forwardRange.upperBound, through: forwardRange.lowerBound, by: -2) {
      var x = min(forward[offset + k], range.xHigh)
      var y = x - k
      if range.yHigh < y {
        x = range.yHigh + k
        y = range.yHigh
      }
      if forwardBest.sum < x + y { forwardBest = (x + y, x) }
    }
    var backwardBest = (sum: Int.max, x: 0)
    for k in stride(from: backwardRange.upperBound, through: backwardRange.lowerBound, by: -2) {
      var x = max(range.xLow, backward[offset + k])
      var y = x - k
      if y < range.yLow {
        x = range.yLow + k
        y = range.yLow
      }
      if x + y < backwardBest.sum { backwardBest = (x + y, x) }
    }
    if (range.xHigh + range.yHigh) - backwardBest.sum < forwardBest.sum - (range.xLow + range.yLow) {
      return Split(x: forwardBest.x, y: forwardBest.sum - forwardBest.x, lowMinimal: true, highMinimal: false)
    }
    return Split(x: backwardBest.x, y: backwardBest.sum - backwardBest.x, lowMinimal: false, highMinimal: true)
  }
}
