import Foundation

/// One media file in a backup (`backup.json`'s manifest): where it lies in the backup folder,
/// its size and SHA-256, and the source it was copied from with that source's size and
/// modification time (so the next backup can skip it without reading it again).
public struct BackupMediaEntry: Sendable, Equatable, Codable {
    /// What the file is to its session.
    public enum Role: String, Sendable, Equatable, Codable, CaseIterable {
        /// The MP4.
        case video
        /// The JPEG.
        case thumbnail
        /// The face track.
        case faceTrack
    }

    /// The session it belongs to.
    public var sessionID: UUID
    /// Its role.
    public var role: Role
    /// Path inside the backup folder, always `Media/…` (relative, no `..`).
    public var path: String
    /// Size in bytes.
    public var size: Int64
    /// SHA-256, lowercase hex.
    public var sha256: String
    /// The library's path of the file when it was copied.
    public var sourcePath: String
    /// The source's modification time (seconds since 1970) when it was copied.
    public var sourceModified: Double

    /// An entry.
    public init(sessionID: UUID, role: Role, path: String, size: Int64, sha256: String, sourcePath: String, sourceModified: Double) {
        self.sessionID = sessionID
        self.role = role
        self.path = path
        self.size = size
        self.sha256 = sha256
        self.sourcePath = sourcePath
        self.sourceModified = sourceModified
    }

    /// True when ``path`` is `Media/` followed by plain names (no `..`, `.`, or empty parts).
    public var isSafePath: Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts[0] == "Media" && parts.dropFirst().allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    /// Whether the previous copy still stands for a source now of `size` bytes modified at
    /// `modified`: the same source path, size and modification time (the checksum cache rule).
    public func standsFor(sourcePath: String, size: Int64, modified: Double) -> Bool {
        self.sourcePath == sourcePath && self.size == size && self.sourceModified == modified
    }
}
