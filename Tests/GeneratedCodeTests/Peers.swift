import Foundation
import TestSupport
import Testing

/// Programs nobody here wrote that tests run as peers: the CloudEvents Python SDK, Python's
/// `jsonschema` and asyncapi-python's code generator in a virtual environment that
/// `Scripts/peers/setup` makes under `.build/`, and a JVM's `java.time.Instant.parse`. A test that needs one is skipped, with the reason printed,
/// where it is missing; `.ci/run` runs the setup first, so none is skipped there.
enum Peers {
  /// The package's root folder.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The virtual environment's Python, from `TYPEDEVENTS_PEER_PYTHON` or `.build/peers-venv`.
  static let python: URL? = {
    let path =
      ProcessInfo.processInfo.environment["TYPEDEVENTS_PEER_PYTHON"]
      ?? root.appendingPathComponent(".build/peers-venv/bin/python").path
    return FileManager.default.isExecutableFile(atPath: path) ? URL(fileURLWithPath: path) : nil
  }()

  static let pythonMissing: Comment =
    "the peers' Python environment is missing: run Scripts/peers/setup (it pip-installs the CloudEvents SDK, jsonschema and asyncapi-python into .build/peers-venv)"

  /// `java` on the PATH (JDK 11 or later runs a single source file).
  static let java: URL? = {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("java")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }()

  static let javaMissing: Comment = "no java on the PATH: apt-get install -y openjdk-17-jdk-headless"

  /// A script of `Scripts/peers/`.
  static func script(_ name: String) -> String {
    root.appendingPathComponent("Scripts/peers/\(name)").path
  }

  /// Runs `executable` with `arguments` (and `environment` added to this process's) and returns
  /// its standard output; throws with its standard error when it exits non-zero.
  static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) async throws -> Data {
    let result = try await runChildProcess(executable, arguments, environment: environment)
    guard result.status == 0 else {
      throw PeerFailure(
        description: "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) exited "
          + "\(result.status): \(result.errors)")
    }
    return result.outputData
  }

  /// Feeds `lines` to a peer's `script` run by `interpreter` on its standard input and returns
  /// the lines it prints.
  static func lines(_ lines: [String], through interpreter: URL, script: String) async throws -> [Substring] {
    let input = try temporaryFile(Data((lines.joined(separator: "\n") + "\n").utf8), suffix: ".txt")
    defer { try? FileManager.default.removeItem(at: input) }
    let output = try await run(
      URL(fileURLWithPath: "/bin/sh"),
      ["-c", "\"$0\" \"$1\" < \"$2\"", interpreter.path, Self.script(script), input.path])
    return String(decoding: output, as: UTF8.self).split(separator: "\n")
  }

  /// Runs a peer's `script` by `interpreter` with `arguments`, `input` on its standard input,
  /// and returns the lines it prints.
  static func lines(
    of script: String, _ arguments: [String], input: String, through interpreter: URL
  ) async throws -> [Substring] {
    let inputFile = try temporaryFile(Data(input.utf8), suffix: ".txt")
    defer { try? FileManager.default.removeItem(at: inputFile) }
    let output = try await run(
      URL(fileURLWithPath: "/bin/sh"),
      ["-c", "\"$0\" \"$@\" < \"$INPUT\"", interpreter.path, Self.script(script)] + arguments,
      environment: ["INPUT": inputFile.path])
    return String(decoding: output, as: UTF8.self).split(separator: "\n")
  }

  /// A temporary file holding `data`.
  static func temporaryFile(_ data: Data, suffix: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("peer-\(UUID().uuidString)\(suffix)")
    try data.write(to: url)
    return url
  }
}

struct PeerFailure: Error, CustomStringConvertible {
  var description: String
}
