import Foundation
import Testing

/// The built `reel` binary, run as a user would: `make test` points `REEL_BIN` at the release
/// build; without it these tests are skipped.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["REEL_BIN"] != nil, "REEL_BIN is not set"))
struct BinaryTests {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    func reel(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessInfo.processInfo.environment["REEL_BIN"]!)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      standardOutput: String(decoding: outputData, as: UTF8.self),
                      standardError: String(decoding: errorData, as: UTF8.self))
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
