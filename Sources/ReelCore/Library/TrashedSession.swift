import Foundation

/// What `reel sessions rm` leaves in the Trash beside the session's files, so that
/// `reel sessions untrash` can undo it: the session's record and where each of its files went. Written as `reel-session-ID.json` into the user's Trash.
public struct TrashedSession: Sendable, Equatable, Codable {
    /// This format's version.
    public static let formatVersion = 1

    /// One file of the session, now in a Trash.
    public struct File: Sendable, Equatable, Codable {
        /// Where it was.
        public var originalPath: String
        /// The Trash folder holding it (with `files/` and `info/`).
        public var trash: String
        /// Its name in `files/` (and `info/NAME.trashinfo`).
        public var name: String

        /// A trashed file.
        public init(originalPath: String, trash: String, name: String) {
            self.originalPath = originalPath
            self.trash = trash
            self.name = name
        }
    }

    /// The format version this record was written with.
    public var formatVersion: Int
    /// The session as the library held it.
    public var session: StudySession
    /// Its files in the Trash.
    public var files: [File]

    /// A record.
    public init(session: StudySession, files: [File]) {
        formatVersion = Self.formatVersion
        self.session = session
        self.files = files
    }

    /// The record as written into the Trash: dates ISO 8601 UTC with milliseconds, as the
    /// library stores them, so a session put back is the session removed, to the millisecond.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(StudySessionJSON.timestamp(date))
        }
        return try encoder.encode(self)
    }

    /// A record read back; also one written before milliseconds were kept (whole seconds).
    public static func decoded(_ data: Data) throws -> TrashedSession {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!)
            if let date = (try? withFraction.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text)) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text) is not an ISO 8601 date")
        }
        return try decoder.decode(TrashedSession.self, from: data)
    }

    /// The record's file name in the Trash.
    public static func fileName(for id: UUID) -> String { "reel-session-\(id.uuidString.lowercased()).json" }

    /// The files a session has on disk: its video, thumbnail, face track and review edits,
    /// each once, in that order.
    public static func paths(of session: StudySession) -> [String] {
        var paths = [session.filePath]
        for path in [session.thumbnailPath, session.faceTrackPath, PrivacyEdits.path(forVideo: session.filePath)].compactMap({ $0 })
        where !paths.contains(path) {
            paths.append(path)
        }
        return paths
    }
}
