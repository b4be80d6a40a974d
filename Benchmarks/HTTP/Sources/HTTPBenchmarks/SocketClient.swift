import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An HTTP/1.1 client as lean as a load generator: one kept-alive connection, a request written
/// with one `write` from bytes made beforehand, the answer read with blocking `read`s until its
/// `Content-Length` is in, all on a thread of its own. What it costs is what `wrk` or a client
/// on another machine would cost the server's machine: next to nothing. AsyncHTTPClient in the
/// same process costs about as much CPU as the server's own side of the exchange, on the same
/// two cores, and its hand-overs between threads come on top.
final class SocketClient: @unchecked Sendable {
  private let descriptor: Int32

  /// Connects to 127.0.0.1:`port`.
  init(port: Int) throws {
    descriptor = try connectToLoopback(port: port)
    // As AsyncHTTPClient does: a request is not held back waiting for the previous one's ACK.
    var on: Int32 = 1
    setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
  }

  deinit { close(descriptor) }

  /// The bytes of a POST of `body` to `path`, made once, before any timing.
  static func request(path: String, contentType: String, body: Data) -> [UInt8] {
    let head =
      "POST /\(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(contentType)\r\n"
      + "Content-Length: \(body.count)\r\n\r\n"
    return Array(head.utf8) + Array(body)
  }

  /// Sends `request` and reads the whole answer, on a thread of its own: the time from the
  /// first byte written to the last byte read, and the status.
  func exchange(_ request: [UInt8]) async throws -> (time: Duration, status: Int) {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try self.exchangeBlocking(request) }) }.start()
    }
  }

  /// Sends each of `requests` in turn, each after the answer to the one before, on one thread
  /// of its own, and returns the answers' statuses.
  func exchange(all requests: [[UInt8]]) async throws -> [Int] {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try requests.map { try self.exchangeBlocking($0).status } }) }.start()
    }
  }

  private func exchangeBlocking(_ request: [UInt8]) throws -> (time: Duration, status: Int) {
    let start = ContinuousClock.now
    try request.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress else { return }
      var sent = 0
      while sent < bytes.count {
        let result = write(descriptor, base + sent, bytes.count - sent)
        guard result > 0 else { throw BenchmarkError("write: \(String(cString: strerror(errno)))") }
        sent += result
      }
    }
    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    var headEnd: Int?
    var total: Int?
    while total.map({ answer.count < $0 }) ?? true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { throw BenchmarkError("the server closed the connection mid-answer") }
      answer.append(contentsOf: chunk[0..<count])
      if headEnd == nil, let end = Self.headEnd(answer) {
        headEnd = end
        let head = String(decoding: answer[0..<end], as: UTF8.self).lowercased()
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
          let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        else { throw BenchmarkError("an answer without Content-Length: \(head)") }
        total = end + length
      }
    }
    let time = ContinuousClock.now - start
    let statusLine = String(decoding: answer.prefix(while: { $0 != 0x0D }), as: UTF8.self)
    guard answer.count == total, let status = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { throw BenchmarkError("not an HTTP answer, or more than one: \(statusLine)") }
    return (time, status)
  }

  /// Where the head of an answer ends: after its blank line.
  private static func headEnd(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    for index in 0...(bytes.count - 4)
    where bytes[index] == 0x0D && bytes[index + 1] == 0x0A && bytes[index + 2] == 0x0D && bytes[index + 3] == 0x0A {
      return index + 4
    }
    return nil
  }
}

/// A TCP socket connected to 127.0.0.1:`port`; the caller closes it.
func connectToLoopback(port: Int) throws -> Int32 {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard descriptor >= 0 else { throw BenchmarkError("socket: errno \(errno)") }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard connected == 0 else {
    close(descriptor)
    throw BenchmarkError("cannot connect to 127.0.0.1:\(port): errno \(errno)")
  }
  return descriptor
}
