import Foundation
import TestSupport
import Testing

/// The time limit of `runChildProcess`, which the scenario tests rely on to turn a hang into a
/// failure.
@Suite("Child processes past their time limit")
struct ChildProcessTests {
  @Test func aChildPastItsTimeLimitIsEndedAndSaysSo() async throws {
    let started = ContinuousClock.now
    let run = try await runChildProcess(URL(fileURLWithPath: "/bin/sleep"), ["60"], timeLimit: 0.5)
    #expect(run.timedOut)
    // SIGTERM, or SIGKILL where the child inherits SIGTERM blocked (it does under `swift test`).
    #expect(run.status == SIGTERM || run.status == SIGKILL)
    #expect(ContinuousClock.now - started < .seconds(30))
  }

  @Test func aChildThatIgnoresSIGTERMIsKilled() async throws {
    let started = ContinuousClock.now
    let run = try await runChildProcess(
      URL(fileURLWithPath: "/bin/sh"), ["-c", "trap '' TERM; while :; do sleep 0.1; done"], timeLimit: 0.5)
    #expect(run.timedOut)
    #expect(run.status == SIGKILL)
    #expect(ContinuousClock.now - started < .seconds(40))
  }

  @Test func aChildWithinItsTimeLimitIsNotTimedOut() async throws {
    let run = try await runChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo done"], timeLimit: 30)
    #expect(!run.timedOut)
    #expect(run.status == 0)
    #expect(run.output == "done\n")
  }
}
