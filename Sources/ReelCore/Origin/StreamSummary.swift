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
        streamId = layout.streamID
        playlistURL = "/" + layout.playlistPath
        self.updatedAt = updatedAt
        var segments = 0
        var ended = false
        for line in playlistText.split(whereSeparator: \.isNewline) {
            let tag = line.trimmingASCIISpaces()
            if tag.hasPrefix("#EXTINF:") { segments += 1 }
            if tag == "#EXT-X-ENDLIST" { ended = true }
        }
        segmentCount = segments
        isFinished = ended
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
