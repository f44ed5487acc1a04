import Foundation

/// `backup.json`: every record of the library and a manifest of the media
/// copied beside it under `Media/`. Versioned by ``formatVersion``; a reader refuses a newer
/// one. Dates are ISO 8601 UTC with milliseconds. Documented in docs/library.md.
public struct BackupDocument: Sendable, Equatable, Codable {
    /// The format this Reel writes and the newest it reads. Format 2 (media `checksum` as
    /// `algorithm:hex`, XXH3-128) replaced format 1's bare-hex `sha256`; both are read.
    public static let currentFormatVersion = 2

    /// The format of this document.
    public var formatVersion: Int
    /// When the backup finished (wall clock).
    public var createdAt: Date
    /// The library's applied migrations when it was written (for the record; restore reads by format).
    public var libraryMigrations: [String]
    /// Every session, with its tags and paths as they were in the library.
    public var sessions: [StudySession]
    /// Every tag name (also tags on no session).
    public var tags: [String]
    /// Every daily goal.
    public var goals: [DailyGoal]
    /// Every study material.
    public var materials: [StudyMaterial]
    /// Every media file in the backup.
    public var media: [BackupMediaEntry]

    /// A document.
    public init(formatVersion: Int = BackupDocument.currentFormatVersion, createdAt: Date, libraryMigrations: [String],
                sessions: [StudySession], tags: [String], goals: [DailyGoal], materials: [StudyMaterial], media: [BackupMediaEntry]) {
        self.formatVersion = formatVersion
        self.createdAt = createdAt
        self.libraryMigrations = libraryMigrations
        self.sessions = sessions
        self.tags = tags
        self.goals = goals
        self.materials = materials
        self.media = media
    }

    /// A `backup.json` that cannot be used; nothing was changed.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        /// Not JSON, or not this shape.
        case corrupt(String)
        /// Written by a newer Reel.
        case newerFormat(Int)
        /// A media path that leaves the backup folder or is not under `Media/`.
        case unsafePath(String)

        public var description: String {
            switch self {
            case .corrupt(let why): "backup.json is damaged (\(why)); nothing was changed — use another copy of the backup folder"
            case .newerFormat(let v): "backup.json has format \(v), newer than this Reel reads (\(BackupDocument.currentFormatVersion)); update Reel — nothing was changed"
            case .unsafePath(let p): "backup.json lists a media file outside Media/ ('\(p)'); nothing was changed"
            }
        }
    }

    /// The JSON bytes (sorted keys, pretty printed: a diff of two backups reads well).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(BackupDocument.dateStyle))
        }
        return try encoder.encode(self)
    }

    /// Reads `data`; the format version is checked before the rest, so a newer file is
    /// reported as newer rather than as damaged.
    public static func decode(_ data: Data) throws(Error) -> BackupDocument {
        struct Version: Decodable { var formatVersion: Int }
        let version: Int
        do {
            version = try JSONDecoder().decode(Version.self, from: data).formatVersion
        } catch {
            throw .corrupt(Self.reason(error))
        }
        guard version <= currentFormatVersion else { throw .newerFormat(version) }
        guard version >= 1 else { throw .corrupt("format version \(version)") }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = try? BackupDocument.dateStyle.parse(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not an ISO 8601 date"))
            }
            return date
        }
        let document: BackupDocument
        do {
            document = try decoder.decode(BackupDocument.self, from: data)
        } catch {
            throw .corrupt(Self.reason(error))
        }
        for entry in document.media where !entry.isSafePath { throw .unsafePath(entry.path) }
        return document
    }

    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!)

    private static func reason(_ error: Swift.Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let c): c.debugDescription + (c.codingPath.isEmpty ? "" : " at " + c.codingPath.map(\.stringValue).joined(separator: "."))
        case DecodingError.keyNotFound(let key, let c): "'\(key.stringValue)' missing" + (c.codingPath.isEmpty ? "" : " in " + c.codingPath.map(\.stringValue).joined(separator: "."))
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c): "wrong type at " + c.codingPath.map(\.stringValue).joined(separator: ".")
        default: "\(error)"
        }
    }
}
