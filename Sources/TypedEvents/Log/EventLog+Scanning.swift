import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Reading the file line by line: each line's bytes, decoded into an envelope unless the
/// caller can tell what it needs from the bytes alone (a filter's header check, or the lines an
/// append has just written).
extension EventLog {
  /// ``scan(after:includingUnfinishedLine:_:)`` decoding each line: `body` gets the line number,
  /// the entry (nil for a line that is not an envelope, which goes into the returned problems)
  /// and where the next line begins.
  func scanEnvelopes(
    after position: Position?, includingUnfinishedLine: Bool, _ body: (Int, Entry?, Position) throws -> Bool
  ) throws -> [Problem] {
    try scanLines(after: position, includingUnfinishedLine: includingUnfinishedLine, shortcut: nil) {
      line, scanned, end in
      guard case .envelope(let entry) = scanned else { return try body(line, nil, end) }
      return try body(line, entry, end)
    }
  }

  /// A line as ``scanLines(after:includingUnfinishedLine:shortcut:_:)`` gives it.
  enum ScannedLine {
    /// A line the scan passed over without decoding it.
    case passedOver
    /// A line that is not an envelope: it is among the scan's problems.
    case unreadable
    case envelope(Entry)
  }

  /// What a scan's caller can tell of a line from its bytes, without decoding them.
  enum LineShortcut {
    /// A line the caller does not want.
    case passOver
    /// A line whose envelope the caller has: the bytes are those it wrote for it.
    case known(EventEnvelope)
  }

  /// ``scanEnvelopes(after:includingUnfinishedLine:_:)`` that first asks `shortcut` of each
  /// line's bytes, and decodes only a line it has no answer for.
  func scanLines(
    after position: Position?, includingUnfinishedLine: Bool, shortcut: ((Data) -> LineShortcut?)?,
    _ body: (Int, ScannedLine, Position) throws -> Bool
  ) throws -> [Problem] {
    var problems: [Problem] = []
    try scan(after: position, includingUnfinishedLine: includingUnfinishedLine) { line, start, bytes, finished in
      let end = Position(offset: start.offset + Int64(bytes.count) + 1)
      switch shortcut?(bytes) {
      case .passOver: return try body(line, .passedOver, end)
      case .known(let envelope): return try body(line, .envelope(Entry(position: start, envelope: envelope)), end)
      case nil: break
      }
      let scanned: ScannedLine
      do {
        scanned = .envelope(Entry(position: start, envelope: try Self.envelope(from: bytes)))
      } catch {
        let reason = finished ? "\(error)" : "torn last line (the writer stopped mid-line): \(error)"
        problems.append(Problem(line: line, position: start, reason: reason))
        scanned = .unreadable
      }
      return try body(line, scanned, end)
    }
    return problems
  }

  /// Reads the file after `position` in 64 KiB blocks and calls `body` with each non-empty line:
  /// its number counted from `position`, where it begins, its bytes and whether it ended with a
  /// newline. `body` returns false to stop.
  private func scan(
    after position: Position?, includingUnfinishedLine: Bool,
    _ body: (Int, Position, Data, Bool) throws -> Bool
  ) throws {
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return }
      throw failure("cannot open the log")
    }
    defer { close(descriptor) }
    var offset = position?.offset ?? 0
    var pending = Data()  // the start of a line whose end is not read yet
    var pendingStart = offset
    var line = 0
    var block = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = block.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure("cannot read the log")
      }
      if count == 0 { break }
      var lineStart = 0
      for index in 0..<count where block[index] == 0x0A {
        pending.append(contentsOf: block[lineStart..<index])
        line += 1
        if !pending.isEmpty {
          guard try body(line, Position(offset: pendingStart), pending, true) else { return }
        }
        pending.removeAll(keepingCapacity: true)
        lineStart = index + 1
        pendingStart = offset + Int64(lineStart)
      }
      pending.append(contentsOf: block[lineStart..<count])
      offset += Int64(count)
    }
    if includingUnfinishedLine && !pending.isEmpty {
      _ = try body(line + 1, Position(offset: pendingStart), pending, false)
    }
  }
}
