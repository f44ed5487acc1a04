import Foundation
import ReelCore
import ReelStore
import ReelTestSupport
import Testing

/// Library bugs Reel once had, through the real `reel` binary: reads that created libraries,
/// `$HOME` ignored, names that skipped the rules, control characters and wide text in tables.
@Suite("library data safety: no library made by a read, $HOME followed, one rule for names, safe tables")
struct LibraryDataSafetyTests {
    /// A temporary home with no XDG variables set (empty ones are ignored), so every default
    /// folder must come from `$HOME`.
    struct Home {
        let dir: TemporaryDirectory
        var home: String { dir.path("home") }
        var environment: [String: String] {
            ["HOME": home, "XDG_DATA_HOME": "", "XDG_STATE_HOME": "", "XDG_CACHE_HOME": "", "XDG_VIDEOS_DIR": "", "TZ": "UTC"]
        }
        init() throws {
            dir = try TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: dir.path("home"), withIntermediateDirectories: true)
        }
        func reel(_ arguments: [String]) throws -> Subprocess { try ReelBinary.run(arguments, environment: environment) }

        /// Adds a session straight to the library (as an old library or a restore could hold it).
        func addSession(_ library: String, title: String?, tags: [String] = [], number: Int) throws {
            let start = Date(timeIntervalSince1970: 1_790_000_000 + Double(number) * 7200)
            let id = UUID(uuidString: String(format: "0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c%04d", number))!
            try StudyLibrary(path: library).add(StudySession(
                id: id, startedAt: start, endedAt: start.addingTimeInterval(3600), activeSeconds: 3600, videoSeconds: 360,
                mode: .timelapse, intervalSeconds: 5, filePath: dir.path("v\(number).mp4"), thumbnailPath: nil, faceTrackPath: nil,
                title: title, tags: tags))
        }
    }

    @Test("reads never create a library: a --library that does not exist is an error, the default one reads as empty")
    func readsCreateNothing() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let missing = home.dir.path("nonexistent/dir/lib.sqlite")
        let reads: [[String]] = [["sessions"], ["sessions", "--json"], ["stats"], ["tags", "ls"], ["goal", "ls"], ["materials", "ls"],
                                 ["tags", "rm", "exam"], ["tag", "last", "exam"], ["materials", "rm", "abcd"]]
        for read in reads {
            let result = try home.reel(read + ["--library", missing])
            #expect(result.status == 1, "\(read): \(result.stdout)")
            #expect(result.stderr.contains("the library \(missing) does not exist (nothing was created)"), "\(read): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: home.dir.path("nonexistent")), "\(read) created the folder")
        }
        let backup = try home.reel(["backup", "--to", home.dir.path("backup"), "--library", missing])
        #expect(backup.status == 1 && backup.stderr.contains("nothing to back up: the library \(missing) does not exist"), "\(backup.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.dir.path("backup")) && !FileManager.default.fileExists(atPath: home.dir.path("nonexistent")))
        // A dry run into a library that does not exist says so and creates nothing.
        try home.addSession(home.dir.path("source/lib.sqlite"), title: "Chemistry", number: 1)
        #expect(try home.reel(["backup", "--to", home.dir.path("backup"), "--library", home.dir.path("source/lib.sqlite")]).status == 0)
        let dryRun = try home.reel(["restore", "--from", home.dir.path("backup"), "--dry-run", "--library", missing])
        #expect(dryRun.status == 0 && dryRun.stdout.contains("does not exist yet") && dryRun.stdout.contains("would add session 0b8e2a1c"), "\(dryRun.stdout)\(dryRun.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.dir.path("nonexistent")))
        // The default library ($HOME/.local/share/reel/library.sqlite) not made yet: empty answers, nothing created.
        let sessions = try home.reel(["sessions"])
        #expect(sessions.status == 0 && sessions.stdout.contains("no sessions yet"), "\(sessions.stderr)")
        #expect(try home.reel(["sessions", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]"
            || (try home.reel(["sessions", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == "[]")
        #expect(try home.reel(["stats"]).status == 0)
        #expect(try home.reel(["tags", "ls"]).stdout.contains("no tags yet"))
        #expect(try home.reel(["restore", "--from", home.dir.path("backup"), "--dry-run"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: home.dir.path("home/.local")), "a read created the default library")
        // Removing from the default library that does not exist: an error, nothing created.
        #expect(try home.reel(["tags", "rm", "exam"]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: home.dir.path("home/.local")))
        // Commands that add still create it.
        #expect(try home.reel(["tags", "add", "exam"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: home.dir.path("home/.local/share/reel/library.sqlite")))
    }

    @Test("$HOME is followed: the default library, a quoted ~ in --library, and a recording's default output and work folder")
    func homeIsFollowed() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        #expect(try home.reel(["tags", "add", "exam"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: home.home + "/.local/share/reel/library.sqlite"))
        #expect(try home.reel(["tags", "add", "other", "--library", "~/mine.sqlite"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: home.home + "/mine.sqlite"))
        let recorded = try home.reel(["record", "--source", "test:320x240@10", "--mode", "timelapse", "--interval", "0.5", "--duration", "1",
                                      "--no-faces", "--no-keep-awake", "--quiet", "--min-hours", "0"])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(!recorded.stderr.contains("\r") && !recorded.stderr.contains("\u{1B}"), "a pipe gets plain lines: \(recorded.stderr.debugDescription)")
        let recordings = (try? FileManager.default.contentsOfDirectory(atPath: home.home + "/.local/share/reel/recordings")) ?? []
        #expect(recordings.contains { $0.hasSuffix("-timelapse.mp4") }, "\(recordings)\n\(recorded.stdout)")
        #expect(FileManager.default.fileExists(atPath: home.home + "/.local/state/reel/recordings"))
        let listed = try home.reel(["sessions", "--json"])
        #expect(listed.stdout.contains(home.home + "/.local/share/reel/recordings/"), "\(listed.stdout)")
    }

    @Test("record --tag and --title follow the tags add rule: long, tab, comma, escape refused (exit 64) before recording")
    func recordNamesChecked() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let base = ["record", "--source", "test:320x240@10", "--mode", "timelapse", "--duration", "1", "--no-faces", "--no-keep-awake",
                    "--library", home.dir.path("lib.sqlite"), "--output", home.dir.path("out.mp4")]
        for bad in [["--tag", String(repeating: "t", count: 500)], ["--tag", "a\tb"], ["--tag", "a,b"], ["--tag", "   "],
                    ["--title", "red\u{1B}[31m"], ["--title", "bell\u{7}"], ["--title", "two\nlines"]] {
            let result = try home.reel(base + bad)
            #expect(result.status == 64, "\(bad): \(result.stderr)")
            #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{7}"), "\(bad): raw control character in the error")
            #expect(!FileManager.default.fileExists(atPath: home.dir.path("out.mp4")) && !FileManager.default.fileExists(atPath: home.dir.path("lib.sqlite")))
        }
        let long = try home.reel(base + ["--tag", String(repeating: "t", count: 500)])
        #expect(long.stderr.contains("at most 64"), "\(long.stderr)")
    }

    @Test("titles and tags with control characters are shown, never sent to the terminal: sessions, tags ls, tag")
    func controlCharactersShown() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let library = home.dir.path("lib.sqlite")
        try home.addSession(library, title: "\u{1B}[31mred\u{7}\u{9B}2J", tags: ["bad\u{1B}]0;pwned\u{7}"], number: 1)
        for arguments in [["sessions"], ["tags", "ls"], ["tag", "last", "bad\u{1B}]0;pwned\u{7}", "--remove"], ["stats"]] {
            let result = try home.reel(arguments + ["--library", library])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            let output = result.stdout + result.stderr
            #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B }, "\(arguments): \(output)")
        }
        let sessions = try home.reel(["sessions", "--library", library]).stdout
        #expect(sessions.contains("^[[31mred^G\\u{9B}2J"), "\(sessions)")
    }

    @Test("a malformed session reference is a usage error (64) before any library is opened; a well-formed unknown one exits 1")
    func sessionReferences() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let library = home.dir.path("lib.sqlite")
        try home.addSession(library, title: "Chemistry", tags: ["exam"], number: 1)
        for bad in ["30e", "zzzz", "last!", ""] {
            let result = try home.reel(["tag", bad, "exam", "--library", library])
            #expect(result.status == 64 && result.stderr.contains("Run 'reel tag --help' for usage."), "'\(bad)': \(result.stderr)")
        }
        #expect(try home.reel(["tag", "30e", "exam", "--library", home.dir.path("none.sqlite")]).status == 64)
        let unknown = try home.reel(["tag", "ffff", "exam", "--library", library])
        #expect(unknown.status == 1 && unknown.stderr.contains("no session id starts with 'ffff'"))
        #expect(try home.reel(["tag", "0B8E2A1C", "exam", "--library", library]).status == 0, "ids in any case")
    }

    @Test("export --privacy none with --all-faces (or a detector option) is a usage error, not silently a face search for nothing")
    func privacyNoneConflicts() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        for extra in [["--all-faces"], ["--detector", "haar"], ["--detector-width", "640"]] {
            let result = try home.reel(["export", home.dir.path("in.mp4"), "-o", home.dir.path("out.mp4"), "--privacy", "none"] + extra)
            #expect(result.status == 64 && result.stderr.contains("'--privacy none' and '\(extra[0])' cannot be used together"), "\(extra): \(result.stderr)")
        }
    }

    @Test("stats: 0.8 min reads 0 min beside a 1-minute goal it missed; days to come are not 'below'; overlapping sessions count once")
    func statsVerdicts() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let library = home.dir.path("lib.sqlite")
        let utc = TimeZone(identifier: "UTC")!
        let today = CalendarDay(containing: Date(), in: utc)
        let yesterday = today.adding(days: -1)
        let start = yesterday.start(in: utc).addingTimeInterval(10 * 3600)
        for (index, (offset, minutes)) in [(0.0, 0.8), (0.0, 0.8), (7200.0, 45.0), (7200.0 + 600, 45.0)].enumerated() {
            // Two pairs recorded at the same time: 0.8 + 0.8 at once, then 45 and 45 ten minutes apart.
            try StudyLibrary(path: library).add(StudySession(
                id: UUID(), startedAt: start.addingTimeInterval(offset), endedAt: start.addingTimeInterval(offset + minutes * 60),
                activeSeconds: minutes * 60, videoSeconds: 1, mode: .full, intervalSeconds: nil, filePath: home.dir.path("v\(index).mp4"),
                thumbnailPath: nil, faceTrackPath: nil, title: nil, tags: []))
        }
        #expect(try home.reel(["goal", "set", "56", "--date", today.adding(days: -30).description, "--library", library]).status == 0)
        let stats = try home.reel(["stats", "--library", library])
        #expect(stats.status == 0, "\(stats.stderr)")
        for line in stats.stdout.split(separator: "\n").dropFirst().dropLast() {
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            guard columns.count > 1, let day = try? CalendarDay(String(columns[1])) else { continue }
            if day > today { #expect(line.hasSuffix("to come"), "\(line)") }
            if day < today { #expect(line.contains("below") || line.contains("met"), "\(line)") }
            // 0.8 + 45 + 10 more minutes of the second 45 (the twin 0.8 and the overlap count once) = 55.8: below 56, shown 55.
            if day == yesterday { #expect(line.contains("55 min") && line.contains("56 min") && line.contains("below"), "\(line)") }
            if day == today { #expect(line.hasSuffix("so far"), "\(line)") }
        }
        #expect(!stats.stdout.contains("1 h"), "no day adds the overlapping sessions up: \(stats.stdout)")
    }

    @Test("tables line up CJK and emoji titles by display width, keep emoji whole, cut long titles with …")
    func wideText() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let library = home.dir.path("lib.sqlite")
        let long = "Organic chemistry, chapter 12: stereochemistry and reaction mechanisms"
        for (number, title) in ["数学の勉強", "Physics 📚", "👩‍👩‍👧 family", long, "plain"].enumerated() {
            try home.addSession(library, title: title, tags: number == 1 ? ["試験", "📚"] : [], number: number + 1)
        }
        let text = try home.reel(["sessions", "--library", library]).stdout
        #expect(!text.contains("\u{FFFD}"), "\(text)")
        #expect(text.contains("Physics 📚") && text.contains("👩‍👩‍👧 family") && text.contains("数学の勉強"))
        #expect(text.contains(TerminalText.truncated(long, toWidth: 40)) && !text.contains(long), "\(text)")
        let lines = text.split(separator: "\n").map(String.init)
        let fileColumns = lines.map { line -> Int in
            let file = line.range(of: home.dir.path("v")) ?? line.range(of: "FILE")!
            return TerminalText.width(String(line[..<file.lowerBound]))
        }
        #expect(lines.count == 6 && Set(fileColumns).count == 1, "\(fileColumns)\n\(text)")
        #expect(try home.reel(["tags", "ls", "--library", library]).stdout.contains("📚"))
    }
}
