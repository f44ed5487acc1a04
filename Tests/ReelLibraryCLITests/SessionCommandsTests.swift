import Foundation
import ReelCore
import ReelStore
import ReelTestSupport
import Testing

/// What a library user expects: `reel sessions` filtered, `show`, `edit`, `rm` to
/// the freedesktop Trash and `untrash`, and `reel tags rename`, through the real binary, with
/// bad input.
@Suite("reel sessions ls/show/edit/rm/untrash, reel tags rename")
struct SessionCommandsTests {
    struct Home {
        let dir: TemporaryDirectory
        var home: String { dir.path("home") }
        var library: String { dir.path("lib.sqlite") }
        var trash: String { home + "/.local/share/Trash" }
        var environment: [String: String] {
            ["HOME": home, "XDG_DATA_HOME": "", "XDG_STATE_HOME": "", "XDG_CACHE_HOME": "", "TZ": "UTC"]
        }
        init() throws {
            dir = try TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        }
        func reel(_ arguments: [String]) throws -> Subprocess { try ReelBinary.run(arguments + ["--library", library], environment: environment) }

        /// A session started `day` at 09:00 UTC with a video (and a thumbnail, a face track and
        /// review edits when `files`) in `folder`.
        @discardableResult
        func addSession(_ number: Int, day: String, title: String?, tags: [String], folder: String? = nil, files: Bool = true) throws -> StudySession {
            let folder = folder ?? dir.path("media")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let start = try Date.ISO8601FormatStyle().parse(day + "T09:00:00Z")
            let base = folder + "/rec \(number) 100%"  // a space and a percent sign: the Trash's Path= encodes both
            let session = StudySession(
                id: UUID(uuidString: String(format: "0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c%04d", number))!, startedAt: start,
                endedAt: start.addingTimeInterval(3600), activeSeconds: 3000, videoSeconds: 3000, mode: .full, intervalSeconds: nil,
                filePath: base + ".mp4", thumbnailPath: files ? base + ".jpg" : nil, faceTrackPath: files ? base + ".faces.json" : nil,
                title: title, tags: tags)
            try Data(repeating: UInt8(number), count: 1000 * number).write(to: URL(fileURLWithPath: session.filePath))
            if files {
                try Data("jpeg".utf8).write(to: URL(fileURLWithPath: base + ".jpg"))
                try Data("{}".utf8).write(to: URL(fileURLWithPath: base + ".faces.json"))
                try Data("{\"edits\":[]}".utf8).write(to: URL(fileURLWithPath: PrivacyEdits.path(forVideo: session.filePath)))
            }
            try StudyLibrary(path: library).add(session)
            return session
        }
    }

    @Test("ls --tag, --since, --until (local days, included); an unknown tag names the nearest; bad dates and options of other actions exit 64")
    func filters() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        try home.addSession(1, day: "2026-11-01", title: "Chemistry", tags: ["exam"])
        try home.addSession(2, day: "2026-11-15", title: "Physics", tags: ["exam", "lab"])
        try home.addSession(3, day: "2026-11-30", title: "History", tags: [])
        func titles(_ extra: [String]) throws -> [String] {
            let result = try home.reel(["sessions", "--json"] + extra)
            #expect(result.status == 0, "\(extra): \(result.stderr)")
            let list = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
            return list.compactMap { $0["title"] as? String }
        }
        #expect(try titles([]) == ["Chemistry", "Physics", "History"])
        #expect(try titles(["--tag", "exam"]) == ["Chemistry", "Physics"])
        #expect(try titles(["--tag", "lab", "--since", "2026-11-15"]) == ["Physics"])
        #expect(try titles(["--since", "2026-11-15", "--until", "2026-11-30"]) == ["Physics", "History"])
        #expect(try titles(["--until", "2026-11-14"]) == ["Chemistry"])
        #expect(try home.reel(["sessions", "ls", "--since", "2026-12-01"]).stdout == "no sessions match\n")
        let typo = try home.reel(["sessions", "--tag", "exma"])
        #expect(typo.status == 1 && typo.stderr.contains("no tag 'exma' (did you mean 'exam'?)"), "\(typo.stderr)")
        for bad in [["--since", "2026-02-30"], ["--since", "yesterday"], ["--since", "2026-11-30", "--until", "2026-11-01"],
                    ["--title", "x"], ["show", "last", "--tag", "exam"], ["rm", "last", "--json"], ["sessions-typo"], ["ls", "last"]] {
            let result = try home.reel(["sessions"] + bad)
            #expect(result.status == 64, "\(bad): \(result.status) \(result.stderr)")
        }
    }

    @Test("show: every file with its size or 'missing', review edits, exports, JSON; an unknown session exits 1")
    func show() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let session = try home.addSession(2, day: "2026-11-15", title: "Physics", tags: ["exam"])
        try StudyLibrary(path: home.library).recordExport(
            .init(path: home.dir.path("out/physics-mosaic.mp4"), exportedAt: Date(timeIntervalSince1970: 1_795_000_000), privacy: "mosaic", bytes: 1234),
            of: session.id)
        let text = try home.reel(["sessions", "show", "0b8e"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("session       0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c0002"), "\(text.stdout)")
        #expect(text.stdout.contains("video         \(session.filePath) (2.0 KB)") || text.stdout.contains("video         \(session.filePath) (1.95 KiB)")
                || text.stdout.contains("video         \(session.filePath) ("), "\(text.stdout)")
        #expect(text.stdout.contains("review edits  \(PrivacyEdits.path(forVideo: session.filePath))"))
        #expect(text.stdout.contains("exports       \(home.dir.path("out/physics-mosaic.mp4")) (mosaic, ") && text.stdout.contains(", missing)"))
        #expect(text.stdout.contains("tags          exam"))
        try FileManager.default.removeItem(atPath: session.filePath)
        try FileManager.default.removeItem(atPath: PrivacyEdits.path(forVideo: session.filePath))
        let json = try home.reel(["sessions", "show", "last", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.first { $0["role"] as? String == "video" }?["bytes"] is NSNull)
        #expect(files.first { $0["role"] as? String == "review edits" }?["path"] is NSNull)
        #expect((object["exports"] as? [[String: Any]])?.first?["privacy"] as? String == "mosaic")
        #expect(try home.reel(["sessions", "show", "last"]).stdout.contains("\(session.filePath) (missing)"))
        #expect(try home.reel(["sessions", "show", "ffff"]).status == 1)
        #expect(try home.reel(["sessions", "show"]).status == 64)
    }

    @Test("end to end: a recorded session, exported by reel export, shows its export; rm and untrash keep the video byte for byte")
    func recordedSession() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let video = home.dir.path("rec.mp4"), out = home.dir.path("out.mp4")
        let recorded = try home.reel(["record", "--source", "test:320x240@10", "--mode", "timelapse", "--interval", "0.5", "--duration", "2",
                                      "--no-faces", "--no-keep-awake", "--quiet", "--output", video])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let exported = try home.reel(["export", "last", "-o", out, "--privacy", "none"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let shown = try home.reel(["sessions", "show", "last"])
        #expect(shown.stdout.contains("exports       \(out) (none, "), "\(shown.stdout)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: video))
        #expect(try home.reel(["sessions", "rm", "last"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: video) && FileManager.default.fileExists(atPath: out), "the export stays")
        #expect(try home.reel(["sessions", "untrash", "last"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: video)) == bytes)
    }

    @Test("edit: title and tags in one transaction; an unknown tag changes nothing; bad titles and empty edits exit 64")
    func edit() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        try home.addSession(1, day: "2026-11-01", title: "Chemistry", tags: ["exam"])
        #expect(try home.reel(["tags", "add", "lab"]).status == 0)
        let edited = try home.reel(["sessions", "edit", "last", "--title", "  Organic chemistry ", "--add-tag", "lab", "--remove-tag", "exam"])
        #expect(edited.status == 0 && edited.stdout == "session 0b8e2a1c: title 'Organic chemistry', tags 'lab'\n", "\(edited.stdout)\(edited.stderr)")
        let failed = try home.reel(["sessions", "edit", "last", "--title", "Other", "--add-tag", "labb"])
        #expect(failed.status == 1 && failed.stderr.contains("no tag 'labb' (did you mean 'lab'?)"), "\(failed.stderr)")
        let notThere = try home.reel(["sessions", "edit", "last", "--remove-tag", "exam"])
        #expect(notThere.status == 1 && notThere.stderr.contains("does not have tag 'exam'"))
        var session = try #require(try StudyLibrary(path: home.library).sessions().first)
        #expect(session.title == "Organic chemistry" && session.tags == ["lab"], "nothing of the failed edits stayed")
        for bad in [["--title", "red\u{1B}[31m"], ["--title", "a\nb"], ["--title", "x", "--no-title"], [], ["--add-tag", "a,b"]] {
            let result = try home.reel(["sessions", "edit", "last"] + bad)
            #expect(result.status == 64, "\(bad): \(result.stderr)")
        }
        #expect(try home.reel(["sessions", "edit", "last", "--no-title"]).status == 0)
        session = try #require(try StudyLibrary(path: home.library).sessions().first)
        #expect(session.title == nil)
    }

    @Test("tags rename: sessions keep the tag; a taken name exits 1, an unknown one names the nearest, a bad new name exits 64")
    func renameTag() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        try home.addSession(1, day: "2026-11-01", title: "Chemistry", tags: ["exam", "lab"])
        let renamed = try home.reel(["tags", "rename", "exam", "exams"])
        #expect(renamed.status == 0 && renamed.stdout == "renamed tag 'exam' to 'exams' (on 1 session)\n", "\(renamed.stderr)")
        #expect(try StudyLibrary(path: home.library).sessions().first?.tags == ["exams", "lab"])
        let taken = try home.reel(["tags", "rename", "exams", "lab"])
        #expect(taken.status == 1 && taken.stderr.contains("tag 'lab' exists already"))
        let unknown = try home.reel(["tags", "rename", "exma", "x"])
        #expect(unknown.status == 1 && unknown.stderr.contains("did you mean"), "\(unknown.stderr)")
        #expect(try home.reel(["tags", "rename", "lab", "a,b"]).status == 64)
        #expect(try home.reel(["tags", "rename", "lab"]).status == 64)
        #expect(try home.reel(["tags", "ls", "lab", "x"]).status == 64)
        #expect(try home.reel(["tags", "add", "x", "--force"]).status == 64, "--force belongs to rm")
    }

    @Test("rm moves the files and the record to the freedesktop Trash (.trashinfo with the encoded path); untrash puts all back")
    func trashAndBack() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let session = try home.addSession(1, day: "2026-11-01", title: "Chemistry", tags: ["exam"])
        try home.addSession(2, day: "2026-11-02", title: "Physics", tags: [])
        let paths = TrashedSession.paths(of: session)
        #expect(paths.count == 4)
        let removed = try home.reel(["sessions", "rm", "0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c0001"])
        #expect(removed.status == 0 && removed.stdout.contains("moved session 0b8e2a1c (Chemistry) to the Trash"), "\(removed.stderr)")
        #expect(removed.stdout.contains("undo: reel sessions untrash 0b8e2a1c"))
        for path in paths { #expect(!FileManager.default.fileExists(atPath: path), "\(path) is still there") }
        let name = (session.filePath as NSString).lastPathComponent
        #expect(FileManager.default.fileExists(atPath: home.trash + "/files/" + name))
        let info = try String(contentsOfFile: home.trash + "/info/" + name + ".trashinfo", encoding: .utf8)
        #expect(info.hasPrefix("[Trash Info]\nPath=") && info.contains("/rec%201%20100%25.mp4\nDeletionDate=20"), "\(info)")
        #expect(TrashInfo(text: info, timeZone: .current)?.originalPath == session.filePath)
        #expect(FileManager.default.fileExists(atPath: home.trash + "/files/" + TrashedSession.fileName(for: session.id)))
        #expect(try StudyLibrary(path: home.library).sessions().map(\.title) == ["Physics"])

        // The place is taken meanwhile: untrash refuses and changes nothing.
        try Data("new".utf8).write(to: URL(fileURLWithPath: session.filePath))
        let blocked = try home.reel(["sessions", "untrash", "0b8e"])
        #expect(blocked.status == 1 && blocked.stderr.contains("\(session.filePath) exists now"), "\(blocked.stderr)")
        #expect(try StudyLibrary(path: home.library).sessions().count == 1)
        try FileManager.default.removeItem(atPath: session.filePath)

        let back = try home.reel(["sessions", "untrash", "last"])
        #expect(back.status == 0 && back.stdout.hasPrefix("put back session 0b8e2a1c (Chemistry)"), "\(back.stderr)")
        for path in paths { #expect(FileManager.default.fileExists(atPath: path), "\(path) is not back") }
        #expect(try Data(contentsOf: URL(fileURLWithPath: session.filePath)) == Data(repeating: 1, count: 1000))
        #expect(try StudyLibrary(path: home.library).sessions().first { $0.id == session.id } == session)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.trash + "/files").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.trash + "/info").isEmpty)
        let none = try home.reel(["sessions", "untrash", "last"])
        #expect(none.status == 1 && none.stderr.contains("holds no session removed by reel sessions rm"))
    }

    @Test("a session removed twice (removed, restored as a backup would, removed again) comes back by its whole id or its start, from its newer removal; 'last' is the newest removal")
    func removedTwice() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let id = "0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c0001"
        let first = try home.addSession(1, day: "2026-11-01", title: "Chemistry", tags: [])
        #expect(try home.reel(["sessions", "rm", id]).status == 0)
        let again = try home.addSession(1, day: "2026-11-01", title: "Chemistry again", tags: [])  // what a restore puts back
        #expect(again.id == first.id)
        #expect(try home.reel(["sessions", "rm", id]).status == 0)
        let records = try FileManager.default.contentsOfDirectory(atPath: home.trash + "/files").filter { $0.hasPrefix("reel-session-") }
        #expect(records.count == 2, "two records of one session: \(records)")

        let back = try home.reel(["sessions", "untrash", id])
        #expect(back.status == 0 && back.stdout.hasPrefix("put back session 0b8e2a1c (Chemistry again)"), "\(back.stdout)\(back.stderr)")
        #expect(try StudyLibrary(path: home.library).sessions().map(\.title) == ["Chemistry again"])
        // The older record stays; the session is in the library, so it is refused, not ambiguous.
        let older = try home.reel(["sessions", "untrash", "0b8e2a1c"])
        #expect(older.status == 1 && older.stderr.contains("is in the library already"), "\(older.stderr)")

        // Another session removed after it: 'last' is that one, though it started earlier.
        let earlier = try home.addSession(2, day: "2026-10-01", title: "Physics", tags: [])
        #expect(try home.reel(["sessions", "rm", earlier.id.uuidString]).status == 0)
        let last = try home.reel(["sessions", "untrash", "last"])
        #expect(last.status == 0 && last.stdout.hasPrefix("put back session 0b8e2a1c (Physics)"), "\(last.stdout)\(last.stderr)")
    }

    @Test("rm of media on another filesystem uses that filesystem's .Trash-UID (a rename, never a copy); a missing video is no obstacle")
    func otherFilesystem() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let shm = "/dev/shm/reel-test-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: shm) }
        let session = try home.addSession(3, day: "2026-11-03", title: nil, tags: [], folder: shm)
        try FileManager.default.removeItem(atPath: session.thumbnailPath!)
        #expect(try home.reel(["sessions", "rm", "last"]).status == 0)
        let trash = "/dev/shm/.Trash-\(getuid())"
        let name = (session.filePath as NSString).lastPathComponent
        defer {
            for file in TrashedSession.paths(of: session) {
                let base = (file as NSString).lastPathComponent
                try? FileManager.default.removeItem(atPath: trash + "/files/" + base)
                try? FileManager.default.removeItem(atPath: trash + "/info/" + base + ".trashinfo")
            }
        }
        #expect(FileManager.default.fileExists(atPath: trash + "/files/" + name), "the video is in \(trash)")
        var info = stat()
        #expect(stat(trash, &info) == 0 && info.st_mode & 0o777 == 0o700)
        // The record goes to the home Trash.
        #expect(FileManager.default.fileExists(atPath: home.trash + "/files/" + TrashedSession.fileName(for: session.id)))
        let back = try home.reel(["sessions", "untrash", "0b8e2a1c"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(FileManager.default.fileExists(atPath: session.filePath) && !FileManager.default.fileExists(atPath: session.thumbnailPath!))
        #expect(!FileManager.default.fileExists(atPath: trash + "/files/" + name))
    }
}
