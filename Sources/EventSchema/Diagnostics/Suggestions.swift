/// "Did you mean …?" hints for misspelled keys and names.
public enum Suggestions {
  /// The candidate closest to `word`, if it is close enough to be a likely typo.
  public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
    let lowered = word.lowercased()
    var best: (name: String, distance: Int)?
    for candidate in candidates where candidate != word {
      let distance = editDistance(lowered, candidate.lowercased())
      // Allow about one edit in three characters, and always a case-only difference: a hint
      // for a one-letter name would be a guess, not a correction.
      let shorter = min(word.count, candidate.count)
      let limit = max(shorter / 3, shorter >= 2 ? 1 : 0)
      guard distance <= limit else { continue }
      if let current = best, (current.distance, current.name) <= (distance, candidate) { continue }
      best = (candidate, distance)
    }
    return best?.name
  }

  /// `; did you mean `X`?` or nothing.
  public static func hint(for word: String, among candidates: some Sequence<String>) -> String {
    closest(to: word, among: candidates).map { "; did you mean `\($0)`?" } ?? ""
  }

  /// Edit distance counting insertions, deletions, substitutions and swaps of neighbours
  /// (`Itn` → `Int` is one edit), in O(n·m) time and O(m) memory.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
  }
}
