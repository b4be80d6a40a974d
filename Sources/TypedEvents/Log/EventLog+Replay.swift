import Foundation

extension EventLog {
  /// What replaying a log did.
  public struct ReplayReport: Sendable {
    /// How many events were published.
    public var replayed: Int
    /// The lines that were skipped, and why.
    public var problems: [Problem]
  }

  /// Publishes every event of the log after `position`, in order, decoding each through
  /// `catalog`, reading the file as a stream. Lines that do not read or decode (wire names the
  /// catalog does not know, versions newer than this build's, unless `acceptingNewerVersions`)
  /// are skipped and reported; they never stop the replay.
  public func replay(
    into publisher: some EventPublishing, using catalog: EventCatalog, after position: Position? = nil,
    acceptingNewerVersions: Bool = false
  ) throws -> ReplayReport {
    var replayed = 0
    var problems: [Problem] = []
    problems += try scanEnvelopes(after: position, includingUnfinishedLine: true) { line, entry, _ in
      guard let entry else { return true }
      do {
        publisher.publish(try entry.envelope.decode(using: catalog, acceptingNewerVersions: acceptingNewerVersions))
        replayed += 1
      } catch {
        let reason = "\(entry.envelope.name) \(entry.envelope.id): \(error)"
        problems.append(Problem(line: line, position: entry.position, reason: reason))
      }
      return true
    }
    return ReplayReport(replayed: replayed, problems: problems.sorted { $0.position < $1.position })
  }
}
