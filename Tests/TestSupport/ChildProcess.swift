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
///   - timeLimit: seconds after which the child is sent SIGTERM (and SIGKILL 10 seconds later)
///     and the result says ``ChildProcessResult/timedOut``; none when nil. Cancelling the
///     calling task ends the child the same way.
public func runChildProcess(
  _ executable: URL, _ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:],
  timeLimit: TimeInterval? = nil
) async throws -> ChildProcessResult {
  let child = try PreparedChild(executable, arguments, in: folder, environment: environment)
  defer { child.removeFiles() }
  let state = ChildState(child.process)
  let process = child.process
  try await withTaskCancellationHandler {
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
        DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit) { state.stop(timedOut: true) }
      }
    }
  } onCancel: {
    // A test's own time limit cancels it: the child goes too.
    state.stop(timedOut: false)
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
  private let process: Process
  private var finished = false
  private var terminated = false

  init(_ process: Process) {
    self.process = process
  }

  func finish() { lock.withLock { finished = true } }

  /// Sends SIGTERM (a hung main thread does not stop a signal), then SIGKILL 10 seconds later to
  /// a child that handles the first, unless the child has ended: Foundation's `isRunning` turns
  /// false once it has reaped the child, before it reports the end, so a pid that another
  /// process may have taken since is never signalled. A child that leads its own process group
  /// has the group signalled, so that what a wrapper (`strace`, `sh -c`) started ends too.
  func stop(timedOut: Bool) {
    guard signal(SIGTERM, timedOut: timedOut) else { return }
    DispatchQueue.global().asyncAfter(deadline: .now() + 10) { _ = self.signal(SIGKILL, timedOut: timedOut) }
  }

  private func signal(_ number: Int32, timedOut: Bool) -> Bool {
    lock.withLock {
      guard !finished, process.isRunning else { return false }
      if timedOut { terminated = true }
      let pid = process.processIdentifier
      if getpgid(pid) == pid { kill(-pid, number) }
      kill(pid, number)
      return true
    }
  }

  var timedOut: Bool { lock.withLock { terminated } }
}
