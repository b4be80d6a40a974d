/// A Swift name that a target's eventgen-config.yaml (`names:`) gives a message or a schema of
/// its AsyncAPI documents, for a contract the team cannot edit to add `x-eventgen-name`.
public struct ConfiguredName: Sendable, Hashable {
  /// What it names, written as a `$ref` from the document would be: `#/components/schemas/Audio`,
  /// `#/components/messages/audio`, `#/channels/media/messages/audio` (3.x), or
  /// `schemas/media.json#/definitions/Audio` for a schema of a file the document refers to. A
  /// reference without a file names that pointer in each document of the run that has it.
  public var reference: String
  /// The Swift name of the event or type.
  public var name: String
  /// Where the config gives it, for the diagnostics about it.
  public var location: SourceLocation

  /// Creates a configured name.
  public init(reference: String, name: String, location: SourceLocation) {
    self.reference = reference
    self.name = name
    self.location = location
  }
}
