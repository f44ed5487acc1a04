import Foundation

/// The built `reel` executable, run as a user would run it.
///
/// `make test` points `REEL_BIN` at the release build; without it the binary next to the test
/// bundle (the same build directory, filled by `swift build`) is used. A missing binary is an
/// error that says how to build it, never a skipped test.
public enum ReelBinary {
    /// Where the binary is not.
    public struct Missing: Error, CustomStringConvertible {
        public var looked: [String]
        public var description: String {
            "no reel binary (looked at \(looked.joined(separator: ", "))): run 'swift build' or 'make test', or set REEL_BIN"
        }
    }

    /// The binary's path.
    public static func path() throws -> String {
        var candidates: [String] = []
        if let explicit = ProcessInfo.processInfo.environment["REEL_BIN"], !explicit.isEmpty { candidates.append(explicit) }
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        // .build/<triple>/debug/ReelPackageTests.xctest → .build/<triple>/debug/reel
        var directory = runner.deletingLastPathComponent()
        for _ in 0..<3 {
            candidates.append(directory.appendingPathComponent("reel").path)
            directory = directory.deletingLastPathComponent()
        }
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        throw Missing(looked: candidates)
    }

    /// Runs `reel` with `arguments` to completion (`input`: its standard input).
    public static func run(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws -> Subprocess {
        try Subprocess.run(path(), arguments, environment: environment, input: input)
    }
}
