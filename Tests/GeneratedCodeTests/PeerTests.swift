import EdgeCaseEvents
import Foundation
import SampleEvents
import TestSupport
import Testing
import TypedEvents

/// What this package writes, read by peers nobody here wrote, and what they write, read here.
@Suite("Peers: timestamps read by a JVM and by Python")
struct PeerTests {
  /// 100,000 random dates from 1970 to 2100 and the edge cases, as timestamps.
  static let timestamps: [(date: Date, text: String)] = {
    var random = SplitMix64(state: 0x1970_2100_0A0A)
    var intervals = [
      -978_307_200.0, 0, 1, -1, 0.5, -0.5, 8_388_608, -8_388_608, 3_155_759_999.999999, 785_000_000.123456,
      785_000_000.1234567, -978_307_199.000001, 1_000_000_000.000000001,
    ]
    for _ in 0..<100_000 {
      intervals.append(Double(random.next() >> 11) / Double(1 << 53) * 4_134_067_200 - 978_307_200)
    }
    return intervals.compactMap { interval in
      let date = Date(timeIntervalSinceReferenceDate: interval)
      return EventTimestamp.string(from: date).map { (date, $0) }
    }
  }()

  /// The digits after the point of a timestamp.
  static func fractionDigits(_ text: String) -> Substring {
    guard let dot = text.firstIndex(of: ".") else { return "" }
    return text[text.index(after: dot)..<text.index(before: text.endIndex)]
  }

  @Test(.enabled(if: Peers.java != nil, Peers.javaMissing))
  func javaInstantParseReadsEveryTimestampOfAtMostNineDigits() async throws {
    let lines = try await Peers.lines(
      Self.timestamps.map(\.text), through: try #require(Peers.java), script: "InstantParse.java")
    try #require(lines.count == Self.timestamps.count)
    var refused = 0
    for ((date, text), line) in zip(Self.timestamps, lines) {
      let digits = Self.fractionDigits(text)
      guard digits.count <= 9 else {
        // The documented window within 97 days of 2001: a 9-digit reader refuses these.
        #expect(abs(date.timeIntervalSinceReferenceDate) < 8_388_608, "\(text)")
        #expect(line.hasPrefix("error"), "\(text): \(line)")
        refused += 1
        continue
      }
      let parts = line.split(separator: " ")
      guard parts.count == 2, let seconds = Int64(parts[0]), let nanos = Int64(parts[1]) else {
        Issue.record("Instant.parse refused \(text): \(line)")
        continue
      }
      // Instant keeps the digits as they are: the seconds and the nanoseconds of the text.
      let whole = Int64(date.timeIntervalSince1970.rounded(.down))
      #expect(seconds == whole, "\(text)")
      #expect(nanos == Int64(digits.padding(toLength: 9, withPad: "0", startingAt: 0)) ?? -1, "\(text)")
    }
    #expect(refused < Self.timestamps.count / 200)
  }

  @Test(.enabled(if: Peers.python != nil, Peers.pythonMissing))
  func pythonFromisoformatReadsEveryTimestampToTheMicrosecond() async throws {
    let lines = try await Peers.lines(
      Self.timestamps.map(\.text), through: try #require(Peers.python), script: "fromisoformat.py")
    try #require(lines.count == Self.timestamps.count)
    for ((date, text), line) in zip(Self.timestamps, lines) {
      guard let micros = Int64(line) else {
        Issue.record("fromisoformat refused \(text): \(line)")
        continue
      }
      // Python truncates to the microsecond.
      let exact = date.timeIntervalSince1970 * 1_000_000
      #expect(abs(Double(micros) - exact) <= 1.0, "\(text) → \(micros)")
    }
  }
}
