import Foundation

/// A session as JSON, one shape for every reader: `reel sessions --json` and Reel Studio's
/// `/api/sessions`. Ids in lowercase (as the library stores them), dates ISO 8601 UTC with
/// milliseconds, absent values as null: every key is always there.
public struct StudySessionJSON: Encodable, Sendable {
    public let session: StudySession

    public init(_ session: StudySession) { self.session = session }

    /// `sessions` as a JSON array; `pretty` for a terminal (indented), else one line.
    public static func text(_ sessions: [StudySession], pretty: Bool) throws -> String {
        String(decoding: try encoder(pretty: pretty).encode(sessions.map(StudySessionJSON.init)), as: UTF8.self)
    }

    /// The encoder both shapes use: keys sorted, slashes as they are.
    public static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// ISO 8601 UTC with milliseconds (rounded to the nearest, so a date read from the
    /// library's text is written as that text again).
    public static func timestamp(_ date: Date) -> String { TimestampFormat.iso8601NearestMillisecond(date) }

    enum Key: String, CodingKey {
        case id, startedAt, endedAt, activeSeconds, videoSeconds, mode, intervalSeconds, filePath, thumbnailPath
        case faceTrackPath, title, tags, recovered, load
    }

    public func encode(to encoder: any Encoder) throws {
        let s = session
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(s.id.uuidString.lowercased(), forKey: .id)
        try c.encode(Self.timestamp(s.startedAt), forKey: .startedAt)
        try c.encode(Self.timestamp(s.endedAt), forKey: .endedAt)
        try c.encode(s.activeSeconds, forKey: .activeSeconds)
        try c.encode(s.videoSeconds, forKey: .videoSeconds)
        try c.encode(s.mode.rawValue, forKey: .mode)
        try c.encode(s.intervalSeconds, forKey: .intervalSeconds)
        try c.encode(s.filePath, forKey: .filePath)
        try c.encode(s.thumbnailPath, forKey: .thumbnailPath)
        try c.encode(s.faceTrackPath, forKey: .faceTrackPath)
        try c.encode(s.title, forKey: .title)
        try c.encode(s.tags, forKey: .tags)
        try c.encode(s.recovered, forKey: .recovered)
        try c.encode(s.load.map(LoadJSON.init), forKey: .load)
    }

    /// Heat and load (null when not measured); every key always there.
    struct LoadJSON: Encodable {
        let load: RecordingLoad
        enum Key: String, CodingKey { case cpuShare, peakCelsius, easedSeconds, reducedSeconds, reasons }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(load.cpuShare, forKey: .cpuShare)
            try c.encode(load.peakCelsius, forKey: .peakCelsius)
            try c.encode(load.easedSeconds, forKey: .easedSeconds)
            try c.encode(load.reducedSeconds, forKey: .reducedSeconds)
            try c.encode(load.reasons, forKey: .reasons)
        }
    }
}
