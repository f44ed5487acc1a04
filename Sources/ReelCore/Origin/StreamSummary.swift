import Foundation

/// One stream in `GET /api/streams`.
public struct StreamSummary: Codable, Sendable, Hashable {
    /// The stream id.
    public var streamId: String
    /// The playlist's path on the origin: `/streams/{id}/playlist.m3u8`.
    public var playlistURL: String
    /// When the stream last changed (its playlist, else its init segment, was written).
    public var updatedAt: Date
    /// Segments the playlist lists.
    public var segmentCount: Int
    /// Whether the playlist ends with `#EXT-X-ENDLIST`.
    public var isFinished: Bool

    /// A summary of stream `layout` from its playlist text (empty when there is none yet).
    public init(layout: StreamLayout, updatedAt: Date, playlistText: String) {
        var tally = PlaylistTally()
        tally.consume(Array(playlistText.utf8))
        self.init(layout: layout, updatedAt: updatedAt, tally: tally.finished())
    }

    /// A summary of stream `layout` from a tally of its whole playlist.
    public init(layout: StreamLayout, updatedAt: Date, tally: PlaylistTally) {
        streamId = layout.streamID
        playlistURL = "/" + layout.playlistPath
        self.updatedAt = updatedAt
        segmentCount = tally.segmentCount
        isFinished = tally.isFinished
    }

    /// The `/api/streams` body: `{"serverTime":…,"streams":[…]}`, newest first (ties by id),
    /// dates in ISO 8601 UTC with milliseconds. `serverTime` (the origin's clock when it
    /// answered, omitted when `nil`) lets a viewer judge how stale `updatedAt` is without
    /// trusting its own clock.
    public static func listJSON(_ streams: [StreamSummary], serverTime: Date? = nil) -> Data {
        let sorted = streams.sorted { a, b in
            a.updatedAt != b.updatedAt ? a.updatedAt > b.updatedAt : a.streamId < b.streamId
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Self.timestamp(date))
        }
        return try! encoder.encode(List(serverTime: serverTime, streams: sorted))
    }

    private struct List: Encodable {
        var serverTime: Date?
        var streams: [StreamSummary]
    }

    /// `2026-11-30T03:40:00.123Z`.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!))
    }
}

/// Counts a media playlist's segments and sees its end tag while its bytes stream past, in
/// chunks of any size (an upload as it arrives, a file read piece by piece), keeping only the
/// start of the current line: a playlist of any length costs a few bytes of memory.
public struct PlaylistTally: Sendable, Hashable {
    /// `#EXTINF:` lines so far.
    public private(set) var segmentCount = 0
    /// Whether a line `#EXT-X-ENDLIST` was seen.
    public private(set) var isFinished = false
    /// The current line's first bytes (enough to tell the two tags apart).
    private var line: [UInt8] = []
    private var lineIsLong = false
    private static let extinf = Array("#EXTINF:".utf8)
    private static let endlist = Array("#EXT-X-ENDLIST".utf8)
    private static let kept = 32

    public init() {}

    /// Takes the next bytes.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            if byte == 10 || byte == 13 {
                endLine()
            } else if line.count < Self.kept {
                line.append(byte)
            } else {
                lineIsLong = true
            }
        }
    }

    /// Takes the next bytes.
    public mutating func consume(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { consume($0) }
    }

    /// The counts once every byte was consumed (a last line without a line end counts too).
    public func finished() -> PlaylistTally {
        var copy = self
        copy.endLine()
        return copy
    }

    private mutating func endLine() {
        defer { line.removeAll(keepingCapacity: true); lineIsLong = false }
        var start = 0
        while start < line.count && (line[start] == 32 || line[start] == 9) { start += 1 }
        let text = line[start...]
        if text.starts(with: Self.extinf) { segmentCount += 1; return }
        guard !lineIsLong, text.starts(with: Self.endlist) else { return }
        isFinished = text.dropFirst(Self.endlist.count).allSatisfy { $0 == 32 || $0 == 9 }
            || isFinished
    }
}
