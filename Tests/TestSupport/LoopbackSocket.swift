import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A plain TCP socket connected to 127.0.0.1:`port`, for tests that speak to a server byte by
/// byte where an HTTP client would not: a slow body, a huge header, a reader that reads nothing.
///
/// - Parameters:
///   - receiveBuffer: the socket's receive buffer, when the test wants it small.
///   - timeoutSeconds: how long a read waits before it gives up.
/// - Returns: the socket's descriptor; the caller closes it.
public func connectLoopback(port: Int, receiveBuffer: Int32? = nil, timeoutSeconds: Int = 30) throws -> Int32 {
  #if canImport(Glibc)
    let stream = Int32(SOCK_STREAM.rawValue)
  #else
    let stream = SOCK_STREAM
  #endif
  let descriptor = socket(AF_INET, stream, 0)
  guard descriptor >= 0 else { throw LoopbackError("socket: errno \(errno)") }
  if var size = receiveBuffer {
    setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
  }
  var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
  setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
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
    throw LoopbackError("connect to \(port): errno \(errno)")
  }
  return descriptor
}

/// Why ``connectLoopback(port:receiveBuffer:timeoutSeconds:)`` failed.
public struct LoopbackError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
