import Foundation

extension HLSPlaylist {
    /// Reads a playlist Reel rendered (``rendered()``), e.g. the spool's copy after a crash:
    /// target duration, media sequence, each `seg/NNNNNN.m4s` with its EXTINF, program date
    /// time and discontinuity flag, and ENDLIST. Nil when the text is not such a playlist (no
    /// `#EXTM3U`, no target duration, a URI that is not a Reel segment, an EXTINF that is not
    /// a number, a segment without EXTINF or program date time).
    public init?(parsing text: String) {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.first == "#EXTM3U" else { return nil }
        var targetDuration: Int?, mediaSequence = 1, segments: [Segment] = [], finished = false
        var duration: MediaTime?, date: Date?, discontinuity = false
        for line in lines.dropFirst() where !line.isEmpty {
            if let value = Self.value(of: "#EXT-X-TARGETDURATION:", in: line) {
                targetDuration = Int(value)
            } else if let value = Self.value(of: "#EXT-X-MEDIA-SEQUENCE:", in: line) {
                guard let number = Int(value) else { return nil }
                mediaSequence = number
            } else if let value = Self.value(of: "#EXTINF:", in: line) {
                guard let seconds = Double(value.prefix { $0 != "," }), seconds > 0 else { return nil }
                duration = MediaTime(value: Int64((seconds * 1000).rounded()), timescale: 1000)
            } else if let value = Self.value(of: "#EXT-X-PROGRAM-DATE-TIME:", in: line) {
                guard let parsed = Self.programDateTime(String(value)) else { return nil }
                date = parsed
            } else if line == "#EXT-X-DISCONTINUITY" {
                discontinuity = true
            } else if line == "#EXT-X-ENDLIST" {
                finished = true
            } else if !line.hasPrefix("#") {
                guard let sequence = Self.segmentSequence(uri: line), let duration, let start = date else { return nil }
                segments.append(Segment(sequence: sequence, duration: duration, programDateTime: start, followsDiscontinuity: discontinuity))
                (discontinuity, date) = (false, nil)
            }
        }
        guard let targetDuration, targetDuration > 0 else { return nil }
        self.init(targetDuration: targetDuration, mediaSequence: mediaSequence, segments: segments, isFinished: finished)
    }

    /// The sequence number in `seg/NNNNNN.m4s` (six digits or more), nil for any other name.
    public static func segmentSequence(uri: String) -> Int? {
        guard uri.hasPrefix("seg/"), uri.hasSuffix(".m4s") else { return nil }
        let digits = uri.dropFirst(4).dropLast(4)
        guard digits.count >= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits) else { return nil }
        return StreamLayout.segmentURI(sequence: number) == uri ? number : nil
    }

    /// `2026-11-30T02:43:11.123Z` back to a date (the form ``programDateTimeString(_:)`` writes).
    static func programDateTime(_ text: String) -> Date? {
        guard let seconds = TimestampFormat.secondsSince1970(text) else { return nil }
        var milliseconds: Int64 = 0
        if let dot = text.firstIndex(of: "."), let fraction = Double("0" + text[dot...].dropLast()) {
            milliseconds = Int64((fraction * 1000).rounded())
        }
        return Date(timeIntervalSince1970: Double(seconds * 1000 + milliseconds) / 1000)
    }

    private static func value(of tag: String, in line: String) -> Substring? {
        line.hasPrefix(tag) ? line.dropFirst(tag.count) : nil
    }
}
