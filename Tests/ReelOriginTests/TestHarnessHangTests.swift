import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ReelTestSupport
import Testing

/// The harness never lets a hang hold the test run: a command past its time limit is killed
/// with its stacks taken, a server that never answers ends a request at the client's deadline,
/// and `make test`'s watchdog stops a silent run with every process's stacks (exit 124).
@Suite("test harness: a hang fails, saying where, instead of holding the run", .serialized)
struct TestHarnessHangTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("a command still running at its time limit is killed, and the result says so with its threads' stacks")
    func aCommandPastItsLimitIsKilledWithItsStacks() throws {
        let started = ContinuousClock.now
        let hung = try Subprocess.run("/bin/sleep", ["30"], timeLimit: .seconds(1))
        #expect(ContinuousClock.now - started < .seconds(25), "killed long before sleep would end")
        #expect(hung.timedOut && hung.status != 0)
        #expect(hung.stderr.contains("still running after 1.0 seconds"), "\(hung.stderr)")
        // gdb's view of the one thread, in the sleep it never left.
        #expect(hung.stderr.contains("Thread 1") && hung.stderr.contains("sleep"), "\(hung.stderr)")

        let quick = try Subprocess.run("/bin/echo", ["fine"], timeLimit: .seconds(10))
        #expect(!quick.timedOut && quick.status == 0 && quick.stdout == "fine\n" && quick.stderr.isEmpty)
    }

    @Test("a server that accepts and never answers: the request ends at the client's deadline with NoAnswer")
    func aSilentServerEndsAtTheDeadline() async throws {
        let (fd, port) = try Loopback.boundSocket()
        defer { close(fd) }
        #expect(listen(fd, 8) == 0)
        // The kernel completes the handshake; nobody ever reads or answers.
        let client = TestHTTPClient(timeout: 60, deadline: 1)
        let started = ContinuousClock.now
        await #expect(throws: TestHTTPClient.NoAnswer.self) {
            _ = try await client.send("GET", URL(string: "http://127.0.0.1:\(port)/never")!)
        }
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test("make test's watchdog: output passes through; silence ends the run with exit 124 and every process's stacks")
    func theWatchdogEndsASilentRun() throws {
        let script = Self.packageRoot.appendingPathComponent("scripts/test-watchdog.py").path
        let passes = try Subprocess.run("/usr/bin/python3", [script, "--silence", "30", "--", "/bin/sh", "-c", "echo one; echo two >&2; exit 3"],
                                        timeLimit: .seconds(60))
        #expect(passes.status == 3 && passes.stdout.hasPrefix("one\ntwo\ntest-watchdog: peak of the processes under the tests: "),
                "\(passes.stdout)\(passes.stderr)")
        // The peak line names the largest process sampled (here the shell, or what it ran).
        #expect(passes.stdout.split(separator: "\n").count == 3 && passes.stdout.contains(" threads ("), "\(passes.stdout)")

        let silent = try Subprocess.run("/usr/bin/python3", [script, "--silence", "2", "--", "/bin/sh", "-c", "echo started; sleep 60; echo never"],
                                        timeLimit: .seconds(120))
        #expect(silent.status == 124, "\(silent.stdout)\(silent.stderr)")
        #expect(silent.stdout.hasPrefix("started\ntest-watchdog: no output for 2 s"), "\(silent.stdout)")
        #expect(silent.stdout.contains("\ntest-watchdog: peak of the processes under the tests: "), "\(silent.stdout)")
        #expect(silent.stdout.contains("=== process") && silent.stdout.contains("sleep 60") && silent.stdout.contains("Thread 1"), "\(silent.stdout)")
        #expect(!silent.stdout.split(separator: "\n").contains("never") && silent.stdout.hasSuffix("killed after 2 s of silence (exit 124)\n"))
    }
}
