/// Problems reading or writing an event log or store.
public enum EventLogError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The catalog has no event type of this wire name.
  case unknownEvent(String)
  /// The envelope was written by a newer version of the schema than this build knows.
  case newerVersion(name: String, version: Int, known: Int)
  /// The file could not be opened or written.
  case io(path: String, reason: String)
  /// A line or an envelope is not an event envelope.
  case malformed(String)

  public var description: String {
    switch self {
    case .unknownEvent(let name): return "no event type named \(name) in the catalog"
    case .newerVersion(let name, let version, let known):
      return "\(name) version \(version) is newer than version \(known) that this build knows"
    case .io(let path, let reason): return "\(path): \(reason)"
    case .malformed(let reason): return reason
    }
  }
}
