import Foundation
import ReelHLS

/// One stream in `GET /api/streams`. An ABR ladder is one stream: its summary is made from
/// its rungs' playlists (``StreamRecord/summary(layout:)``).
public struct StreamSummary: Codable, Sendable, Hashable {
    /// The stream id.
    public var streamId: String
    /// The playlist's path on the origin: `/streams/{id}/playlist.m3u8` (a ladder's
    /// multivariant playlist, which players open as they open a media playlist).
    public var playlistURL: String
    /// When the stream last changed (its playlist, else its init segment, was written; for a
    /// ladder, any of its playlists).
    public var updatedAt: Date
    /// Segments the playlist lists (a ladder: the fewest any rung's playlist lists).
    public var segmentCount: Int
    /// Whether the playlist ends with `#EXT-X-ENDLIST` (a ladder: every rung's playlist does).
    public var isFinished: Bool
    /// A ladder's rung names, in name order; nil (absent from the JSON) for a stream of one
    /// rendition, so its JSON is what it always was.
    public var renditions: [String]?

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
        renditions = nil
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

/// Reads a media playlist while its bytes stream past, in chunks of any size (an upload as it
/// arrives, a file read piece by piece), keeping only the start of the current line: a
/// playlist of any length costs a few hundred bytes of memory. It counts the segments, sees
/// the end tag, and notes what blocking playlist reload needs (LL-HLS: the media sequence, the
/// parts of the segment in progress, the server-control attributes, the preload hint).
public struct PlaylistTally: Sendable, Hashable {
    /// `#EXTINF:` lines so far.
    public private(set) var segmentCount = 0
    /// Whether a line `#EXT-X-ENDLIST` was seen.
    public private(set) var isFinished = false
    /// `EXT-X-MEDIA-SEQUENCE` (0 when absent, as RFC 8216 says).
    public private(set) var mediaSequence = 0
    /// `EXT-X-TARGETDURATION`, seconds (0 when absent).
    public private(set) var targetDuration = 0.0
    /// Whether `EXT-X-SERVER-CONTROL` says `CAN-BLOCK-RELOAD=YES`.
    public private(set) var canBlockReload = false
    /// `CAN-SKIP-UNTIL` of `EXT-X-SERVER-CONTROL`, seconds (nil when absent).
    public private(set) var canSkipUntil: Double?
    /// `EXT-X-PART-INF:PART-TARGET`, seconds (nil when absent).
    public private(set) var partTarget: Double?
    /// `EXT-X-PART` lines since the last `#EXTINF:` (the parts of the segment in progress).
    public private(set) var partsInProgress = 0
    /// The URI of `EXT-X-PRELOAD-HINT:TYPE=PART` (nil when absent).
    public private(set) var preloadHintURI: String?
    /// The current line's first bytes (enough for every tag read here).
    private var line: [UInt8] = []
    private var lineIsLong = false
    private static let kept = 256

    public init() {}

    /// The media sequence number of the last complete segment listed (nil when none is).
    public var lastSequence: Int? { segmentCount > 0 ? mediaSequence + segmentCount - 1 : nil }

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

    /// Reads the line just ended through ReelHLS's tokenizer: `EXTINF` and `EXT-X-PART` lines
    /// count by their tag name (even when cut short), the other tags by their typed value (a
    /// malformed one is ignored).
    private mutating func endLine() {
        defer { line.removeAll(keepingCapacity: true); lineIsLong = false }
        guard case let .tag(name, value) = HLSLine(String(decoding: line, as: UTF8.self)) else { return }
        if name == "EXTINF" {
            segmentCount += 1
            partsInProgress = 0
            return
        }
        guard !lineIsLong else { return }
        if name == "EXT-X-PART" {
            partsInProgress += 1
            return
        }
        switch try? HLSTag(name: name, value: value) {
        case .endList?: isFinished = true
        case let .mediaSequence(number)?: mediaSequence = number
        case let .targetDuration(seconds)?: targetDuration = Double(seconds)
        case let .serverControl(control)?:
            canBlockReload = control.canBlockReload
            canSkipUntil = control.canSkipUntil
        case let .partInf(partTarget)?: self.partTarget = partTarget
        case let .preloadHint(hint)? where hint.type == "PART": preloadHintURI = hint.uri
        default: break
        }
    }
}
