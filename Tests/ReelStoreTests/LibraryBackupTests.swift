import Foundation
import ReelBackup
import ReelCore
import ReelStore
import ReelTestSupport
import Testing

/// Backup and restore in process: records and media checksums survive, restore only
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

        /// The checksum of every media file the library lists, by path.
        func checksums(_ library: StudyLibrary) throws -> [String: MediaChecksum] {
            var sums: [String: MediaChecksum] = [:]
            for s in try library.sessions() {
                for path in [s.filePath, s.thumbnailPath, s.faceTrackPath].compactMap({ $0 }) { sums[path] = try ChecksummedFile.checksum(of: path) }
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
        for entry in document.media { #expect(try ChecksummedFile.checksum(of: f.backup + "/" + entry.path) == entry.checksum) }

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
        let before = try ChecksummedFile.checksum(of: thumbnail)
        try LibraryRestore(library: newer, source: f.backup).run()
        let sessions = try newer.sessions()
        #expect(Set(sessions.map(\.id)) == Set([1, 2, 9].map { UUID(uuidString: String(format: "0b8e2a1c-5a49-4a53-9d1c-%012d", $0))! }))
        #expect(sessions.first { $0.id == recent.id } == recent)
        #expect(sessions.first { $0.title == "Renamed here" }?.tags == ["changed"], "an existing session is never overwritten")
        #expect(try newer.goals().first?.minutes == 15, "an existing goal is never overwritten")
        #expect(try newer.goals().count == 2)
        #expect(Set(try newer.tagNames()) == ["new", "changed", "exam", "chem", "unused"])
        #expect(try ChecksummedFile.checksum(of: thumbnail) == before)
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
        #expect(newEntry.path != oldEntry.path && newEntry.checksum != oldEntry.checksum)
        #expect(!FileManager.default.fileExists(atPath: f.backup + "/" + oldEntry.path))
        for entry in after.media { #expect(try ChecksummedFile.checksum(of: f.backup + "/" + entry.path) == entry.checksum) }
    }

    @Test("progress: told before the first file and after each, bytes adding up; answering false stops before the next file and the previous backup stays whole")
    func progressAndStop() throws {
        let fixture = try Fixture()
        defer { fixture.dir.cleanup() }
        let library = try fixture.library()
        var seen: [LibraryBackup.Progress] = []
        var backup = LibraryBackup(library: library, destination: fixture.backup)
        backup.progress = { seen.append($0); return true }
        _ = try backup.run()
        let files = 3 + 3 + 2  // videos, thumbnails, face tracks (session 3 has none)
        #expect(seen.map(\.filesDone) == Array(0...files))
        #expect(seen.allSatisfy { $0.filesTotal == files } && seen.last?.bytesDone == seen.last?.bytesTotal && seen.last?.next == nil)
        #expect(seen.first?.bytesDone == 0 && (seen.first?.bytesTotal ?? 0) > 120_000)
        let first = try #require(try LibraryBackup.document(in: fixture.backup))

        // A changed video: the next backup copies it and is stopped before its first file.
        try Data(repeating: 7, count: 50_000).write(to: URL(fileURLWithPath: try library.sessions()[0].filePath))
        var stopped = LibraryBackup(library: library, destination: fixture.backup)
        var calls = 0
        stopped.progress = { _ in calls += 1; return false }
        #expect { try stopped.run() } throws: { ($0 as? LibraryBackup.Error)?.isStopped == true }
        #expect(calls == 1)
        #expect(try LibraryBackup.document(in: fixture.backup) == first, "the previous backup is as it was")
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
        try refused("missing, though backup.json lists it")
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

    @Test("the review's edits travel with their session; --media-dir puts the added sessions' files in one folder and their records name it")
    func editsAndMediaFolder() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        let library = try f.library(sessions: 2)
        let reviewed = try library.sessions()[0]
        let edits = PrivacyEdits.path(forVideo: reviewed.filePath)
        try Data(#"{"version":1,"segments":[]}"#.utf8).write(to: URL(fileURLWithPath: edits))
        let report = try LibraryBackup(library: library, destination: f.backup).run()
        #expect(report.copiedFiles == 7 && report.missingSources.isEmpty, "one edits file beside 6 media; the unreviewed session is not missing one")
        let document = try #require(try LibraryBackup.document(in: f.backup))
        #expect(document.media.filter { $0.role == .reviewEdits }.map(\.sourcePath) == [edits])

        // Back where they were.
        let sums = try f.checksums(library)
        let editsSum = try ChecksummedFile.checksum(of: edits)
        try f.removeMedia()
        let fresh = try StudyLibrary(path: f.dir.path("fresh.sqlite"))
        #expect(try LibraryRestore(library: fresh, source: f.backup).run().media.count == 7)
        #expect(try f.checksums(fresh) == sums && ChecksummedFile.checksum(of: edits) == editsSum)

        // Elsewhere: a third library that already has session 2 (its file is missing) restores
        // session 1 into the folder and session 2's file to the path its record names.
        try f.removeMedia()
        let third = try StudyLibrary(path: f.dir.path("third.sqlite"))
        let kept = try library.sessions()[1]
        try third.add(kept)
        let folder = f.dir.path("elsewhere")
        let dry = try LibraryRestore(library: third, source: f.backup).run(dryRun: true, mediaFolder: folder)
        #expect(try !FileManager.default.fileExists(atPath: folder) && third.sessions().count == 1, "a dry run changes nothing")
        let moved = try LibraryRestore(library: third, source: f.backup).run(mediaFolder: folder)
        #expect(moved.media == dry.media)
        let sessions = try third.sessions()
        let placed = try #require(sessions.first { $0.id == reviewed.id })
        let name = (reviewed.filePath as NSString).lastPathComponent
        #expect(placed.filePath == folder + "/" + name && placed.thumbnailPath?.hasPrefix(folder + "/") == true && placed.faceTrackPath?.hasPrefix(folder + "/") == true)
        #expect(try ChecksummedFile.checksum(of: placed.filePath) == sums[reviewed.filePath])
        #expect(try ChecksummedFile.checksum(of: PrivacyEdits.path(forVideo: placed.filePath)) == editsSum)
        #expect(sessions.first { $0.id == kept.id } == kept, "a session the library had keeps its record")
        #expect(try ChecksummedFile.checksum(of: kept.filePath) == sums[kept.filePath])
        #expect(Set(moved.media) == Set([placed.filePath, placed.thumbnailPath!, placed.faceTrackPath!, PrivacyEdits.path(forVideo: placed.filePath),
                                         kept.filePath, kept.thumbnailPath!, kept.faceTrackPath!]))
    }

    @Test("a material's cover is backed up under Media/materials/<id>/, restored (or relocated with --media-dir), and a replaced cover's old copy pruned")
    func covers() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        let library = try f.library(sessions: 1)
        let cover = try f.media("notebook.jpg", bytes: 3000, seed: 77)
        let material = try StudyMaterial(isbn: nil, title: "My notebook", coverPath: cover, addedAt: Date(timeIntervalSince1970: 1_793_000_002))
        try library.addMaterial(material)
        let report = try LibraryBackup(library: library, destination: f.backup).run()
        #expect(report.copiedFiles == 4 && report.missingSources.isEmpty)
        let document = try #require(try LibraryBackup.document(in: f.backup))
        let entry = try #require(document.media.first { $0.role == .cover })
        #expect(entry.ownerID == material.id && entry.path == "Media/materials/\(material.id.uuidString.lowercased())/notebook.jpg")
        #expect(try String(contentsOfFile: f.backup + "/backup.json", encoding: .utf8).contains("\"materialID\" : \"\(material.id.uuidString)\""))
        let sum = try ChecksummedFile.checksum(of: cover)

        // A new cover under the same name: copied beside, the old copy pruned from the nested folder.
        _ = try f.media("notebook.jpg", bytes: 3100, seed: 78)
        let changed = try LibraryBackup(library: library, destination: f.backup).run()
        #expect(changed.copiedFiles == 1 && changed.removedFiles == 1)
        let folder = f.backup + "/Media/materials/" + material.id.uuidString.lowercased()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 1)
        let newSum = try ChecksummedFile.checksum(of: cover)
        #expect(newSum != sum)

        // Restored where it was; with --media-dir, into the folder and the record names it.
        try f.removeMedia()
        let fresh = try StudyLibrary(path: f.dir.path("fresh.sqlite"))
        try LibraryRestore(library: fresh, source: f.backup).run()
        #expect(try ChecksummedFile.checksum(of: cover) == newSum && fresh.materials().contains(material))
        try f.removeMedia()
        let third = try StudyLibrary(path: f.dir.path("third.sqlite"))
        try LibraryRestore(library: third, source: f.backup).run(mediaFolder: f.dir.path("elsewhere"))
        let placed = try #require(try third.materials().first { $0.id == material.id })
        #expect(try placed.coverPath == f.dir.path("elsewhere/notebook.jpg") && ChecksummedFile.checksum(of: f.dir.path("elsewhere/notebook.jpg")) == newSum)

        // A cover that disappeared is reported like any missing file; the rest is backed up.
        try FileManager.default.removeItem(atPath: f.dir.path("elsewhere/notebook.jpg"))
        let missing = try LibraryBackup(library: third, destination: f.dir.path("backup2")).run()
        #expect(missing.missingSources == [f.dir.path("elsewhere/notebook.jpg")])
    }

    @Test("pruning removes a symbolic link under Media/ as a link and never follows it")
    func pruneSymlinks() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        let library = try f.library(sessions: 1)
        try LibraryBackup(library: library, destination: f.backup).run()
        // Someone with access to the shared folder plants links to a folder and a file outside it.
        let outside = f.dir.path("outside")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: outside + "/precious.txt"))
        try FileManager.default.createSymbolicLink(atPath: f.backup + "/Media/planted", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: f.backup + "/Media/file-link", withDestinationPath: outside + "/precious.txt")
        let report = try LibraryBackup(library: library, destination: f.backup).run()
        #expect(report.removedFiles == 2)
        #expect(try String(contentsOfFile: outside + "/precious.txt", encoding: .utf8) == "keep me")
        #expect(!FileManager.default.fileExists(atPath: f.backup + "/Media/planted") && (try? FileManager.default.destinationOfSymbolicLink(atPath: f.backup + "/Media/planted")) == nil)
        _ = try #require(try LibraryBackup.document(in: f.backup))
    }

    @Test("a media path that cannot be created fails the restore, changes nothing and names --media-dir")
    func unreachableMediaPath() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        let library = try f.library(sessions: 1)
        try LibraryBackup(library: library, destination: f.backup).run()
        try f.removeMedia()
        // The media folder's place is now a plain file: nothing can be created under it (as root too).
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: f.dir.path("media")))
        let fresh = try StudyLibrary(path: f.dir.path("fresh.sqlite"))
        #expect { try LibraryRestore(library: fresh, source: f.backup).run() } throws: { "\($0)".contains("nothing was changed") && "\($0)".contains("--media-dir") }
        #expect(try fresh.sessions().isEmpty && fresh.tagNames().isEmpty)
        #expect(try LibraryRestore(library: fresh, source: f.backup).run(mediaFolder: f.dir.path("new")).plan.sessions.count == 1)
        #expect(try fresh.sessions().allSatisfy { $0.filePath.hasPrefix(f.dir.path("new") + "/") })
    }

    @Test("checksums: XXH3-128 matches xxhsum -H2 and SHA-256 matches sha256sum, streamed over several chunks; a copy checks the expected one")
    func checksum() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        let path = try f.media("big.bin", bytes: 3 << 20 | 17, seed: 3)
        let xxh = try #require(MediaChecksum(.xxh3, hex: String(try Subprocess.run("/usr/bin/xxhsum", ["-H2", path]).stdout.prefix(32))))
        let sha = try #require(MediaChecksum(.sha256, hex: String(try Subprocess.run("/usr/bin/sha256sum", [path]).stdout.prefix(64))))
        #expect(try ChecksummedFile.checksum(of: path) == xxh)
        #expect(try ChecksummedFile.checksum(of: path, .sha256) == sha)
        let empty = try f.media("empty.bin", bytes: 0, seed: 1)
        #expect(try ChecksummedFile.checksum(of: empty).description == "xxh3-128:99aa06d3014798d86001c324468d497f")

        let copy = try ChecksummedFile.copy(from: path, to: f.dir.path("copy/big.bin"))
        #expect(copy.checksum == xxh && copy.size == 3 << 20 | 17)
        #expect(try ChecksummedFile.checksum(of: f.dir.path("copy/big.bin")) == xxh)
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.dir.path("copy")) == ["big.bin"], "no temporary file is left")
        // A format-1 entry is checked with its own algorithm; a wrong one leaves nothing behind.
        #expect(try ChecksummedFile.copy(from: path, to: f.dir.path("copy/sha.bin"), expected: sha).checksum == sha)
        let wrong = try #require(MediaChecksum(.sha256, hex: String(repeating: "0", count: 64)))
        #expect { try ChecksummedFile.copy(from: path, to: f.dir.path("copy/bad.bin"), expected: wrong) } throws: { "\($0)".contains("the file is damaged") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.dir.path("copy")).sorted() == ["big.bin", "sha.bin"])
        #expect(throws: ChecksummedFile.Error.self) { try ChecksummedFile.checksum(of: f.dir.path("nope")) }
    }

    @Test("a format-1 backup (bare SHA-256) restores and its damage is caught; the next backup keeps its unchanged files and writes format 2")
    func formatOne() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        let library = try f.library(sessions: 2)
        try LibraryBackup(library: library, destination: f.backup).run()
        // Rewrite the folder as Reel's format 1 wrote it: `sha256` (bare hex) instead of `checksum`.
        let json = f.backup + "/backup.json"
        var object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as! [String: Any]
        object["formatVersion"] = 1
        object["media"] = try (object["media"] as! [[String: Any]]).map { entry in
            var old = entry
            old["checksum"] = nil
            old["sha256"] = try ChecksummedFile.checksum(of: f.backup + "/" + (entry["path"] as! String), .sha256).hex
            return old
        }
        let formatOne = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        try formatOne.write(to: URL(fileURLWithPath: json))
        let document = try BackupDocument.decode(formatOne)
        #expect(document.formatVersion == 1 && document.media.allSatisfy { $0.checksum.algorithm == .sha256 })

        // The next backup: nothing changed on disk → every entry kept as it is (SHA-256), none
        // read or copied; the document is rewritten as format 2.
        let again = try LibraryBackup(library: library, destination: f.backup).run()
        #expect(again.copiedFiles == 0 && again.unchangedFiles == document.media.count)
        let rewritten = try #require(try LibraryBackup.document(in: f.backup))
        #expect(rewritten.formatVersion == 2 && rewritten.media == document.media)
        #expect(try String(contentsOfFile: json, encoding: .utf8).contains("\"checksum\" : \"sha256:"))

        // That mixed document restores, each file checked with its own algorithm.
        let sums = try f.checksums(library)
        try f.removeMedia()
        let fresh = try StudyLibrary(path: f.dir.path("fresh.sqlite"))
        try LibraryRestore(library: fresh, source: f.backup).run()
        #expect(try Self.contents(fresh) == Self.contents(library))
        #expect(try f.checksums(fresh) == sums)

        // A damaged format-1 file is caught by SHA-256.
        try formatOne.write(to: URL(fileURLWithPath: json))
        let victim = f.backup + "/" + document.media[0].path
        var bytes = try Data(contentsOf: URL(fileURLWithPath: victim))
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: victim))
        try f.removeMedia()
        let target = try StudyLibrary(path: f.dir.path("target.sqlite"))
        #expect { try LibraryRestore(library: target, source: f.backup).run() } throws: { "\($0)".contains("sha256") && "\($0)".contains("the file is damaged") }
        #expect(try target.sessions().isEmpty)
    }
}

extension StudySession {
    func with(title: String) -> StudySession {
        var copy = self
        copy.title = title
        return copy
    }
}
