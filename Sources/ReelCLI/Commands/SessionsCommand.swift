import Foundation
import ReelCore
import ReelStore

/// `reel sessions`: the study sessions in the library, as a table or as JSON.
enum SessionsCommand {
    static let json = Option.flag("json", help: "A JSON array with every field of every session (dates ISO 8601 UTC), for scripts.")

    static let spec = CommandSpec(
        name: "sessions",
        summary: "List the study sessions in the library.",
        discussion: """
            One line per session, oldest first: the date it started (local time), the active \
            (study) time, the mode, title, tags and the video file. Sessions are added when \
            'reel record' finishes and by 'reel recover'. Reading never creates a library: \
            the default one that does not exist yet lists no sessions, a --library that does not \
            exist is an error.
            """,
        options: [json, LibraryOption.option],
        examples: ["reel sessions", "reel sessions --json | jq '.[] | select(.tags | index(\"exam\"))'"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let sessions = try LibraryOption.openExisting(arguments).sessions()
        if arguments.flag(json) {
            print(try jsonText(sessions))
        } else {
            print(table(sessions), terminator: "")
        }
        return 0
    }

    /// A JSON array of every field: ids in lowercase (as the library stores them), dates ISO 8601
    /// UTC with milliseconds, absent values as null (every key is always there).
    static func jsonText(_ sessions: [StudySession]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(sessions.map(SessionJSON.init)), as: UTF8.self)
    }

    private struct SessionJSON: Encodable {
        let session: StudySession
        enum Key: String, CodingKey {
            case id, startedAt, endedAt, activeSeconds, videoSeconds, mode, intervalSeconds, filePath, thumbnailPath
            case faceTrackPath, title, tags, recovered, load
        }
        func encode(to encoder: any Encoder) throws {
            let s = session
            let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!)
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(s.id.uuidString.lowercased(), forKey: .id)
            try c.encode(s.startedAt.formatted(style), forKey: .startedAt)
            try c.encode(s.endedAt.formatted(style), forKey: .endedAt)
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
    }

    /// Heat and load (null when not measured); every key always there.
    private struct LoadJSON: Encodable {
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

    /// Columns padded to their widest cell by display width; the file last (it is the
    /// longest). Titles and tags are cut with `…` past 40 and 30 columns; control characters in
    /// any cell are shown, never sent to the terminal.
    static func table(_ sessions: [StudySession]) -> String {
        guard !sessions.isEmpty else { return "no sessions yet (reel record adds one when it finishes)\n" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        var rows = [["DATE", "ACTIVE", "MODE", "TITLE", "TAGS", "FILE"]]
        for s in sessions {
            let mode = s.mode == .timelapse ? "timelapse \(s.intervalSeconds.map { $0 == $0.rounded() ? String(Int($0)) : $0.formatted3 } ?? "?") s" : "full"
            rows.append([formatter.string(from: s.startedAt), StatusLinePrinter.clock(s.activeSeconds), mode + (s.recovered ? " (recovered)" : ""),
                         s.title ?? "-", s.tags.isEmpty ? "-" : s.tags.joined(separator: ","), s.filePath])
        }
        return TerminalText.table(rows, maximumWidths: [nil, nil, nil, 40, 30, nil])
    }
}
