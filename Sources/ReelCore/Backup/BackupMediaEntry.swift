import Foundation

/// One media file in a backup (`backup.json`'s manifest): whose it is (a session's, or a study
/// material's cover), where it lies in the backup folder, its size and checksum, and the
/// source it was copied from with that source's size and modification time (so the next
/// backup can skip it without reading it again).
public struct BackupMediaEntry: Sendable, Equatable, Codable {
    /// What the file is to its owner.
    public enum Role: String, Sendable, Equatable, Codable, CaseIterable {
        /// The MP4.
        case video
        /// The JPEG.
        case thumbnail
        /// The face track.
        case faceTrack
        /// The review's edits (`NAME.privacy.json` beside the video), when the session has been
        /// reviewed (format 2 on).
        case reviewEdits
        /// A study material's cover image (format 2 on): its owner is the material.
        case cover

        /// Whether the owner is a study material (else a session).
        public var ownedByMaterial: Bool { self == .cover }
    }

    /// The session it belongs to — or, for a ``Role/cover``, the study material. In JSON
    /// `sessionID` or `materialID`.
    public var ownerID: UUID
    /// Its role.
    public var role: Role
    /// Path inside the backup folder, always `Media/…` (relative, no `..`).
    public var path: String
    /// Size in bytes.
    public var size: Int64
    /// Its checksum (XXH3-128; SHA-256 in entries written by format 1).
    public var checksum: MediaChecksum
    /// The library's path of the file when it was copied.
    public var sourcePath: String
    /// The source's modification time (seconds since 1970) when it was copied.
    public var sourceModified: Double

    /// An entry.
    public init(ownerID: UUID, role: Role, path: String, size: Int64, checksum: MediaChecksum, sourcePath: String, sourceModified: Double) {
        self.ownerID = ownerID
        self.role = role
        self.path = path
        self.size = size
        self.checksum = checksum
        self.sourcePath = sourcePath
        self.sourceModified = sourceModified
    }

    private enum CodingKeys: String, CodingKey {
        case sessionID, materialID, role, path, size, checksum, sourcePath, sourceModified
        /// Format 1's key: the SHA-256 as bare hex.
        case sha256
    }

    /// Reads `checksum` (format 2) or format 1's bare-hex `sha256`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        role = try container.decode(Role.self, forKey: .role)
        ownerID = try container.decode(UUID.self, forKey: role.ownedByMaterial ? .materialID : .sessionID)
        path = try container.decode(String.self, forKey: .path)
        size = try container.decode(Int64.self, forKey: .size)
        if container.contains(.checksum) {
            checksum = try container.decode(MediaChecksum.self, forKey: .checksum)
        } else {
            let hex = try container.decode(String.self, forKey: .sha256)
            guard let sha = MediaChecksum(.sha256, hex: hex) else {
                throw DecodingError.dataCorruptedError(forKey: .sha256, in: container, debugDescription: "'\(hex)' is not a SHA-256")
            }
            checksum = sha
        }
        sourcePath = try container.decode(String.self, forKey: .sourcePath)
        sourceModified = try container.decode(Double.self, forKey: .sourceModified)
    }

    /// Writes format 2: `checksum` as `algorithm:hex`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ownerID, forKey: role.ownedByMaterial ? .materialID : .sessionID)
        try container.encode(role, forKey: .role)
        try container.encode(path, forKey: .path)
        try container.encode(size, forKey: .size)
        try container.encode(checksum, forKey: .checksum)
        try container.encode(sourcePath, forKey: .sourcePath)
        try container.encode(sourceModified, forKey: .sourceModified)
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
