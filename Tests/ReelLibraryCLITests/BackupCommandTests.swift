import Foundation
import ReelBackup
import ReelCore
import ReelStore
import ReelTestSupport
import Testing

/// `reel backup` and `reel restore` through the real binary: the round trip, --auto,
/// the mistakes, a destination too small (a tmpfs in a private mount namespace: root needed),
/// and SIGKILL at seeded moments leaving the previous backup or the new one, never a mix.
@Suite("reel backup, reel restore", .serialized)
struct BackupCommandTests {
    struct Home {
        let dir: TemporaryDirectory
        var library: String { dir.path("lib/library.sqlite") }
        var backup: String { dir.path("backup") }
        var environment: [String: String] {
            ["XDG_DATA_HOME": dir.path("data"), "XDG_STATE_HOME": dir.path("state"), "HOME": dir.path("home"), "TZ": "Asia/Tokyo", "REEL_BACKUP_DIR": ""]
        }
        init() throws { dir = try TemporaryDirectory() }

        func reel(_ arguments: [String], library: String? = nil) throws -> Subprocess {
            try ReelBinary.run(arguments + ["--library", library ?? self.library], environment: environment)
        }

        /// Writes `bytes` of seeded noise to `path`: a 64 KiB block of noise repeated, each
        /// repetition stamped with its index (every file and every block differs; cheap to make).
        func noise(_ path: String, bytes: Int, seed: UInt64) throws {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            var random = SplitMix64(seed: seed)
            let words = 8192
            var block = [UInt64](repeating: 0, count: words)
            for i in block.indices { block[i] = random.next() }
            FileManager.default.createFile(atPath: path, contents: nil)
            let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? file.close() }
            var written = 0, index: UInt64 = 0
            while written < bytes {
                block[0] = index ^ seed
                let count = min(words * 8, bytes - written)
                try file.write(contentsOf: block.withUnsafeBytes { Data($0.prefix(count)) })
                written += count
                index += 1
            }
        }

        /// Adds `count` sessions whose videos are `videoBytes` of noise (and a thumbnail each).
        func sessions(_ count: Int, videoBytes: Int) throws {
            let library = try StudyLibrary(path: library)
            for n in 1...count {
                let video = dir.path("media/\(n).mp4"), thumbnail = dir.path("media/\(n).jpg")
                try noise(video, bytes: videoBytes + n, seed: UInt64(n))
                try noise(thumbnail, bytes: 2000, seed: UInt64(10_000 + n))
                let start = Date(timeIntervalSince1970: 1_793_523_600 + Double(n) * 3600)
                try library.add(StudySession(id: UUID(uuidString: String(format: "0b8e2a1c-5a49-4a53-9d1c-%012d", n))!, startedAt: start,
                                             endedAt: start + 1800, activeSeconds: 1700, videoSeconds: 60, mode: .timelapse, intervalSeconds: 5,
                                             filePath: video, thumbnailPath: thumbnail, faceTrackPath: nil, title: "S\(n)", tags: ["exam"]))
            }
            try library.setGoal(try DailyGoal(date: CalendarDay("2026-11-01"), minutes: 60))
            try library.addMaterial(try StudyMaterial(isbn: "978-4-00-310101-8", title: "坊っちゃん", addedAt: Date(timeIntervalSince1970: 1_793_000_000)))
        }
    }

    /// The backup in `folder` is consistent: backup.json parses and every file it lists is there with its checksum.
    static func consistent(_ folder: String) throws -> BackupDocument {
        let document = try #require(try LibraryBackup.document(in: folder), "no backup.json in \(folder)")
        for entry in document.media {
            let status = try #require(ChecksummedFile.status(folder + "/" + entry.path), "\(entry.path) is listed but missing")
            #expect(status.size == entry.size, "\(entry.path)")
            #expect(try ChecksummedFile.checksum(of: folder + "/" + entry.path) == entry.checksum, "\(entry.path)")
        }
        return document
    }

    @Test("backup → new library → restore through the binary; --dry-run; --auto; a second restore adds nothing")
    func roundTrip() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        try home.sessions(3, videoBytes: 100_000)
        let first = try home.reel(["backup", "--to", home.backup])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "backed up 3 sessions, 1 tag, 1 goal, 1 material to \(home.backup)\nmedia: 6 copied (298.8 KiB), 0 unchanged\n")
        let auto = try home.reel(["backup", "--to", home.backup, "--auto"])
        #expect(auto.status == 0 && auto.stdout.hasPrefix("backup skipped: the last one in \(home.backup) is under an hour old"))
        let again = try home.reel(["backup", "--to", home.backup])
        #expect(again.stdout.hasSuffix("media: 0 copied (0 B), 6 unchanged\n"))
        _ = try Self.consistent(home.backup)

        let videos = (1...3).map { home.dir.path("media/\($0).mp4") }
        let sums = try videos.map { try ChecksummedFile.checksum(of: $0) }
        try FileManager.default.removeItem(atPath: home.dir.path("media"))
        let other = home.dir.path("other/library.sqlite")
        let dry = try home.reel(["restore", "--from", home.backup, "--dry-run"], library: other)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("would add session 0b8e2a1c") && dry.stdout.contains("would add tag 'exam'")
                && dry.stdout.contains("would add material '坊っちゃん' (ISBN 9784003101018)") && dry.stdout.contains("would copy \(videos[0])"))
        #expect(dry.stdout.hasSuffix("dry run: 3 sessions, 1 tag, 1 goal, 1 material, 6 media files\n"))
        #expect(!FileManager.default.fileExists(atPath: videos[0]))
        let restored = try home.reel(["restore", "--from", home.backup], library: other)
        #expect(restored.status == 0 && restored.stdout.hasSuffix("3 sessions, 1 tag, 1 goal, 1 material, 6 media files\n"), "\(restored.stderr)")
        #expect(try videos.map { try ChecksummedFile.checksum(of: $0) } == sums)
        #expect(try StudyLibrary(path: other).sessions() == StudyLibrary(path: home.library).sessions())
        let twice = try home.reel(["restore", "--from", home.backup], library: other)
        #expect(twice.status == 0 && twice.stdout == "nothing to restore: the library already has everything in \(home.backup)\n")
    }

    @Test("restore with a file missing and one damaged in the backup: both listed, nothing changed; --skip-missing restores the rest")
    func skipMissing() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        try home.sessions(3, videoBytes: 5000)
        #expect(try home.reel(["backup", "--to", home.backup]).status == 0)
        let document = try Self.consistent(home.backup)
        let videos = (1...3).map { home.dir.path("media/\($0).mp4") }
        let gone = try #require(document.media.first { $0.sourcePath == videos[1] })
        let damaged = try #require(document.media.first { $0.sourcePath == videos[2] })
        try FileManager.default.removeItem(atPath: home.backup + "/" + gone.path)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: home.backup + "/" + damaged.path))
        bytes[100] ^= 0xFF  // same size: only the checksum finds it
        try bytes.write(to: URL(fileURLWithPath: home.backup + "/" + damaged.path))
        try FileManager.default.removeItem(atPath: home.dir.path("media"))

        let other = home.dir.path("other/library.sqlite")
        let refused = try home.reel(["restore", "--from", home.backup], library: other)
        #expect(refused.status == 1 && refused.stderr.contains(gone.path) && refused.stderr.contains("--skip-missing")
                && refused.stderr.contains("nothing was changed"), "\(refused.stderr)")
        #expect(try StudyLibrary(path: other).sessions().isEmpty && !FileManager.default.fileExists(atPath: videos[0]))
        let dry = try home.reel(["restore", "--from", home.backup, "--dry-run"], library: other)
        #expect(dry.status == 1 && dry.stderr.contains("1 file of the backup cannot be restored"), "a dry run finds the missing file (the damaged one only shows when copied): \(dry.stderr)")

        let rest = try home.reel(["restore", "--from", home.backup, "--skip-missing"], library: other)
        #expect(rest.status == 0, "\(rest.stderr)")
        #expect(rest.stderr.contains("left out \(home.backup)/\(gone.path): missing") && rest.stderr.contains("left out \(home.backup)/\(damaged.path): its checksum"),
                "\(rest.stderr)")
        #expect(rest.stdout.hasSuffix("3 sessions, 1 tag, 1 goal, 1 material, 4 media files, 2 left out (missing or damaged in the backup)\n"), "\(rest.stdout)")
        #expect(try StudyLibrary(path: other).sessions().count == 3)
        #expect(FileManager.default.fileExists(atPath: videos[0]) && !FileManager.default.fileExists(atPath: videos[1])
                && !FileManager.default.fileExists(atPath: videos[2]))
        #expect(try ChecksummedFile.checksum(of: videos[0]) == document.media.first { $0.sourcePath == videos[0] }!.checksum)
        // No temporary copy is left beside the files.
        let left = try FileManager.default.contentsOfDirectory(atPath: home.dir.path("media"))
        #expect(left.allSatisfy { !$0.hasPrefix(".") }, "\(left)")
    }

    @Test("restore --media-dir: the added sessions' files go to the folder and their records name it; an unreachable original path names the option")
    func mediaDir() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        try home.sessions(2, videoBytes: 5000)
        #expect(try home.reel(["backup", "--to", home.backup]).status == 0)
        let sums = try (1...2).map { try ChecksummedFile.checksum(of: home.dir.path("media/\($0).mp4")) }
        try FileManager.default.removeItem(atPath: home.dir.path("media"))
        // Another machine: the original folder cannot be made (its place is a file).
        try Data("a file".utf8).write(to: URL(fileURLWithPath: home.dir.path("media")))
        let other = home.dir.path("other/library.sqlite")
        let refused = try home.reel(["restore", "--from", home.backup], library: other)
        #expect(refused.status == 1 && refused.stderr.contains("nothing was changed") && refused.stderr.contains("--media-dir DIR"), "\(refused.stderr)")
        #expect(try StudyLibrary(path: other).sessions().isEmpty)

        let folder = home.dir.path("videos")
        let restored = try home.reel(["restore", "--from", home.backup, "--media-dir", folder], library: other)
        #expect(restored.status == 0 && restored.stdout.contains("copied \(folder)/1.mp4\n") && restored.stdout.hasSuffix("4 media files\n"), "\(restored.stdout)\(restored.stderr)")
        let sessions = try StudyLibrary(path: other).sessions().sorted { $0.startedAt < $1.startedAt }
        #expect(sessions.map(\.filePath) == ["\(folder)/1.mp4", "\(folder)/2.mp4"] && sessions.map(\.thumbnailPath) == ["\(folder)/1.jpg", "\(folder)/2.jpg"])
        #expect(try sessions.map { try ChecksummedFile.checksum(of: $0.filePath) } == sums)
        let help = try home.reel(["restore", "--help"])
        #expect(help.stdout.contains("--media-dir DIR"))
    }

    @Test("mistakes: no destination exits 64; REEL_BACKUP_DIR is the default; a newer backup.json exits 1 and changes nothing")
    func mistakes() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        try home.sessions(1, videoBytes: 1000)
        let none = try home.reel(["backup"])
        #expect(none.status == 64 && none.stderr.contains("--to DIR (or REEL_BACKUP_DIR)"), "\(none.stderr)")
        let viaEnvironment = try ReelBinary.run(["backup", "--library", home.library], environment: home.environment.merging(["REEL_BACKUP_DIR": home.backup]) { $1 })
        #expect(viaEnvironment.status == 0 && FileManager.default.fileExists(atPath: home.backup + "/backup.json"), "\(viaEnvironment.stderr)")
        #expect(try home.reel(["restore"]).status == 64)

        let json = home.backup + "/backup.json"
        var object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as! [String: Any]
        object["formatVersion"] = 7
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: json))
        let other = home.dir.path("other/library.sqlite")
        let newer = try home.reel(["restore", "--from", home.backup], library: other)
        #expect(newer.status == 1 && newer.stderr.contains("format 7, newer than this Reel reads (2); update Reel — nothing was changed"), "\(newer.stderr)")
        #expect(try StudyLibrary(path: other).sessions().isEmpty)
        let backupOverNewer = try home.reel(["backup", "--to", home.backup])
        #expect(backupOverNewer.status == 1 && backupOverNewer.stderr.contains("written by a newer Reel (format 7)"))
        try "{\"formatVersion\": 1, \"sessions\": [".write(toFile: json, atomically: true, encoding: .utf8)
        let corrupt = try home.reel(["restore", "--from", home.backup], library: other)
        #expect(corrupt.status == 1 && corrupt.stderr.contains("backup.json is damaged"), "\(corrupt.stderr)")
        #expect(try StudyLibrary(path: other).sessions().isEmpty)
    }

    @Test("a destination without room fails before copying, with the numbers (4 MiB tmpfs in a private mount namespace; root)")
    func noSpace() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        try home.sessions(2, videoBytes: 3 << 20)
        try FileManager.default.createDirectory(atPath: home.backup, withIntermediateDirectories: true)
        let script = #"mount -t tmpfs -o size=4m reel-test-backup "$1" || exit 97; "$2" backup --to "$1" --library "$3"; status=$?; echo "files: $(find "$1" -type f | wc -l)"; exit $status"#
        let result = try Subprocess.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh",
                                                             home.backup, try ReelBinary.path(), home.library], environment: home.environment)
        #expect(result.status != 97, "could not mount a tmpfs (root and util-linux's unshare needed): \(result.stderr)")
        #expect(result.status == 1)
        #expect(result.stderr.contains("lacks the space: 4 files to copy need 7.1 MiB (6.0 MiB of media plus 1.1 MiB margin), 4.0 MiB are free"), "\(result.stderr)")
        #expect(result.stdout.hasSuffix("files: 0\n"), "nothing copied: \(result.stdout)")
    }

    @Test("SIGKILL at 10 seeded moments (5 mid-copy, 5 after the last copy): the folder always holds the previous consistent backup or the new one")
    func killed() async throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let count = 20
        try home.sessions(count, videoBytes: 32 << 20)
        // A new content for every video before each run: one byte flipped at an offset of its
        // own (so every version differs from all before it and every run copies all 20).
        func mutate(_ generation: Int) throws {
            for n in 1...count {
                let fd = open(home.dir.path("media/\(n).mp4"), O_RDWR)
                defer { close(fd) }
                var byte: UInt8 = 0
                let offset = off_t(4096 * (generation + 2) + n)
                #expect(pread(fd, &byte, 1, offset) == 1)
                byte ^= 0xff
                #expect(pwrite(fd, &byte, 1, offset) == 1)
            }
        }
        let first = try home.reel(["backup", "--to", home.backup])
        #expect(first.status == 0, "\(first.stderr)")
        // A full run over changed contents (its time is printed with the outcomes).
        try mutate(-1)
        let clock = ContinuousClock()
        let start = clock.now
        let timed = try home.reel(["backup", "--to", home.backup])
        let full = clock.now - start
        #expect(timed.status == 0 && timed.stdout.contains("media: \(count) copied"), "\(timed.stdout)\(timed.stderr)")
        var previous = try Data(contentsOf: URL(fileURLWithPath: home.backup + "/backup.json"))
        var random = SplitMix64(seed: 20261130)
        var outcomes: [String] = []
        /// Copies put in place under Media/ since `start` (not the hidden .partial ones).
        func placed(since start: Date) -> Int {
            let media = home.backup + "/Media"
            let names = FileManager.default.enumerator(atPath: media)?.allObjects as? [String] ?? []
            return names.filter { name in
                guard !(name as NSString).lastPathComponent.hasPrefix("."),
                      let attributes = try? FileManager.default.attributesOfItem(atPath: media + "/" + name),
                      attributes[.type] as? FileAttributeType == .typeRegular,
                      let modified = attributes[.modificationDate] as? Date else { return false }
                return modified >= start
            }.count
        }
        for run in 0..<10 {
            try mutate(run)
            let current = try (1...count).map { try ChecksummedFile.checksum(of: home.dir.path("media/\($0).mp4")) }
            let runStart = Date()
            let process = try BackgroundProcess(try ReelBinary.path(), ["backup", "--to", home.backup, "--library", home.library], environment: home.environment)
            if run % 2 == 0 {
                // Even runs: once a seeded number (1…count/2) of this run's copies are in
                // place — mid-copy, before the new backup.json, whatever the run's speed. The
                // wait blocks this thread (usleep), not a task: the task pool may be busy with
                // other suites and resume a sleeping task late.
                let wanted = 1 + Int(random.next() % UInt64(count / 2))
                while placed(since: runStart) < wanted && process.isRunning { usleep(1000) }
            } else {
                // Odd runs: once every copy is in place, after a seeded 0–60 ms — the sync, the
                // document's replacement, the pruning, or just after the end.
                while placed(since: runStart) < count && process.isRunning { usleep(1000) }
                usleep(useconds_t(random.next() % 60) * 1000)
            }
            process.send(SIGKILL)
            let ended = await process.wait(timeout: .seconds(60))
            let document = try Self.consistent(home.backup)
            let now = try Data(contentsOf: URL(fileURLWithPath: home.backup + "/backup.json"))
            let videos = document.media.filter { $0.role == .video }.sorted { $0.sourcePath < $1.sourcePath }
            if now == previous {
                outcomes.append("previous")
            } else {
                // The new backup: its videos are the contents swapped in for this run.
                let expected = Dictionary(uniqueKeysWithValues: (1...count).map { (home.dir.path("media/\($0).mp4"), current[$0 - 1]) })
                #expect(videos.count == count && videos.allSatisfy { expected[$0.sourcePath] == $0.checksum }, "run \(run): neither the previous backup nor the new one")
                outcomes.append(ended.status == 0 ? "finished" : "new")
            }
            previous = now
        }
        // The even runs' kills land in the middle of copying (on a loaded machine one may come
        // late; the check above holds in all runs either way).
        #expect(outcomes.enumerated().filter { $0.offset % 2 == 0 && $0.element == "previous" }.count >= 3, "\(outcomes); a full run took \(full)")
        print("kill outcomes: \(outcomes), a full run took \(full)")
    }
}
