import Foundation
import ReelCore
import Testing

/// `reel restore --media-dir`: where the added sessions' files go, without I/O.
@Suite("MediaRelocation")
struct MediaRelocationTests {
    static func session(_ n: Int, folder: String = "/home/alice/.local/share/reel/recordings", thumbnail: Bool = true, track: Bool = true) -> StudySession {
        var session = RestorePlanTests.session(n)
        session.id = UUID(uuidString: String(format: "%08x-0000-4000-8000-%012d", 0x1a2b_3c40 + n, n))!   // distinct first 8 digits
        session.filePath = "\(folder)/reel-\(n).mp4"
        session.thumbnailPath = thumbnail ? "\(folder)/reel-\(n).jpg" : nil
        session.faceTrackPath = track ? "\(folder)/reel-\(n).faces.json" : nil
        return session
    }

    static func entry(_ session: StudySession, _ role: BackupMediaEntry.Role) -> BackupMediaEntry {
        BackupMediaEntry(ownerID: session.id, role: role, path: "Media/x/y", size: 1, checksum: RestorePlanTests.checksum,
                         sourcePath: "/home/alice/whatever", sourceModified: 0)
    }

    @Test("files keep their names in the folder, the edits beside the video; the records name the new paths")
    func keepsNames() throws {
        let one = Self.session(1), bare = Self.session(2, thumbnail: false, track: false)
        let relocation = try MediaRelocation(sessions: [one, bare], into: "/home/bob/videos/", exists: { _ in false })
        let moved = relocation.relocated(one)
        #expect(moved.filePath == "/home/bob/videos/reel-1.mp4" && moved.thumbnailPath == "/home/bob/videos/reel-1.jpg"
                && moved.faceTrackPath == "/home/bob/videos/reel-1.faces.json")
        #expect(moved.id == one.id && moved.title == one.title && moved.startedAt == one.startedAt)
        #expect(relocation.destination(of: Self.entry(one, .reviewEdits)) == "/home/bob/videos/reel-1.privacy.json")
        #expect(relocation.destination(of: Self.entry(one, .video)) == moved.filePath)
        let movedBare = relocation.relocated(bare)
        #expect(movedBare.thumbnailPath == nil && movedBare.faceTrackPath == nil && movedBare.filePath == "/home/bob/videos/reel-2.mp4")
        // A session the restore does not add is left alone, and its files go back where they were.
        let other = Self.session(3)
        #expect(relocation.relocated(other) == other && relocation.destination(of: Self.entry(other, .video)) == nil)
    }

    @Test("a taken name (on disk or by an earlier session of the same restore) puts the id in front of all the session's files; never over a file")
    func takenNames() throws {
        let first = Self.session(1, folder: "/a"), twin = Self.session(2, folder: "/b")
        var sameNames = twin
        sameNames.filePath = "/b/reel-1.mp4"
        sameNames.thumbnailPath = "/b/reel-1.jpg"
        sameNames.faceTrackPath = nil
        // Only the thumbnail's name is taken on disk: every file of the session moves together.
        let taken: Set<String> = ["/new/reel-1.jpg"]
        let relocation = try MediaRelocation(sessions: [first, sameNames], into: "/new", exists: { taken.contains($0) })
        let id1 = first.id.uuidString.lowercased().prefix(8), id2 = sameNames.id.uuidString.lowercased().prefix(8)
        #expect(relocation.relocated(first).filePath == "/new/\(id1)-reel-1.mp4" && relocation.relocated(first).thumbnailPath == "/new/\(id1)-reel-1.jpg")
        #expect(relocation.destination(of: Self.entry(first, .reviewEdits)) == "/new/\(id1)-reel-1.privacy.json")
        // The second session's thumbnail name is the same taken one: it gets its own id.
        #expect(relocation.relocated(sameNames).filePath == "/new/\(id2)-reel-1.mp4")

        // Two sessions with the same names and nothing on disk: the first gets the plain names.
        let both = try MediaRelocation(sessions: [first, sameNames], into: "/new", exists: { _ in false })
        #expect(both.relocated(first).filePath == "/new/reel-1.mp4" && both.relocated(sameNames).filePath == "/new/\(id2)-reel-1.mp4")

        // The plain and the short-id names taken: the whole id; all taken: a clear error.
        let full = first.id.uuidString.lowercased()
        let crowded: Set<String> = ["/new/reel-1.mp4", "/new/\(id1)-reel-1.faces.json"]
        #expect(try MediaRelocation(sessions: [first], into: "/new", exists: { crowded.contains($0) }).relocated(first).filePath == "/new/\(full)-reel-1.mp4")
        #expect(throws: MediaRelocation.Error.self) { try MediaRelocation(sessions: [first], into: "/new", exists: { $0.hasSuffix(".privacy.json") }) }
        #expect { try MediaRelocation(sessions: [first], into: "/new", exists: { _ in true }) } throws: { "\($0)".contains("give another --media-dir") }
    }

    @Test("a material's cover goes to the folder under its name (its id in front when taken); one without a cover is left alone")
    func covers() throws {
        let book = try StudyMaterial(id: UUID(uuidString: "abcdef01-0000-4000-8000-000000000001")!, isbn: nil, title: "Notes",
                                     coverPath: "/home/alice/.local/share/reel/covers/notes.jpg", addedAt: Date(timeIntervalSince1970: 0))
        let bare = try StudyMaterial(isbn: nil, title: "Bare", addedAt: Date(timeIntervalSince1970: 0))
        let relocation = try MediaRelocation(sessions: [Self.session(1)], materials: [book, bare], into: "/new", exists: { $0 == "/new/notes.jpg" })
        #expect(relocation.relocated(book).coverPath == "/new/abcdef01-notes.jpg")
        #expect(relocation.relocated(bare) == bare)
        let cover = BackupMediaEntry(ownerID: book.id, role: .cover, path: "Media/materials/x/notes.jpg", size: 1, checksum: RestorePlanTests.checksum,
                                     sourcePath: "/home/alice/.local/share/reel/covers/notes.jpg", sourceModified: 0)
        #expect(relocation.destination(of: cover) == "/new/abcdef01-notes.jpg")
    }
}
