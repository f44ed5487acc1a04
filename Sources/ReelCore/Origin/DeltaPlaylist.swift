import Foundation
import ReelHLS

/// A playlist delta update (LL-HLS, `_HLS_skip=YES`, RFC 8216bis §6.2.5.1): the stored media
/// playlist with the segments older than the skip boundary replaced by one
/// `#EXT-X-SKIP:SKIPPED-SEGMENTS=N`, so a player that already has them reloads a few lines
/// instead of hours of them. Pure text in, text out.
///
/// - Only for a playlist that declares `CAN-SKIP-UNTIL` (its skip boundary, seconds from the
///   playlist's end); otherwise, or when nothing is old enough, nil (send the playlist as is).
/// - A segment is skipped when it ends more than the boundary before the playlist's end; its
///   own tags (the `#EXTINF`, its `#EXT-X-PROGRAM-DATE-TIME`, `#EXT-X-DISCONTINUITY`, and the
///   `#EXT-X-PART`s listed before it) go with it. Everything before the first segment stays.
/// - `#EXT-X-VERSION` becomes at least 9 (`EXT-X-SKIP` needs it).
public enum DeltaPlaylist {
    public static func make(from text: String) -> String? {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.trimmingCharacters(in: .whitespaces) }
        var tally = PlaylistTally()
        tally.consume(Array(text.utf8))
        guard let boundary = tally.finished().canSkipUntil else { return nil }
        let read = lines.map(HLSLine.init)
        let segments = segmentSpans(read)
        let total = segments.reduce(0) { $0 + $1.duration }
        var skipped = 0
        var elapsed = 0.0
        for segment in segments {
            elapsed += segment.duration
            guard total - elapsed > boundary else { break }
            skipped += 1
        }
        guard skipped > 0 else { return nil }
        let headerEnd = segments.first?.start ?? lines.count
        let raised = lines[..<headerEnd].indices.map { index -> String in
            guard case let .tag(name, value) = read[index], case let .version(version)? = try? HLSTag(name: name, value: value),
                  version < 9 else { return lines[index] }
            return "#EXT-X-VERSION:9"
        }
        let rest = Array(lines[segments[skipped - 1].end...])
        return (raised + ["#EXT-X-SKIP:SKIPPED-SEGMENTS=\(skipped)"] + rest).joined(separator: "\n")
    }

    /// A segment's lines: [start, end) covers its tags (from the line after the previous
    /// segment's URI) through its URI.
    struct Span {
        var start: Int
        var end: Int
        var duration: Double
    }

    /// The segments in order. A segment's tags begin at the first media-segment tag
    /// (``HLSTag/mediaSegmentTagNames``, matched by exact name) after the previous segment's
    /// URI; playlist-level tags before the first segment stay out. An EXTINF that is not a
    /// number counts as 0 seconds.
    static func segmentSpans(_ lines: [HLSLine]) -> [Span] {
        var spans: [Span] = []
        var start: Int?
        var duration: Double?
        for (index, line) in lines.enumerated() {
            switch line {
            case .blank, .comment:
                continue
            case let .tag(name, value):
                if start == nil && HLSTag.mediaSegmentTagNames.contains(name) { start = index }
                if name == "EXTINF" {
                    guard case let .inf(seconds, _)? = try? HLSTag(name: name, value: value) else { duration = 0; continue }
                    duration = seconds
                }
            case .uri:
                guard let begun = start, let length = duration else { continue }
                spans.append(Span(start: begun, end: index + 1, duration: length))
                start = nil
                duration = nil
            }
        }
        return spans
    }
}
