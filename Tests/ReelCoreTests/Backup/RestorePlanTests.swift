import Foundation
import ReelCore
import Testing

/// Restore's merge rules and the backup's policy and document, without I/O.
@Suite("RestorePlan, BackupPolicy, BackupDocument")
struct RestorePlanTests {
    static func id(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))! }

    static func session(_ n: Int, tags: [String] = []) -> StudySession {
        let start = Date(timeIntervalSince1970: 1_790_000_000 + Double(n) * 3600)
        return StudySession(id: id(n), startedAt: start, endedAt: start + 1800, activeSeconds: 1700, videoSeconds: 60, mode: .timelapse,
                            intervalSeconds: 5, filePath: "/lib/\(n).mp4", thumbnailPath: nil, faceTrackPath: nil, title: "S\(n)", tags: tags)
    }

    static func material(_ n: Int, isbn: String?) throws -> StudyMaterial {
        try StudyMaterial(id: id(100 + n), isbn: isbn, title: "Book \(n)", addedAt: Date(timeIntervalSince1970: 1_790_000_000))
    }

    static func document(sessions: [StudySession] = [], tags: [String] = [], goals: [DailyGoal] = [], materials: [StudyMaterial] = [],
                         media: [BackupMediaEntry] = []) -> BackupDocument {
        BackupDocument(createdAt: Date(timeIntervalSince1970: 1_790_100_000), libraryMigrations: ["0001"], sessions: sessions, tags: tags,
                       goals: goals, materials: materials, media: media)
    }

    @Test("adds only what is missing: sessions by id, tags by exact name, goals by date, materials by ISBN or id")
    func onlyAdds() throws {
        let day1 = try CalendarDay("2026-11-01"), day2 = try CalendarDay("2026-11-02")
        let backup = Self.document(
            sessions: [Self.session(1, tags: ["exam"]), Self.session(2, tags: ["Exam", "math"])],
            tags: ["exam", "spare"],
            goals: [try DailyGoal(date: day1, minutes: 30), try DailyGoal(date: day2, minutes: 90)],
            materials: [try Self.material(1, isbn: "9784003101018"), try Self.material(2, isbn: "9784101010014"), try Self.material(3, isbn: nil)])
        let existing = RestorePlan.Existing(sessionIDs: [Self.id(1)], tagNames: ["exam"], goalDates: [day1],
                                            materialISBNs: ["9784003101018"], materialIDs: [Self.id(103)])
        let plan = RestorePlan(backup: backup, existing: existing)
        #expect(plan.sessions.map(\.id) == [Self.id(2)])
        #expect(plan.tags == ["spare", "Exam", "math"])     // "Exam" is not "exam"
        #expect(plan.goals.map(\.date) == [day2])
        #expect(plan.goals.first?.minutes == 90)
        #expect(plan.materials.map(\.id) == [Self.id(102)])  // 101 by ISBN, 103 by id
        #expect(!plan.isEmpty)
    }

    @Test("a goal already set for a date is kept even when the backup's differs (never overwrite)")
    func goalNotOverwritten() throws {
        let day = try CalendarDay("2026-11-01")
        let plan = RestorePlan(backup: Self.document(goals: [try DailyGoal(date: day, minutes: 30)]), existing: .init(goalDates: [day]))
        #expect(plan.goals.isEmpty && plan.isEmpty)
    }

    @Test("a material with another id but the same ISBN is a duplicate; one without ISBN is matched by id only")
    func materialsByISBN() throws {
        let same = try Self.material(7, isbn: "9784003101018")
        let noISBN = try Self.material(8, isbn: nil)
        let plan = RestorePlan(backup: Self.document(materials: [same, noISBN]), existing: .init(materialISBNs: ["9784003101018"]))
        #expect(plan.materials == [noISBN])
    }

    @Test("duplicates inside the backup count once; restoring into what the plan produced adds nothing (idempotent)")
    func idempotent() throws {
        let day = try CalendarDay("2026-11-01")
        let backup = Self.document(sessions: [Self.session(1, tags: ["a"]), Self.session(1, tags: ["b"])], tags: ["a", "a"],
                                   goals: [try DailyGoal(date: day, minutes: 1), try DailyGoal(date: day, minutes: 2)],
                                   materials: [try Self.material(1, isbn: "9784003101018"), try Self.material(2, isbn: "9784003101018")])
        let first = RestorePlan(backup: backup, existing: .init())
        #expect(first.sessions.count == 1 && first.sessions[0].tags == ["a"])
        #expect(first.tags == ["a", "b"])
        #expect(first.goals.map(\.minutes) == [1])
        #expect(first.materials.count == 1)
        let after = RestorePlan.Existing(sessionIDs: Set(first.sessions.map(\.id)), tagNames: Set(first.tags), goalDates: Set(first.goals.map(\.date)),
                                         materialISBNs: Set(first.materials.compactMap(\.isbn)), materialIDs: Set(first.materials.map(\.id)))
        #expect(RestorePlan(backup: backup, existing: after).isEmpty)
    }

    @Test("--auto: due with no backup, at exactly 24 h and after, not before; a backup dated in the future is due")
    func autoInterval() {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        #expect(BackupPolicy.isAutoDue(lastBackup: nil, now: now))
        #expect(!BackupPolicy.isAutoDue(lastBackup: now - 3600, now: now))
        #expect(!BackupPolicy.isAutoDue(lastBackup: now - 86_399, now: now))
        #expect(BackupPolicy.isAutoDue(lastBackup: now - 86_400, now: now))
        #expect(BackupPolicy.isAutoDue(lastBackup: now + 600, now: now))
    }

    @Test("space: the files plus 1 MiB and 1 % must fit")
    func space() {
        #expect(BackupPolicy.margin(forCopying: 0) == 1 << 20)
        #expect(BackupPolicy.margin(forCopying: 100 << 20) == (1 << 20) + (1 << 20))
        #expect(BackupPolicy.fits(bytesToCopy: 0, available: 1 << 20))
        #expect(!BackupPolicy.fits(bytesToCopy: 0, available: (1 << 20) - 1))
        #expect(BackupPolicy.fits(bytesToCopy: 100 << 20, available: 102 << 20))
        #expect(!BackupPolicy.fits(bytesToCopy: 100 << 20, available: (102 << 20) - 1))
    }

    @Test("backup.json round-trips; a newer format, damaged JSON, a missing field and a path outside Media/ are clear errors")
    func document() throws {
        let entry = BackupMediaEntry(ownerID: Self.id(1), role: .video, path: "Media/x/1.mp4", size: 10, checksum: Self.checksum, sourcePath: "/lib/1.mp4",
                                     sourceModified: 1_790_000_000.25)
        let original = Self.document(sessions: [Self.session(1, tags: ["t"])], tags: ["t"], goals: [try DailyGoal(date: CalendarDay("2026-11-01"), minutes: 5)],
                                     materials: [try Self.material(1, isbn: "9784003101018")], media: [entry])
        let data = try original.encoded()
        #expect(try BackupDocument.decode(data) == original)
        #expect(String(decoding: data, as: UTF8.self).contains("\"path\" : \"Media/x/1.mp4\""))

        var newer = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        newer["formatVersion"] = 3
        #expect(throws: BackupDocument.Error.newerFormat(3)) { try BackupDocument.decode(try JSONSerialization.data(withJSONObject: newer)) }
        #expect(BackupDocument.Error.newerFormat(3).description.contains("update Reel"))

        #expect { try BackupDocument.decode(data.prefix(data.count / 2)) } throws: { error in
            guard let error = error as? BackupDocument.Error, case .corrupt = error else { return false }
            return error.description.contains("nothing was changed")
        }
        var missing = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        missing["sessions"] = nil
        #expect { try BackupDocument.decode(try JSONSerialization.data(withJSONObject: missing)) } throws: { error in
            "\(error)".contains("'sessions' missing")
        }
        for bad in ["../etc/passwd", "Media/../../x", "/abs", "Media/", "Other/x", "Media/./x"] {
            var escaped = original
            escaped.media[0].path = bad
            #expect(throws: BackupDocument.Error.unsafePath(bad)) { try BackupDocument.decode(try escaped.encoded()) }
        }
    }

    static let checksum = MediaChecksum(.xxh3, hex: "6ba30a4e9dffe1ff801fedc74ccd608c")!

    @Test("a checksum is algorithm:hex of the algorithm's length, lowercase; anything else is refused")
    func checksums() throws {
        let sha = String(repeating: "ab", count: 32)
        #expect(MediaChecksum("xxh3-128:6ba30a4e9dffe1ff801fedc74ccd608c") == Self.checksum)
        #expect(MediaChecksum("sha256:" + sha)?.algorithm == .sha256)
        #expect(Self.checksum.description == "xxh3-128:6ba30a4e9dffe1ff801fedc74ccd608c" && Self.checksum.short == "6ba30a4e9dff")
        for bad in ["6ba30a4e9dffe1ff801fedc74ccd608c", "xxh3-128:6BA30A4E9DFFE1FF801FEDC74CCD608C", "xxh3-128:6ba30a4e9dffe1ff801fedc74ccd608",
                    "xxh3-128:" + sha, "sha256:6ba30a4e9dffe1ff801fedc74ccd608c", "md5:6ba30a4e9dffe1ff801fedc74ccd608c", "xxh3-128:6ba30a4e9dffe1ff801fedc74ccd608g", ""] {
            #expect(MediaChecksum(bad) == nil, "\(bad)")
        }
    }

    @Test("format 1's bare-hex sha256 is read as a SHA-256 checksum; format 2 writes checksum; a malformed one is damage")
    func formatOneEntries() throws {
        let sha = String(repeating: "0f", count: 32)
        let one = #"{"sessionID": "00000000-0000-0000-0000-000000000001", "role": "video", "path": "Media/x/1.mp4", "size": 10, "sha256": "\#(sha)", "sourcePath": "/a", "sourceModified": 5.5}"#
        let entry = try JSONDecoder().decode(BackupMediaEntry.self, from: Data(one.utf8))
        #expect(entry.checksum == MediaChecksum(.sha256, hex: sha))
        let written = String(decoding: try JSONEncoder().encode(entry), as: UTF8.self)
        #expect(written.contains(#""checksum":"sha256:\#(sha)""#) && !written.contains(#""sha256""#))
        #expect(try JSONDecoder().decode(BackupMediaEntry.self, from: Data(written.utf8)) == entry)
        for bad in [one.replacingOccurrences(of: sha, with: "xyz"), one.replacingOccurrences(of: #""sha256": "\#(sha)", "#, with: ""),
                    written.replacingOccurrences(of: "sha256:", with: "sha1:")] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(BackupMediaEntry.self, from: Data(bad.utf8)) }
        }
    }

    @Test("a cover's owner is written as materialID, a session file's as sessionID; the wrong key is damage")
    func ownerKeys() throws {
        let cover = BackupMediaEntry(ownerID: Self.id(7), role: .cover, path: "Media/materials/x/c.jpg", size: 1, checksum: Self.checksum,
                                     sourcePath: "/c.jpg", sourceModified: 0)
        let json = String(decoding: try JSONEncoder().encode(cover), as: UTF8.self)
        #expect(json.contains(#""materialID":"\#(Self.id(7).uuidString)""#) && !json.contains("sessionID"))
        #expect(try JSONDecoder().decode(BackupMediaEntry.self, from: Data(json.utf8)) == cover)
        var video = cover
        video.role = .video
        let videoJSON = String(decoding: try JSONEncoder().encode(video), as: UTF8.self)
        #expect(videoJSON.contains("sessionID") && !videoJSON.contains("materialID"))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(BackupMediaEntry.self, from: Data(json.replacingOccurrences(of: "materialID", with: "sessionID").utf8))
        }
    }

    @Test("a manifest entry stands for its source only with the same path, size and modification time")
    func standsFor() {
        let entry = BackupMediaEntry(ownerID: Self.id(1), role: .video, path: "Media/x/1.mp4", size: 10, checksum: Self.checksum, sourcePath: "/a", sourceModified: 5.5)
        #expect(entry.standsFor(sourcePath: "/a", size: 10, modified: 5.5))
        #expect(!entry.standsFor(sourcePath: "/a", size: 11, modified: 5.5))
        #expect(!entry.standsFor(sourcePath: "/a", size: 10, modified: 5.6))
        #expect(!entry.standsFor(sourcePath: "/b", size: 10, modified: 5.5))
    }
}
