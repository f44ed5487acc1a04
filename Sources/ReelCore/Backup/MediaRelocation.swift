import Foundation

/// `reel restore --media-dir DIR`: the sessions and study materials a restore adds get their
/// files (a material: its cover) in `DIR` instead of the paths they had on the machine that
/// made the backup (another user name, another disk). Pure: what exists on disk comes in as a
/// function.
///
/// Every file of a session keeps its name; the review's edits stay `NAME.privacy.json` beside
/// the video (the export finds them there; a foreign edits file beside a video would be applied
/// to it, so that name counts too). When any of an owner's names is taken — on disk,
/// or by one placed earlier in the same restore — all its files get its id's first 8 hex
/// digits in front (`1a2b3c4d-NAME.mp4`), then the whole id; nothing is ever placed over a
/// file. Sessions and materials already in the library are not relocated: their records are
/// never changed, so their missing files go back to the paths the records name.
public struct MediaRelocation: Sendable, Equatable {
    /// No free names for a session's or a material's files.
    public struct Error: Swift.Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    /// The folder the files go to.
    public let folder: String
    private var paths: [UUID: [BackupMediaEntry.Role: String]] = [:]

    /// Places the files of `sessions` and the covers of `materials` (those the restore adds)
    /// in `folder`; `exists` tells whether a path is taken.
    public init(sessions: [StudySession], materials: [StudyMaterial] = [], into folder: String, exists: (String) -> Bool) throws(Error) {
        self.folder = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        var claimed = Set<String>()
        func place(_ owner: UUID, _ what: String, _ paths: (String) -> [BackupMediaEntry.Role: String]) throws(Error) {
            let id = owner.uuidString.lowercased()
            for prefix in ["", String(id.prefix(8)) + "-", id + "-"] {
                let candidate = paths(prefix)
                if candidate.values.allSatisfy({ !exists($0) && !claimed.contains($0) }) {
                    claimed.formUnion(candidate.values)
                    self.paths[owner] = candidate
                    return
                }
            }
            throw Error(description: "\(self.folder): the names of \(what) \(id)'s files are taken, also with its id in front; give another --media-dir")
        }
        for session in sessions {
            try place(session.id, "session") { Self.paths(of: session, in: self.folder, prefix: $0) }
        }
        for material in materials {
            guard let cover = material.coverPath else { continue }
            try place(material.id, "material") { [.cover: self.folder + "/" + $0 + (cover as NSString).lastPathComponent] }
        }
    }

    /// The session with its paths in the folder (unchanged when it is not relocated).
    public func relocated(_ session: StudySession) -> StudySession {
        guard let placed = paths[session.id] else { return session }
        var moved = session
        moved.filePath = placed[.video] ?? session.filePath
        moved.thumbnailPath = session.thumbnailPath.flatMap { _ in placed[.thumbnail] }
        moved.faceTrackPath = session.faceTrackPath.flatMap { _ in placed[.faceTrack] }
        return moved
    }

    /// The material with its cover in the folder (unchanged when it is not relocated).
    public func relocated(_ material: StudyMaterial) -> StudyMaterial {
        guard let cover = paths[material.id]?[.cover] else { return material }
        var moved = material
        moved.coverPath = cover
        return moved
    }

    /// Where a backed-up file goes: its place in the folder, or nil when its owner is not
    /// relocated (it goes back to ``BackupMediaEntry/sourcePath``).
    public func destination(of entry: BackupMediaEntry) -> String? {
        paths[entry.ownerID]?[entry.role]
    }

    private static func paths(of session: StudySession, in folder: String, prefix: String) -> [BackupMediaEntry.Role: String] {
        func place(_ path: String) -> String { folder + "/" + prefix + (path as NSString).lastPathComponent }
        let video = place(session.filePath)
        var placed: [BackupMediaEntry.Role: String] = [.video: video, .reviewEdits: PrivacyEdits.path(forVideo: video)]
        if let thumbnail = session.thumbnailPath { placed[.thumbnail] = place(thumbnail) }
        if let track = session.faceTrackPath { placed[.faceTrack] = place(track) }
        return placed
    }
}
