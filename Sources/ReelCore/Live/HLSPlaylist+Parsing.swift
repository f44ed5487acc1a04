import Foundation
import ReelHLS

extension HLSPlaylist {
    /// Reads a playlist Reel rendered (``rendered()``), e.g. the spool's copy after a crash,
    /// through ReelHLS's parser: target duration, media sequence (1 when absent), each
    /// `seg/NNNNNN.m4s` with its EXTINF (to the millisecond), program date time and
    /// discontinuity flag, and ENDLIST; parts are left out. Nil when the text is not such a
    /// playlist (not a media playlist, a target duration of 0, a URI that is not a Reel
    /// segment, an EXTINF of 0, a segment without program date time).
    public init?(parsing text: String) {
        guard let playlist = try? MediaPlaylist(parsing: text), playlist.targetDuration > 0 else { return nil }
        var segments: [Segment] = []
        for listed in playlist.segments {
            guard let sequence = Self.segmentSequence(uri: listed.uri), listed.duration > 0, let start = listed.programDateTime else { return nil }
            let duration = MediaTime(value: Int64((listed.duration * 1000).rounded()), timescale: 1000)
            segments.append(Segment(sequence: sequence, duration: duration, programDateTime: start, followsDiscontinuity: listed.followsDiscontinuity))
        }
        self.init(targetDuration: playlist.targetDuration, mediaSequence: playlist.mediaSequence ?? 1, segments: segments,
                  isFinished: playlist.hasEndList)
    }

    /// The sequence number in `seg/NNNNNN.m4s` (six digits or more), nil for any other name.
    public static func segmentSequence(uri: String) -> Int? {
        guard uri.hasPrefix("seg/"), uri.hasSuffix(".m4s") else { return nil }
        let digits = uri.dropFirst(4).dropLast(4)
        guard digits.count >= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits) else { return nil }
        return StreamLayout.segmentURI(sequence: number) == uri ? number : nil
    }
}
