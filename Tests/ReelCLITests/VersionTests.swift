import Foundation
import ReelTestSupport
import Testing

/// `reel --version` and `reel version` through the real binary: the libraries' versions are
/// compared with what the system's own tools report for the same libraries.
@Suite
struct VersionTests {
    /// The lines of `reel --version`, checked to be the same as `reel version`'s.
    func versionLines() throws -> [String] {
        let long = try ReelBinary.run(["--version"])
        let word = try ReelBinary.run(["version"])
        #expect(long.status == 0 && long.stderr.isEmpty, "\(long.stderr)")
        #expect(word.status == 0 && word.stdout == long.stdout)
        return long.stdout.split(separator: "\n").map(String.init)
    }

    /// The value after `name ` on the line that starts with it.
    func value(_ lines: [String], _ name: String) -> String? {
        lines.first { $0.hasPrefix(name + " ") }.map { String($0.dropFirst(name.count + 1)) }
    }

    @Test("the first line names reel, its version and a commit (hex, or unknown without make)")
    func firstLine() throws {
        let first = try #require(try versionLines().first)
        let match = try #require(first.wholeMatch(of: /reel (\d+\.\d+\.\d+) \(commit ([0-9a-f]{7,40}(-dirty)?|unknown)\)/), "\(first)")
        if match.2 != "unknown" {
            let head = try Subprocess.run("git", ["rev-parse", "HEAD"])
            if head.status == 0 {
                #expect(head.stdout.hasPrefix(match.2.prefix { $0 != "-" }), "built from \(match.2), checkout at \(head.stdout)")
            }
        }
    }

    @Test("FFmpeg, OpenCV, SQLite and libmicrohttpd: the versions the system's tools report")
    func libraries() throws {
        let lines = try versionLines()
        #expect(lines.count == 5, "\(lines)")
        let ffmpeg = try Subprocess.run("ffmpeg", ["-hide_banner", "-version"])
        let ffmpegVersion = try #require(ffmpeg.stdout.firstMatch(of: /ffmpeg version (\S+)/)?.1)
        #expect(value(lines, "FFmpeg")?.hasPrefix(String(ffmpegVersion) + " (libavcodec ") == true, "\(lines)")
        for (name, package) in [("OpenCV", "opencv4"), ("SQLite", "sqlite3"), ("libmicrohttpd", "libmicrohttpd")] {
            let expected = try Subprocess.run("pkg-config", ["--modversion", package]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(!expected.isEmpty && value(lines, name) == expected, "\(name): \(lines)")
        }
    }

    @Test("a misspelt --version is a usage error that suggests it; version takes no argument")
    func mistakes() throws {
        let typo = try ReelBinary.run(["--versoin"])
        #expect(typo.status == 64 && typo.stdout.isEmpty)
        #expect(typo.stderr == "reel: unknown option '--versoin'. Did you mean '--version'?\nRun 'reel --help' for usage.\n", "\(typo.stderr)")
        let command = try ReelBinary.run(["versoin"])
        #expect(command.status == 64 && command.stderr.hasPrefix("reel: unknown command 'versoin'. Did you mean 'version'?\n"), "\(command.stderr)")
        let extra = try ReelBinary.run(["version", "now"])
        #expect(extra.status == 64 && extra.stderr.hasPrefix("reel version: unexpected argument 'now'; this command takes none.\n"), "\(extra.stderr)")
    }
}
