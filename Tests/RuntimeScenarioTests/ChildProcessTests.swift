import Foundation
import TestSupport
import Testing

/// The time limit of `runChildProcess`, which the scenario tests rely on to turn a hang into a
/// failure. Without it these children never end, and the suite's own limit fails them; no
/// wall-clock bound here, as a test's clock also counts the time the shared pool was busy with
/// other tests.
@Suite("Child processes past their time limit", .timeLimit(.minutes(5)))
struct ChildProcessTests {
  @Test func aChildPastItsTimeLimitIsEndedAndSaysSo() async throws {
    let run = try await runChildProcess(URL(fileURLWithPath: "/bin/sleep"), ["600"], timeLimit: 0.5)
    #expect(run.timedOut)
    // SIGTERM, or SIGKILL where the child inherits SIGTERM blocked (it does under `swift test`).
    #expect(run.status == SIGTERM || run.status == SIGKILL)
  }

  @Test func aChildThatIgnoresSIGTERMIsKilled() async throws {
    let run = try await runChildProcess(
      URL(fileURLWithPath: "/bin/sh"), ["-c", "trap '' TERM; while :; do sleep 0.1; done"], timeLimit: 0.5)
    #expect(run.timedOut)
    #expect(run.status == SIGKILL)
  }

  @Test func aChildWithinItsTimeLimitIsNotTimedOut() async throws {
    let run = try await runChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo done"], timeLimit: 30)
    #expect(!run.timedOut)
    #expect(run.status == 0)
    #expect(run.output == "done\n")
  }
}
