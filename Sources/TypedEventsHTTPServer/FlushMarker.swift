#if HTTPServer
  import NIOCore

  /// Tells when a connection has handed a piece a stream wrote to its socket.
  ///
  /// Hummingbird's body writer returns once NIO has queued a write, not once the socket took
  /// it, and it gives no signal when that happens: a stream whose client reads nothing would go
  /// on queueing, and keep alive every buffer it queued. But NIO writes a connection's buffers in
  /// order and lets go of each once the socket took it (or the connection closed). So a stream
  /// writes the last bytes of each piece from a buffer of their own, referenced by nothing else,
  /// and watches that buffer's storage through a weak reference: once the storage is gone, so is
  /// everything the stream wrote before it.
  struct FlushMarker: @unchecked Sendable {
    // Unchecked: the reference is only loaded to compare with nil (weak loads are atomic),
    // never used to reach the object, which NIO owns.
    private weak let storage: AnyObject?

    /// How many bytes at the end of a piece go into the marker's buffer.
    static let tailBytes = 64

    /// Splits the last bytes of `piece` into a buffer of their own, the marker's: write `piece`
    /// and then the returned tail, and drop both.
    static func split(_ piece: inout ByteBuffer) -> (tail: ByteBuffer, marker: FlushMarker) {
      let count = min(piece.readableBytes, tailBytes)
      let bytes = piece.getBytes(at: piece.writerIndex - count, length: count) ?? []
      piece.moveWriterIndex(to: piece.writerIndex - count)
      // A new buffer: its storage is this marker's alone.
      var tail = ByteBufferAllocator().buffer(capacity: max(count, 1))
      tail.writeBytes(bytes)
      let storage = tail.withUnsafeReadableBytesWithStorageManagement { _, storage in
        storage.takeUnretainedValue()
      }
      return (tail, FlushMarker(storage: storage))
    }

    private init(storage: AnyObject) {
      self.storage = storage
    }

    /// Whether nothing holds the tail's storage any more: the socket took it and all written
    /// before it, or the connection closed.
    var isFlushed: Bool { storage == nil }
  }
#endif
