import Foundation

/// What a child process printed, and how it ended.
public struct ChildProcessResult: Sendable {
  /// The exit status.
  public let status: Int32
  /// Everything written to standard output.
  public let outputData: Data
  /// Everything written to standard error.
  public let errors: String

  /// Standard output as UTF-8 text.
  public var output: String { String(decoding: outputData, as: UTF8.self) }
}

/// Runs `executable` with `arguments` to its end and returns what it printed.
///
/// Standard error goes to a temporary file rather than a second pipe: reading one pipe to its
/// end while the child fills the other would block both.
///
/// - Parameters:
///   - folder: the working directory; the test process's own when nil.
///   - environment: variables added to (or replacing) the test process's environment.
public func runChildProcess(
  _ executable: URL, _ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:]
) throws -> ChildProcessResult {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  if let folder { process.currentDirectoryURL = folder }
  if !environment.isEmpty {
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  }
  let output = Pipe()
  let errors = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).err")
  _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
  defer { try? FileManager.default.removeItem(at: errors) }
  process.standardOutput = output
  process.standardError = try FileHandle(forWritingTo: errors)
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return ChildProcessResult(
    status: process.terminationStatus, outputData: data,
    errors: String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self))
}
