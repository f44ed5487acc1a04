import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ReelCore
import ReelStore
import ReelTestSupport
import Testing

/// The library commands (`tags`, `tag`, `goal`, `stats`, `materials`) through the
/// real `reel` binary, with temporary XDG folders and `--library`.
@Suite("reel tags, tag, goal, stats, materials")
struct LibraryCommandTests {
    /// A temporary home: XDG folders inside it, TZ Asia/Tokyo.
    struct Home {
        let dir: TemporaryDirectory
        var library: String { dir.path("lib/library.sqlite") }
        var environment: [String: String] {
            ["XDG_DATA_HOME": dir.path("data"), "XDG_STATE_HOME": dir.path("state"), "HOME": dir.path("home"), "TZ": "Asia/Tokyo"]
        }
        init() throws { dir = try TemporaryDirectory() }

        func reel(_ arguments: [String], library: Bool = true) throws -> Subprocess {
            try ReelBinary.run(arguments + (library ? ["--library", self.library] : []), environment: environment)
        }

        /// Adds a session starting at `utc` (ISO 8601) with `minutes` of study.
        func addSession(_ id: String, _ utc: String, minutes: Double, tags: [String] = []) throws {
            let start = try Date.ISO8601FormatStyle().parse(utc)
            try StudyLibrary(path: library).add(StudySession(
                id: UUID(uuidString: id)!, startedAt: start, endedAt: start.addingTimeInterval(minutes * 60), activeSeconds: minutes * 60,
                videoSeconds: minutes, mode: .timelapse, intervalSeconds: 5, filePath: dir.path("v.mp4"), thumbnailPath: nil,
                faceTrackPath: nil, title: "Chemistry", tags: tags))
        }
    }

    @Test("tags add/ls/rm and tag SESSION NAME: happy path, JSON, and the default library in XDG_DATA_HOME")
    func tags() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        try home.addSession("0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c0001", "2026-11-30T00:00:00Z", minutes: 60)
        #expect(try home.reel(["tags", "add", "exam"]).stdout == "added tag 'exam'\n")
        #expect(try home.reel(["tags", "add", "exam"]).stdout == "tag 'exam' is already there\n")
        let tagged = try home.reel(["tag", "0b8e", "exam"])
        #expect(tagged.status == 0 && tagged.stdout == "tagged session 0b8e2a1c (Chemistry) with 'exam'\n", "\(tagged.stderr)")
        let listed = try home.reel(["tags", "ls", "--json"])
        let json = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
        #expect(json?.count == 1 && json?.first?["name"] as? String == "exam" && json?.first?["sessions"] as? Int == 1)
        #expect(try home.reel(["tags", "ls"]).stdout == "TAG   SESSIONS\nexam  1\n")
        #expect(try home.reel(["tag", "last", "exam", "--remove"]).stdout == "took 'exam' off session 0b8e2a1c (Chemistry)\n")
        #expect(try home.reel(["tags", "rm", "exam"]).stdout == "removed tag 'exam'\n")
        // Without --library: $XDG_DATA_HOME/reel/library.sqlite.
        #expect(try home.reel(["tags", "add", "elsewhere"], library: false).status == 0)
        #expect(FileManager.default.fileExists(atPath: home.dir.path("data/reel/library.sqlite")))
        #expect(try home.reel(["tags", "ls"]).stdout.contains("no tags yet"))
    }

    @Test("mistakes: unknown action or missing name exit 64; unknown tag, tag in use, unknown session exit 1 with what to do")
    func tagMistakes() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        try home.addSession("0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c0001", "2026-11-30T00:00:00Z", minutes: 60, tags: ["exam"])
        let unknownAction = try home.reel(["tags", "remove", "exam"])
        #expect(unknownAction.status == 64 && unknownAction.stderr.contains("invalid value 'remove' for 'ACTION': expected one of: add, rm, ls"))
        #expect(unknownAction.stderr.contains("Run 'reel tags --help' for usage."))
        let missing = try home.reel(["tags", "add"])
        #expect(missing.status == 64 && missing.stderr.contains("missing argument NAME"))
        #expect(try home.reel(["tags", "add", "a,b"]).status == 64)
        let typo = try home.reel(["tags", "rm", "exma"])
        #expect(typo.status == 1 && typo.stderr == "reel tags: no tag 'exma' (did you mean 'exam'?)\n")
        let inUse = try home.reel(["tags", "rm", "exam"])
        #expect(inUse.status == 1 && inUse.stderr.contains("tag 'exam' is on 1 session; add --force"))
        let forced = try home.reel(["tags", "rm", "exam", "--force"])
        #expect(forced.status == 0 && forced.stdout == "removed tag 'exam' (taken off 1 session)\n")
        let noTag = try home.reel(["tag", "last", "exam"])
        #expect(noTag.status == 1 && noTag.stderr.contains("reel tags add 'exam'"))
        let noSession = try home.reel(["tag", "ffff", "exam"])
        #expect(noSession.status == 1 && noSession.stderr.contains("no session id starts with 'ffff'"))
        #expect(try home.reel(["tag", "last"]).status == 64)
    }

    @Test("goal set and stats: the week's minutes against the goal as JSON, a text table, and an SVG chart")
    func goalAndStats() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        // Tokyo is UTC+9: 2025-11-24 00:00 UTC is Monday 09:00 there; 2025-11-26 14:30 UTC is Wednesday 23:30 there (splits at midnight).
        try home.addSession("0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c0001", "2025-11-24T00:00:00Z", minutes: 100)
        try home.addSession("0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c0002", "2025-11-26T14:30:00Z", minutes: 60)
        #expect(try home.reel(["goal", "set", "90", "--date", "2025-10-26"]).stdout == "daily goal from 2025-10-26: 1 h 30\n")
        #expect(try home.reel(["goal", "set", "20", "--date", "2025-11-27"]).status == 0)
        let stats = try home.reel(["stats", "--date", "2025-11-25", "--json", "--svg", home.dir.path("week.svg")])
        #expect(stats.status == 0, "\(stats.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect(object["from"] as? String == "2025-11-24" && object["to"] as? String == "2025-11-30" && object["period"] as? String == "week")
        #expect(object["totalMinutes"] as? Double == 160 && object["daysMet"] as? Int == 2 && object["daysWithGoal"] as? Int == 7)
        let days = try #require(object["days"] as? [[String: Any]])
        #expect(days.map { $0["activeMinutes"] as? Double } == [100, 0, 30, 30, 0, 0, 0])
        #expect(days.map { $0["goalMinutes"] as? Int } == [90, 90, 90, 20, 20, 20, 20])
        #expect(days.map { $0["metGoal"] as? Bool } == [true, false, false, true, false, false, false])
        let svg = try String(contentsOfFile: home.dir.path("week.svg"), encoding: .utf8)
        #expect(svg.contains("Week 2025-11-24 – 2025-11-30") && svg.contains("Total 2 h 40"))
        _ = try XMLDocument(data: Data(svg.utf8))
        let text = try home.reel(["stats", "--month", "--date", "2025-11-15"])
        #expect(text.status == 0 && text.stdout.hasPrefix("DAY") && text.stdout.contains("Mon  2025-11-24  1 h 40  1 h 30  met"))
        #expect(text.stdout.split(separator: "\n").count == 1 + 30 + 1)
        #expect(try home.reel(["goal", "ls", "--json"]).stdout.contains("\"minutes\" : 20"))
    }

    @Test("goal and stats mistakes exit 64: minutes out of range, a date that does not exist, --week with --month")
    func goalMistakes() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let tooMuch = try home.reel(["goal", "set", "1441"])
        #expect(tooMuch.status == 64 && tooMuch.stderr.contains("whole minutes from 0 (no goal) to 1440"))
        let noDay = try home.reel(["goal", "set", "30", "--date", "2026-02-30"])
        #expect(noDay.status == 64 && noDay.stderr.contains("not a day of the calendar"))
        #expect(try home.reel(["goal", "set"]).status == 64)
        #expect(try home.reel(["stats", "--week", "--month"]).status == 64)
        #expect(try home.reel(["goal", "set", "30"]).status == 0)
        let badPath = try home.reel(["stats", "--svg", home.dir.path("no/such/folder/x.svg")])
        #expect(badPath.status == 1 && badPath.stderr.contains("cannot write the chart"))
    }

    @Test("materials add/ls/rm; a wrong ISBN exits 64, a duplicate ISBN 1")
    func materials() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let added = try home.reel(["materials", "add", "--title", "Signals", "--isbn", "978-0-306-40615-7", "--author", "A. Author"])
        #expect(added.status == 0 && added.stdout.hasPrefix("added 'Signals' (ISBN 9780306406157), id "), "\(added.stderr)")
        #expect(try home.reel(["materials", "add", "--title", "Notes"]).status == 0)
        let listed = try home.reel(["materials", "ls", "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(json.map { $0["title"] as? String } == ["Signals", "Notes"])
        #expect(json[1]["isbn"] is NSNull && json[0]["author"] as? String == "A. Author")
        let wrong = try home.reel(["materials", "add", "--title", "X", "--isbn", "9780306406158"])
        #expect(wrong.status == 64 && wrong.stderr.contains("the last digit should be 7"))
        let twice = try home.reel(["materials", "add", "--title", "Again", "--isbn", "9780306406157"])
        #expect(twice.status == 1 && twice.stderr.contains("already in the library as 'Signals'"))
        #expect(try home.reel(["materials", "add", "--isbn", "9780306406157", "--offline"]).status == 64, "offline, a title is required")
        #expect(try home.reel(["materials", "rm", "9780306406157"]).stdout == "removed 'Signals'\n")
        #expect(try home.reel(["materials", "ls"]).stdout.contains("Notes"))
        #expect(try home.reel(["materials", "rm"]).status == 64)
    }

    @Test("a library from a newer Reel is refused by every command, untouched")
    func newerLibrary() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        _ = try StudyLibrary(path: home.library)
        try SQLiteConnection(path: home.library).run("INSERT INTO schema_migration VALUES (99, '0099-future', 'now')")
        let before = try Data(contentsOf: URL(fileURLWithPath: home.library))
        for arguments in [["tags", "ls"], ["goal", "set", "30"], ["stats"], ["materials", "ls"]] {
            let run = try home.reel(arguments)
            #expect(run.status == 1 && run.stderr.contains("newer Reel"), "\(arguments)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.library)) == before)
    }

    @Test("every library command has help with examples")
    func help() throws {
        for command in ["tags", "tag", "goal", "stats", "materials"] {
            let run = try ReelBinary.run([command, "--help"])
            #expect(run.status == 0 && run.stdout.contains("--library") && run.stdout.contains("reel \(command) "), "\(command)")
        }
    }
}
