#if HTTPServer
  /// What a request's `Accept` fields take, by RFC 9110's rules (section 12.5.1): media ranges
  /// separated by commas, each with an optional weight `q` from 0 to 1; a type takes the weight of
  /// the most specific range that matches it (`text/event-stream`, then `text/*`, then `*/*`),
  /// and a weight of 0, or no range that matches, means not acceptable.
  struct Acceptance {
    /// The ranges: type and subtype in lower case (`*` for a wildcard), and weight.
    private var ranges: [(type: Substring, subtype: Substring, weight: Double)] = []

    /// The ranges of `fields`, the values of every `Accept` field; none is `*/*`. A range whose
    /// weight is no number from 0 to 1 is left out.
    init(_ fields: [String]) {
      let text = fields.joined(separator: ",").lowercased()
      for range in text.split(separator: ",") {
        var parts = range.split(separator: ";")
        guard !parts.isEmpty else { continue }
        let mediaRange = parts.removeFirst().trimmingSpaces
        let halves = mediaRange.split(separator: "/", maxSplits: 1)
        guard halves.count == 2, !halves[0].isEmpty, !halves[1].isEmpty else { continue }
        var weight = 1.0
        var valid = true
        for parameter in parts {
          let pair = parameter.split(separator: "=", maxSplits: 1)
          guard pair.count == 2, pair[0].trimmingSpaces == "q" else { continue }
          guard let value = Double(pair[1].trimmingSpaces), value >= 0, value <= 1 else {
            valid = false
            break
          }
          weight = value
        }
        if valid { ranges.append((halves[0], halves[1], weight)) }
      }
      if fields.isEmpty { ranges = [("*", "*", 1)] }
    }

    /// The weight the request gives `mediaType` (a type and subtype in lower case), and how
    /// specifically a range named it: 2 for the type itself, 1 for `type/*`, 0 for `*/*`; a
    /// weight of 0 when no range matches.
    func weight(of mediaType: String) -> (weight: Double, specificity: Int) {
      let halves = mediaType.split(separator: "/", maxSplits: 1)
      var best: (weight: Double, specificity: Int) = (0, -1)
      for range in ranges {
        let specificity: Int
        if range.type == halves[0] && range.subtype == halves[1] {
          specificity = 2
        } else if range.type == halves[0] && range.subtype == "*" {
          specificity = 1
        } else if range.type == "*" && range.subtype == "*" {
          specificity = 0
        } else {
          continue
        }
        if specificity > best.specificity { best = (range.weight, specificity) }
      }
      return (best.weight, max(best.specificity, 0))
    }

    /// Which of `preferred` and `other` the request takes: the one of higher weight; at equal
    /// weights, the one a range names more specifically, and `preferred` when both are named
    /// alike and by their own names. Nil when it takes neither.
    func choose(_ preferred: String, over other: String) -> String? {
      let first = weight(of: preferred)
      let second = weight(of: other)
      guard first.weight > 0 || second.weight > 0 else { return nil }
      if first.weight != second.weight { return first.weight > second.weight ? preferred : other }
      if first.specificity != second.specificity { return first.specificity > second.specificity ? preferred : other }
      return first.specificity == 2 ? preferred : other
    }
  }

  extension Substring {
    /// Without the spaces and tabs at either end.
    fileprivate var trimmingSpaces: Substring {
      var text = self
      while text.first == " " || text.first == "\t" { text.removeFirst() }
      while text.last == " " || text.last == "\t" { text.removeLast() }
      return text
    }
  }
#endif
