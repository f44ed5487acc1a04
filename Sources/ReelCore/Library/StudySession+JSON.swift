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

/// The sessions' compact JSON written by hand, byte for byte what ``StudySessionJSON`` holds
/// (the same keys in the same sorted order, every key always there): Reel Studio's
/// `/api/sessions` answers a thousand sessions with it, where Foundation's `JSONEncoder` took
/// about 45 ms (the tests parse both and compare).
public enum StudySessionJSONWriter {
    /// `sessions` as a compact JSON array.
    public static func array(_ sessions: [StudySession]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(sessions.count * 640 + 2)
        append(sessions, to: &out)
        return out
    }

    /// Appends `sessions` as a compact JSON array.
    public static func append(_ sessions: [StudySession], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, session) in sessions.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            append(session, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// One session as a JSON object, keys sorted (as `.sortedKeys` sorts them).
    public static func append(_ s: StudySession, to out: inout [UInt8]) {
        var first = true
        func key(_ name: StaticString) { objectKey(name, first: &first, to: &out) }
        key("activeSeconds"); number(s.activeSeconds, to: &out)
        key("endedAt"); string(StudySessionJSON.timestamp(s.endedAt), to: &out)
        key("faceTrackPath"); optional(s.faceTrackPath, to: &out)
        key("filePath"); string(s.filePath, to: &out)
        key("id"); string(s.id.uuidString.lowercased(), to: &out)
        key("intervalSeconds"); number(s.intervalSeconds, to: &out)
        key("load")
        if let load = s.load {
            var inner = true
            func loadKey(_ name: StaticString) { objectKey(name, first: &inner, to: &out) }
            loadKey("cpuShare"); number(load.cpuShare, to: &out)
            loadKey("easedSeconds"); number(load.easedSeconds, to: &out)
            loadKey("peakCelsius"); number(load.peakCelsius, to: &out)
            loadKey("reasons"); strings(load.reasons, to: &out)
            loadKey("reducedSeconds"); number(load.reducedSeconds, to: &out)
            out.append(UInt8(ascii: "}"))
        } else {
            null(&out)
        }
        key("mode"); string(s.mode.rawValue, to: &out)
        key("recovered"); out.append(contentsOf: Array((s.recovered ? "true" : "false").utf8))
        key("startedAt"); string(StudySessionJSON.timestamp(s.startedAt), to: &out)
        key("tags"); strings(s.tags, to: &out)
        key("thumbnailPath"); optional(s.thumbnailPath, to: &out)
        key("title"); optional(s.title, to: &out)
        key("videoSeconds"); number(s.videoSeconds, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `{"name":` for an object's first key, `,"name":` for the others.
    static func objectKey(_ name: StaticString, first: inout Bool, to out: inout [UInt8]) {
        out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
        first = false
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    static func null(_ out: inout [UInt8]) { out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }

    static func optional(_ text: String?, to out: inout [UInt8]) {
        if let text { string(text, to: &out) } else { null(&out) }
    }

    static func strings(_ texts: [String], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, text) in texts.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            string(text, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\t`, … or `\u00XX`;
    /// everything else (slashes, non-ASCII) as it is, as `.withoutEscapingSlashes` writes it.
    static func string(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    static func number(_ value: Double?, to out: inout [UInt8]) {
        if let value { number(value, to: &out) } else { null(&out) }
    }

    /// A finite number as JSON (a whole one without a fraction); a non-finite one (never in a
    /// library) as null.
    static func number(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else { null(&out); return }
        if value == value.rounded(), value.magnitude < 1e15 {
            out.append(contentsOf: Array(String(Int64(value)).utf8))
        } else {
            out.append(contentsOf: Array(value.description.utf8))
        }
    }
}
