import Foundation
import ReelTestSupport
import Testing

/// The built `reel` binary, run as a user would (see ``ReelBinary`` for which build).
@Suite
struct BinaryTests {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    func reel(_ arguments: [String]) throws -> Result {
        let run = try ReelBinary.run(arguments)
        return Result(status: run.status, standardOutput: run.stdout, standardError: run.stderr)
    }

    @Test func helpGoesToStandardOutput() throws {
        let result = try reel(["--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("Usage: reel <command> [options]\n"))
        #expect(result.standardError.isEmpty)
    }

    @Test func usageErrorsExit64WithAHint() throws {
        let result = try reel(["no-such-command"])
        #expect(result.status == 64)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == """
            reel: unknown command 'no-such-command'.
            Run 'reel --help' for the list of commands.

            """)
    }
}
