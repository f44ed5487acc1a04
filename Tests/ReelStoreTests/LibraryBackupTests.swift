import Foundation
import ReelCore
import ReelStore
import ReelTestSupport
import Testing

/// Backup and restore in process (issue 6): records and media checksums survive, restore only
/// adds, the incremental backup skips what did not change, and a damaged backup changes nothing.
@Suite("LibraryBackup and LibraryRestore")
struct LibraryBackupTests {
    /// A library with media on disk in a temporary folder.
    struct Fixture {
        let dir: TemporaryDirectory
        var backup: String { dir.path("backup") }
        init() throws { dir = try TemporaryDirectory() }

        /// Writes `bytes` of seeded noise to `name` in the media folder.
        func media(_ name: String, bytes: Int, seed: UInt64) throws -> String {
            try FileManager.default.createDirectory(atPath: dir.path("media"), withIntermediateDirectories: true)
            var random = SplitMix64(seed: seed)
            var raw = [UInt8](repeating: 0, count: bytes)
            for i in 0..<bytes { raw[i] = UInt8(truncatingIfNeeded: random.next()) }
            let data = Data(raw)
            let path = dir.path("media/" + name)
            try data.write(to: URL(fileURLWithPath: path))
            return path
        }

        func session(_ n: Int, tags: [String] = [], start: TimeInterval = 1_793_523_600) throws -> StudySession {
            let id = UUID(uuidString: String(format: "0b8e2a1c-5a49-4a53-9d1c-%012d", n))!
            return StudySession(id: id, startedAt: Date(timeIntervalSince1970: start + Double(n) * 3600), endedAt: Date(timeIntervalSince1970: start + Double(n) * 3600 + 1800.5),
                                activeSeconds: 1700.25, videoSeconds: 61, mode: n % 2 == 0 ? .full : .timelapse, intervalSeconds: n % 2 == 0 ? nil : 5,
                                filePath: try media("\(n).mp4", bytes: 40_000 + n, seed: UInt64(n)),
                                thumbnailPath: try media("\(n).jpg", bytes: 500 + n, seed: UInt64(1000 + n)),
                                faceTrackPath: n % 3 == 0 ? nil : try media("\(n).faces.json", bytes: 300, seed: UInt64(2000 + n)),
                                title: "Session \(n)", tags: tags,
                                load: n == 1 ? RecordingLoad(cpuShare: 0.5, peakCelsius: 70, easedSeconds: 10, reducedSeconds: 2, reasons: ["heat"]) : nil)
        }

        /// A library with sessions 1…count, tags, goals and materials.
        func library(_ name: String = "library.sqlite", sessions count: Int = 3) throws -> StudyLibrary {
            let library = try StudyLibrary(path: dir.path(name))
            for n in 1...count { try library.add(try session(n, tags: n == 1 ? ["exam", "chem"] : ["exam"])) }
            try library.addTag(try Tag("unused"))
            try library.setGoal(try DailyGoal(date: CalendarDay("2026-11-01"), minutes: 90))
            try library.setGoal(try DailyGoal(date: CalendarDay("2026-11-20"), minutes: 0))
            try library.addMaterial(try StudyMaterial(isbn: "9784003101018", title: "坊っちゃん", author: "夏目漱石", addedAt: Date(timeIntervalSince1970: 1_793_000_000)))
            try library.addMaterial(try StudyMaterial(isbn: nil, title: "Notes", addedAt: Date(timeIntervalSince1970: 1_793_000_001)))
            return library
        }

        /// SHA-256 of every media file the library lists, by path.
        func checksums(_ library: StudyLibrary) throws -> [String: String] {
            var sums: [String: String] = [:]
            for s in try library.sessions() {
                for path in [s.filePath, s.thumbnailPath, s.faceTrackPath].compactMap({ $0 }) { sums[path] = try ChecksummedFile.sha256(of: path) }
            }
            return sums
        }

        /// Removes every media file (a new machine).
        func removeMedia() throws { try FileManager.default.removeItem(atPath: dir.path("media")) }
    }

    static func contents(_ library: StudyLibrary) throws -> String {
        "\(try library.sessions())|\(try library.tagNames())|\(try library.goals())|\(try library.materials())"
    }

    @Test("backup → fresh library → restore: the same records and media checksums; a second restore changes nothing")
    func roundTrip() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        let library = try f.library()
        let records = try Self.contents(library)
        let sums = try f.checksums(library)
        let report = try LibraryBackup(library: library, destination: f.backup).run()
        #expect(report.sessions == 3 && report.tags == 3 && report.goals == 2 && report.materials == 2)
        #expect(report.copiedFiles == 8 && report.unchangedFiles == 0)
        // The backup is self-consistent: every listed file exists with its checksum.
        let document = try #require(try LibraryBackup.document(in: f.backup))
        #expect(document.media.count == 8)
        for entry in document.media { #expect(try ChecksummedFile.sha256(of: f.backup + "/" + entry.path) == entry.sha256) }

        try f.removeMedia()
        let fresh = try StudyLibrary(path: f.dir.path("fresh.sqlite"))
        let dry = try LibraryRestore(library: fresh, source: f.backup).run(dryRun: true)
        #expect(dry.plan.sessions.count == 3 && dry.media.count == 8 && dry.dryRun)
        #expect(try fresh.sessions().isEmpty && !FileManager.default.fileExists(atPath: f.dir.path("media")), "a dry run changes nothing")
        let restored = try LibraryRestore(library: fresh, source: f.backup).run()
        #expect(restored.plan.sessions.count == 3 && restored.plan.tags.count == 3 && restored.plan.goals.count == 2 && restored.plan.materials.count == 2)
        #expect(try Self.contents(fresh) == records)
        #expect(try f.checksums(fresh) == sums)

        let again = try LibraryRestore(library: fresh, source: f.backup).run()
        #expect(again.plan.isEmpty && again.media.isEmpty)
        #expect(try Self.contents(fresh) == records)
    }

    @Test("restore into a library with newer records adds the old ones and leaves the new ones (and an existing goal's minutes)")
    func restoreIntoNewer() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        let old = try f.library(sessions: 2)
        try LibraryBackup(library: old, destination: f.backup).run()
        let newer = try StudyLibrary(path: f.dir.path("newer.sqlite"))
        let recent = try f.session(9, tags: ["new"])
        try newer.add(recent)
        try newer.add(try f.session(2, tags: ["changed"]).with(title: "Renamed here"))
        try newer.setGoal(try DailyGoal(date: CalendarDay("2026-11-01"), minutes: 15))
        let thumbnail = try #require(recent.thumbnailPath)
        let before = try ChecksummedFile.sha256(of: thumbnail)
        try LibraryRestore(library: newer, source: f.backup).run()
        let sessions = try newer.sessions()
        #expect(Set(sessions.map(\.id)) == Set([1, 2, 9].map { UUID(uuidString: String(format: "0b8e2a1c-5a49-4a53-9d1c-%012d", $0))! }))
        #expect(sessions.first { $0.id == recent.id } == recent)
        #expect(sessions.first { $0.title == "Renamed here" }?.tags == ["changed"], "an existing session is never overwritten")
        #expect(try newer.goals().first?.minutes == 15, "an existing goal is never overwritten")
        #expect(try newer.goals().count == 2)
        #expect(Set(try newer.tagNames()) == ["new", "changed", "exam", "chem", "unused"])
        #expect(try ChecksummedFile.sha256(of: thumbnail) == before)
    }

    @Test("incremental: nothing changed reads and copies nothing; a changed file gets a new name while the old backup stays whole")
    func incremental() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        let library = try f.library(sessions: 2)
        try LibraryBackup(library: library, destination: f.backup).run()
        let second = try LibraryBackup(library: library, destination: f.backup).run()
        #expect(second.copiedFiles == 0 && second.unchangedFiles == 6 && second.removedFiles == 0)

        // Same bytes, new modification time: read again, not copied.
        let video = try library.sessions()[0].filePath
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_800_000_000)], ofItemAtPath: video)
        let touched = try LibraryBackup(library: library, destination: f.backup).run()
        #expect(touched.copiedFiles == 0 && touched.unchangedFiles == 5)

        // New content under the same name: copied beside the old file, the old one removed after backup.json.
        let before = try #require(try LibraryBackup.document(in: f.backup))
        let oldEntry = try #require(before.media.first { $0.sourcePath == video })
        _ = try f.media((video as NSString).lastPathComponent, bytes: 50_000, seed: 99)
        let changed = try LibraryBackup(library: library, destination: f.backup).run()
        #expect(changed.copiedFiles == 1 && changed.copiedBytes == 50_000 && changed.removedFiles == 1)
        let after = try #require(try LibraryBackup.document(in: f.backup))
        let newEntry = try #require(after.media.first { $0.sourcePath == video })
        #expect(newEntry.path != oldEntry.path && newEntry.sha256 != oldEntry.sha256)
        #expect(!FileManager.default.fileExists(atPath: f.backup + "/" + oldEntry.path))
        for entry in after.media { #expect(try ChecksummedFile.sha256(of: f.backup + "/" + entry.path) == entry.sha256) }
    }

    @Test("--auto: skipped under 24 h, runs after")
    func auto() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        let library = try f.library(sessions: 1)
        let now = Date()
        #expect(!(try LibraryBackup(library: library, destination: f.backup).run(auto: true, now: now).skippedAsRecent))
        #expect(try LibraryBackup(library: library, destination: f.backup).run(auto: true, now: now + 86_000).skippedAsRecent)
        #expect(!(try LibraryBackup(library: library, destination: f.backup).run(auto: true, now: now + 86_400).skippedAsRecent))
    }

    @Test("a damaged, newer or missing backup.json, and a damaged media file, change nothing")
    func damagedBackups() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        let library = try f.library(sessions: 2)
        try LibraryBackup(library: library, destination: f.backup).run()
        try f.removeMedia()
        let target = try StudyLibrary(path: f.dir.path("target.sqlite"))
        let json = f.backup + "/backup.json"
        let good = try Data(contentsOf: URL(fileURLWithPath: json))

        func refused(_ expected: String) throws {
            #expect { try LibraryRestore(library: target, source: f.backup).run() } throws: { "\($0)".contains(expected) }
            #expect(try target.sessions().isEmpty && target.tagNames().isEmpty && target.goals().isEmpty && target.materials().isEmpty)
            let placed = (try? FileManager.default.contentsOfDirectory(atPath: f.dir.path("media"))) ?? []
            #expect(placed.isEmpty, "no media placed: \(placed)")
        }
        try good.prefix(good.count - 40).write(to: URL(fileURLWithPath: json))
        try refused("damaged")
        var newer = try JSONSerialization.jsonObject(with: good) as! [String: Any]
        newer["formatVersion"] = 99
        try JSONSerialization.data(withJSONObject: newer).write(to: URL(fileURLWithPath: json))
        try refused("format 99, newer than this Reel")
        try FileManager.default.removeItem(atPath: json)
        try refused("holds no backup.json")

        // A media file with the right size but other bytes: caught by its checksum, nothing placed.
        try good.write(to: URL(fileURLWithPath: json))
        let document = try BackupDocument.decode(good)
        let victim = f.backup + "/" + document.media[document.media.count - 1].path
        var bytes = try Data(contentsOf: URL(fileURLWithPath: victim))
        bytes[bytes.count / 2] ^= 0xff
        try bytes.write(to: URL(fileURLWithPath: victim))
        try refused("the file is damaged")
        // And one missing.
        try FileManager.default.removeItem(atPath: victim)
        try refused("is missing")
    }

    @Test("a library made by the first schema backs up and restores with no loss")
    func firstSchema() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        let path = f.dir.path("old.sqlite")
        let video = try f.media("old.mp4", bytes: 1234, seed: 7)
        do {
            let raw = try OldLibrary.make(at: path, migrations: 1)
            try raw.run("""
                INSERT INTO study_session VALUES ('0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c0001', '2026-11-01T09:00:00.000Z',
                    '2026-11-01T10:00:00.250Z', 3000.5, 60.1, 'timelapse', 5, ?, NULL, NULL, 'Chemistry', 1)
                """, [video])
            try raw.run("INSERT INTO tag (name) VALUES ('exam')")
            try raw.run("INSERT INTO study_session_tag VALUES ('0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c0001', 1, 0)")
        }
        let old = try StudyLibrary(path: path)
        let records = try Self.contents(old)
        try LibraryBackup(library: old, destination: f.backup).run()
        try f.removeMedia()
        let fresh = try StudyLibrary(path: f.dir.path("fresh.sqlite"))
        try LibraryRestore(library: fresh, source: f.backup).run()
        #expect(try Self.contents(fresh) == records)
        #expect(try fresh.sessions().first?.recovered == true && fresh.sessions().first?.tags == ["exam"])
        #expect(ChecksummedFile.status(video)?.size == 1234)
    }

    @Test("SHA-256 through libcrypto matches sha256sum, streamed over several chunks")
    func checksum() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        let path = try f.media("big.bin", bytes: 3 << 20 | 17, seed: 3)
        let reference = try Subprocess.run("/usr/bin/sha256sum", [path]).stdout.prefix(64)
        #expect(try ChecksummedFile.sha256(of: path) == String(reference))
        let copy = try ChecksummedFile.copy(from: path, to: f.dir.path("copy/big.bin"))
        #expect(copy.sha256 == String(reference) && copy.size == 3 << 20 | 17)
        #expect(try ChecksummedFile.sha256(of: f.dir.path("copy/big.bin")) == String(reference))
        #expect(!FileManager.default.fileExists(atPath: f.dir.path("copy/.big.bin.partial")))
        #expect(throws: ChecksummedFile.Error.self) { try ChecksummedFile.sha256(of: f.dir.path("nope")) }
    }
}

extension StudySession {
    func with(title: String) -> StudySession {
        var copy = self
        copy.title = title
        return copy
    }
}
