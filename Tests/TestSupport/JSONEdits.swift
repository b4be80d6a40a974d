/// Random edits of JSON text, for the tests that compare a reader of their own with
/// `JSONDecoder` on inputs near the valid ones.
public enum JSONEdits {
  /// Bytes that matter to JSON's grammar, and a few that break it or UTF-8.
  public static let significant: [UInt8] =
    Array(#"{}[]":,\ 0123456789.eE+-tfnulrsa"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xFF]

  /// Makes one to three random edits to `bytes`: a byte removed, inserted or replaced by one of
  /// ``significant``, or, with `repeatingRuns`, a run of up to 12 bytes repeated. Never leaves
  /// `bytes` empty.
  public static func edit(
    _ bytes: inout [UInt8], repeatingRuns: Bool = true, using random: inout some RandomNumberGenerator
  ) {
    for _ in 0...Int.random(in: 0...2, using: &random) {
      if bytes.isEmpty { bytes = [0x20] }
      let at = Int.random(in: 0..<bytes.count, using: &random)
      switch Int.random(in: 0..<(repeatingRuns ? 4 : 3), using: &random) {
      case 0: bytes.remove(at: at)
      case 1: bytes.insert(significant.randomElement(using: &random) ?? 0, at: at)
      case 2: bytes[at] = significant.randomElement(using: &random) ?? 0
      default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 12)], at: at)
      }
    }
    if bytes.isEmpty { bytes = [0x20] }
  }
}
