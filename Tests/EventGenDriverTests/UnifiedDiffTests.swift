import TestSupport
import Testing

@testable import EventGenDriver

/// The diff `check` prints: exact output for small cases, and for random ones a patch that turns
/// the old file into the new one with as few changed lines as a longest common subsequence gives.
@Suite("Unified diff")
struct UnifiedDiffTests {
  func diff(_ old: String, _ new: String, context: Int = 3) -> String {
    UnifiedDiff.diff(old: old, new: new, oldName: "a", newName: "b", context: context)
  }

  @Test func equalFilesHaveNoDiff() {
    #expect(diff("", "") == "")
    #expect(diff("x\ny\n", "x\ny\n") == "")
  }

  @Test func oneChangedLineInTheMiddleHasThreeLinesOfContextEachSide() {
    let old = (1...9).map { "\($0)\n" }.joined()
    let new = old.replacingOccurrences(of: "5\n", with: "five\n")
    #expect(diff(old, new) == "--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n")
  }

  @Test func aNewFileIsAllAdded() {
    #expect(diff("", "x\ny\n") == "--- a\n+++ b\n@@ -1,0 +1,2 @@\n+x\n+y\n")
    #expect(diff("x\ny\n", "") == "--- a\n+++ b\n@@ -1,2 +1,0 @@\n-x\n-y\n")
  }

  @Test func changesFurtherApartThanTwiceTheContextGetHunksOfTheirOwn() {
    let old = (1...20).map { "\($0)\n" }.joined()
    var lines = (1...20).map { "\($0)" }
    lines[1] = "two"
    lines[18] = "nineteen"
    let new = lines.map { $0 + "\n" }.joined()
    #expect(
      diff(old, new, context: 2)
        == "--- a\n+++ b\n@@ -1,4 +1,4 @@\n 1\n-2\n+two\n 3\n 4\n@@ -17,4 +17,4 @@\n 17\n 18\n-19\n+nineteen\n 20\n")
    // Four unchanged lines between two changes, with two lines of context: one hunk.
    lines = (1...8).map { "\($0)" }
    lines[1] = "two"
    lines[6] = "seven"
    #expect(
      diff((1...8).map { "\($0)\n" }.joined(), lines.map { $0 + "\n" }.joined(), context: 2)
        == "--- a\n+++ b\n@@ -1,8 +1,8 @@\n 1\n-2\n+two\n 3\n 4\n 5\n 6\n-7\n+seven\n 8\n")
  }

  @Test func removedLinesComeBeforeAddedOnes() {
    #expect(diff("a\nb\nc\n", "a\nx\ny\nc\n") == "--- a\n+++ b\n@@ -1,3 +1,4 @@\n a\n-b\n+x\n+y\n c\n")
  }

  @Test func aFileWithoutAFinalNewlineDiffsByLines() {
    #expect(diff("a\nb", "a\nc") == "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n")
  }

  @Test("random edits: the patch gives the new file, with a minimal number of changed lines", arguments: 0..<300)
  func randomEditsPatchBackAndAreMinimal(seed: Int) throws {
    var random = SplitMix64(state: UInt64(seed))
    // Few distinct lines, so that many alignments exist and the search has work to do.
    let alphabet = Int(random.next() % 6) + 2
    let old = (0..<Int(random.next() % 40)).map { _ in "l\(random.next() % UInt64(alphabet))" }
    var new = old
    for _ in 0..<Int(random.next() % 12) {
      let position = new.isEmpty ? 0 : Int(random.next() % UInt64(new.count + 1))
      switch random.next() % 3 {
      case 0: new.insert("l\(random.next() % UInt64(alphabet))", at: position)
      case 1 where position < new.count: new.remove(at: position)
      default: if position < new.count { new[position] = "l\(random.next() % UInt64(alphabet + 2))" }
      }
    }
    let text = { (lines: [String]) in lines.map { $0 + "\n" }.joined() }
    let context = Int(random.next() % 4)
    let output = diff(text(old), text(new), context: context)
    guard old != new else {
      #expect(output == "")
      return
    }
    #expect(try apply(output, to: old) == new, "\(old) → \(new):\n\(output)")
    let changed = output.split(separator: "\n").dropFirst(2).filter { $0.hasPrefix("-") || $0.hasPrefix("+") }.count
    #expect(changed == old.count + new.count - 2 * longestCommonSubsequence(old, new))
  }

  @Test func everyLineChangedInALargeFileIsOneHunkOfRemovalsThenAdditions() throws {
    let old = (0..<20_000).map { "  let value\($0) = \($0)" }
    let new = old.map { $0 + " // changed" }
    let text = { (lines: [String]) in lines.map { $0 + "\n" }.joined() }
    let output = diff(text(old), text(new))
    #expect(output.hasPrefix("--- a\n+++ b\n@@ -1,20000 +1,20000 @@\n-  let value0 = 0\n"))
    #expect(try apply(output, to: old) == new)
  }

  @Test func scrambledSharedLinesStillGiveAPatchThatApplies() throws {
    // Many lines in common in a different order: the search runs into its cost limit and
    // splits where it got, which must still give a correct diff.
    var random = SplitMix64(state: 7)
    let old = (0..<30_000).map { _ in "line \(random.next() % 500)" }
    let new = (0..<30_000).map { _ in "line \(random.next() % 500)" }
    let output = diff(old.map { $0 + "\n" }.joined(), new.map { $0 + "\n" }.joined())
    #expect(try apply(output, to: old) == new)
  }

  /// Applies a unified diff to `old`, checking each hunk's header and context against it.
  func apply(_ diff: String, to old: [String]) throws -> [String] {
    var lines = diff.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2)
    if lines.last == "" { lines.removeLast() }
    var result: [String] = []
    var next = 0
    var hunk: (oldCount: Int, newCount: Int)?
    var seen = (old: 0, new: 0)
    for line in lines {
      if line.hasPrefix("@@ ") {
        try #require(hunk == nil || (seen.old, seen.new) == (hunk!.oldCount, hunk!.newCount), "hunk counts")
        let numbers = line.split { !$0.isNumber }.compactMap { Int($0) }
        try #require(numbers.count == 4, "header \(line)")
        let start = numbers[0] - 1  // eventgen writes the first line 1-based, also for an empty range
        try #require(start >= next, "hunks out of order")
        result += old[next..<start]
        next = start
        hunk = (numbers[1], numbers[3])
        seen = (0, 0)
        continue
      }
      let body = String(line.dropFirst())
      switch line.first {
      case " ":
        try #require(next < old.count && old[next] == body, "context \(body)")
        result.append(body)
        next += 1
        seen.old += 1
        seen.new += 1
      case "-":
        try #require(next < old.count && old[next] == body, "removed \(body)")
        next += 1
        seen.old += 1
      case "+":
        result.append(body)
        seen.new += 1
      default: Issue.record("unexpected line \(line)")
      }
    }
    if let hunk { try #require((seen.old, seen.new) == (hunk.oldCount, hunk.newCount), "last hunk counts") }
    return result + old[next...]
  }

  func longestCommonSubsequence(_ a: [String], _ b: [String]) -> Int {
    var row = [Int](repeating: 0, count: b.count + 1)
    for x in a {
      var diagonal = 0
      for (j, y) in b.enumerated() {
        let above = row[j + 1]
        row[j + 1] = x == y ? diagonal + 1 : max(row[j], above)
        diagonal = above
      }
    }
    return row[b.count]
  }
}
