#if HTTPServer
  import HummingbirdCore
  import NIOCore
  import TypedEvents

  /// What a stream or a page has written that its connection has not yet handed to the
  /// socket, as ``FlushMarker``s tell: shared by a stream, which waits for room before it writes
  /// more, and its watchdog, which ends a stream whose client takes nothing, or whose writes
  /// keep alive events the feed has dropped. A page waits until all is sent before it gives its
  /// share of the read budget back.
  final class UnflushedWrites: Sendable {
    /// A piece written: its marker, its size, the feed batch whose buffer it is a slice of (nil
    /// for a buffer of the stream's own), and the share of the read budget that the bytes it
    /// ends hold (given back when the piece is flushed).
    struct Piece {
      var marker: FlushMarker
      var bytes: Int
      var batch: Int?
      var grant: ReadBudget.Grant?
    }

    /// Cuts `buffers` into pieces of at most 64 KiB (slices, not copies), each followed by its
    /// ``FlushMarker``'s tail: write `parts` in order, in one write, and then ``add(_:)`` the
    /// pieces, the last holding `grant` (if any) until it is flushed.
    static func cut(
      _ buffers: [(bytes: ByteBuffer, batch: Int?)], grant: ReadBudget.Grant? = nil
    ) -> (parts: [ByteBuffer], pieces: [Piece]) {
      var parts: [ByteBuffer] = []
      var pieces: [Piece] = []
      for buffer in buffers {
        var bytes = buffer.bytes
        while bytes.readableBytes > 0, var piece = bytes.readSlice(length: min(bytes.readableBytes, 64 * 1024)) {
          let size = piece.readableBytes
          let (tail, marker) = FlushMarker.split(&piece)
          if piece.readableBytes > 0 { parts.append(piece) }
          parts.append(tail)
          pieces.append(Piece(marker: marker, bytes: size, batch: buffer.batch))
        }
      }
      if let last = pieces.indices.last, let grant {
        pieces[last].grant = grant
        grant.release(whenFlushed: pieces[last].marker)
      }
      return (parts, pieces)
    }

    private struct State {
      var pieces: [Piece] = []
      var head = 0
      var bytes = 0
      /// When a piece was last flushed, or the first one written after none was pending.
      var lastProgress = ContinuousClock.now

      /// Drops the pieces flushed: every piece up to the last whose marker is gone, as a
      /// connection writes in order.
      mutating func prune() -> [ReadBudget.Grant] {
        guard let last = pieces[head...].lastIndex(where: { $0.marker.isFlushed }) else { return [] }
        var grants: [ReadBudget.Grant] = []
        for index in head...last {
          bytes -= pieces[index].bytes
          if let grant = pieces[index].grant { grants.append(grant) }
          pieces[index].grant = nil
        }
        head = last + 1
        if head == pieces.count {
          pieces = []
          head = 0
        } else if head > 64 {
          pieces.removeFirst(head)
          head = 0
        }
        lastProgress = .now
        return grants
      }
    }

    private let state = Locked(State())

    /// Writes `buffers` in one write, cut as ``cut(_:grant:)`` cuts them, and records the
    /// pieces. A function of its own: nothing of what it wrote outlives it here, so the markers
    /// can tell when the connection lets go of them.
    func write(
      _ buffers: [(bytes: ByteBuffer, batch: Int?)], grant: ReadBudget.Grant? = nil,
      to writer: inout any ResponseBodyWriter
    ) async throws {
      let (parts, pieces) = Self.cut(buffers, grant: grant)
      guard !parts.isEmpty else { return }
      // Recorded first: a write that waits for room in the connection holds them already.
      add(pieces)
      try await writer.write(contentsOf: parts)
    }

    /// Records pieces just handed to the connection.
    func add(_ pieces: [Piece]) {
      state.withLock { state in
        if state.pieces.count == state.head { state.lastProgress = .now }
        state.pieces += pieces
        state.bytes += pieces.reduce(0) { $0 + $1.bytes }
      }
    }

    /// The bytes written and not yet flushed, the oldest feed batch they are slices of, and
    /// how long ago the connection last took a piece (zero when none is pending).
    func pending() -> (bytes: Int, oldestBatch: Int?, waiting: Duration) {
      let (result, grants) = state.withLock { state in
        let grants = state.prune()
        let pending = state.pieces[state.head...]
        let waiting = pending.isEmpty ? Duration.zero : ContinuousClock.now - state.lastProgress
        return ((state.bytes, pending.compactMap(\.batch).min(), waiting), grants)
      }
      // Given back outside the lock: the budget resumes its waiters.
      withExtendedLifetime(grants) {}
      return result
    }

    /// Returns once fewer than `bytes` are pending. It looks every millisecond at first, and
    /// less often the longer the client takes (at most every 100 ms). Throws when cancelled, and
    /// ``StalledClient`` when given a `timeout` that passes without the connection sending a
    /// piece.
    func waitUntilBelow(_ bytes: Int, timeout: Duration? = nil) async throws {
      var delay = Duration.milliseconds(1)
      while true {
        let pending = pending()
        if pending.bytes < bytes { return }
        if let timeout, pending.waiting > timeout { throw StalledClient(timeout: timeout) }
        try await Task.sleep(for: delay)
        delay = min(delay * 2, .milliseconds(100))
      }
    }
  }
#endif
