import ArgumentParser
import EventGenDriver
import Foundation

struct Init: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Start a target of events: a starter schema, the Swift file the target needs, a config.",
    discussion: """
      Writes <folder>/<Name>.events.yaml (an example of every construct of the format, \
      commented), <folder>/<Name>.swift (SwiftPM builds a target, and runs its plugins, only when \
      its folder holds a Swift file) and <folder>/eventgen-config.yaml, where <Name> is the \
      folder's name; then prints the lines to add to Package.swift. Refuses to overwrite: if any \
      of the files exists, nothing is written.

      Example:
        eventgen init Sources/AppEvents
      """
  )

  @Argument(help: "The target's folder, such as Sources/AppEvents; created if missing.")
  var folder: String

  func run() throws {
    let files = Starter.files(inFolder: folder)
    try Starter.write(files)
    let lines = Starter.packageLines(forFolder: folder, version: EventGen.packageVersion)
    let indented = { (text: String, depth: Int) in
      text.split(separator: "\n", omittingEmptySubsequences: false).map { String(repeating: " ", count: depth) + $0 }
        .joined(separator: "\n")
    }
    print(
      """
      eventgen: created \(files.map(\.path).map(TargetFolders.displayPath).joined(separator: ", "))

      Add to Package.swift, in `dependencies:`
      \(indented(lines.dependency, 2))
      and in `targets:`
      \(indented(lines.target, 2))
      then `swift build`: the build-tool plugin generates the events. libyaml must be installed where \
      it runs (apt-get install -y libyaml-dev, or brew install libyaml). App code imports \
      \(Starter.targetName(ofFolder: folder)) and TypedEvents.
      """)
  }
}
