import Foundation

/// What a child process printed, and how it ended.
public struct ChildProcessResult: Sendable {
  /// The exit status (the signal's number when a signal ended it).
  public let status: Int32
  /// Everything written to standard output.
  public let outputData: Data
  /// Everything written to standard error.
  public let errors: String
  /// Whether the process outlived its time limit and was terminated.
  public let timedOut: Bool

  /// Standard output as UTF-8 text.
  public var output: String { String(decoding: outputData, as: UTF8.self) }
}

/// Runs `executable` with `arguments` to its end and returns what it printed.
///
/// The caller's task is suspended, not blocked, while the child runs: a test that blocked a
/// thread of the shared pool for as long as a child runs (a minute, for some) would hold up
/// every other test's tasks on a two-core machine, whose pool has two threads.
///
/// Standard output and standard error go to temporary files, read once the child has exited, so
/// no thread has to drain a pipe while the child writes.
///
/// - Parameters:
///   - folder: the working directory; the test process's own when nil.
///   - environment: variables added to (or replacing) the test process's environment.
///   - timeLimit: seconds after which the child is sent SIGTERM and the result says
///     ``ChildProcessResult/timedOut``; none when nil.
public func runChildProcess(
  _ executable: URL, _ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:],
  timeLimit: TimeInterval? = nil
) async throws -> ChildProcessResult {
  let child = try PreparedChild(executable, arguments, in: folder, environment: environment)
  defer { child.removeFiles() }
  let state = ChildState()
  let process = child.process
  try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
    process.terminationHandler = { _ in
      state.finish()
      continuation.resume()
    }
    do {
      try process.run()
    } catch {
      process.terminationHandler = nil
      continuation.resume(throwing: error)
      return
    }
    if let timeLimit {
      let pid = process.processIdentifier
      // SIGTERM: a hung main thread does not stop a signal.
      DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit) { state.terminateIfRunning(pid) }
    }
  }
  return child.result(timedOut: state.timedOut)
}

/// Runs `executable` with `arguments` to its end on the calling thread, for a test's condition
/// trait (whether a peer is installed), which cannot await. Tests await ``runChildProcess(_:_:in:environment:timeLimit:)``.
public func runChildProcessBlocking(_ executable: URL, _ arguments: [String]) throws -> ChildProcessResult {
  let child = try PreparedChild(executable, arguments, in: nil, environment: [:])
  defer { child.removeFiles() }
  try child.process.run()
  child.process.waitUntilExit()
  return child.result(timedOut: false)
}

/// A `Process` whose standard output and error go to temporary files.
private struct PreparedChild {
  let process = Process()
  let output: URL
  let errors: URL

  init(_ executable: URL, _ arguments: [String], in folder: URL?, environment: [String: String]) throws {
    process.executableURL = executable
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let stem = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
    output = stem.appendingPathExtension("out")
    errors = stem.appendingPathExtension("err")
    for file in [output, errors] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = try FileHandle(forWritingTo: errors)
  }

  func result(timedOut: Bool) -> ChildProcessResult {
    ChildProcessResult(
      status: process.terminationStatus, outputData: (try? Data(contentsOf: output)) ?? Data(),
      errors: String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self), timedOut: timedOut)
  }

  func removeFiles() {
    for file in [output, errors] { try? FileManager.default.removeItem(at: file) }
  }
}

/// Whether the child has ended, and whether its time limit ended it.
private final class ChildState: @unchecked Sendable {
  private let lock = NSLock()
  private var finished = false
  private var terminated = false

  func finish() { lock.withLock { finished = true } }

  /// Sends SIGTERM unless the child's end has been reported (under the lock that `finish()`
  /// takes, so the two cannot interleave).
  func terminateIfRunning(_ pid: Int32) {
    lock.withLock {
      guard !finished else { return }
      terminated = true
      kill(pid, SIGTERM)
    }
  }

  var timedOut: Bool { lock.withLock { terminated } }
}
