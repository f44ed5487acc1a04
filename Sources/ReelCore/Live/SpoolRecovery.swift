import Foundation

/// What a spool left by a `reel live` that died (power cut, SIGKILL) holds, and what
/// `reel publish ID` publishes from it: the init segment, then segments 1, 2, 3, … without a
/// gap, each with the duration and time the spool's playlist recorded, then the playlist with
/// ENDLIST.
///
/// The publisher writes a segment's file before the spool playlist that lists it, so a crash in
/// between leaves segment files the playlist does not list yet: they are published too, with
/// the target duration as their EXTINF (the fallback of docs/behaviour.md §2, HLS writer) and a
/// program date time following the last listed one. Files after a gap (a lost file) cannot be
/// listed in a playlist without a hole and are reported, never deleted.
public struct SpoolRecovery: Sendable, Hashable {
    /// EXT-X-TARGETDURATION of the stream.
    public var targetDuration: Int
    /// The segments to publish, 1, 2, 3, … in order.
    public var segments: [HLSPlaylist.Segment]
    /// Segment files that follow a gap, by sequence number (kept, not published).
    public var stranded: [Int]
    /// Whether the stream ended cleanly before (the spool's playlist has ENDLIST).
    public var wasFinished: Bool

    /// The plan for a spool whose playlist reads `playlistText` (nil when there is none) and
    /// whose `seg/` folder holds `segmentFiles` (sequence numbers). `fallbackTargetDuration`
    /// and `firstSegmentDate` (e.g. the first file's modification time) apply when there is no
    /// readable playlist.
    public init(playlistText: String?, segmentFiles: [Int], fallbackTargetDuration: Int, firstSegmentDate: Date) {
        let playlist = playlistText.flatMap(HLSPlaylist.init(parsing:))
        targetDuration = playlist?.targetDuration ?? fallbackTargetDuration
        wasFinished = playlist?.isFinished ?? false
        let onDisk = Set(segmentFiles)
        var segments: [HLSPlaylist.Segment] = []
        for listed in playlist?.segments ?? [] {
            guard listed.sequence == segments.count + 1, onDisk.contains(listed.sequence) else { break }
            segments.append(listed)
        }
        let fallback = MediaTime(value: Int64(targetDuration), timescale: 1)
        while onDisk.contains(segments.count + 1) {
            let start = segments.last.map { $0.programDateTime.addingTimeInterval($0.duration.seconds) } ?? firstSegmentDate
            segments.append(HLSPlaylist.Segment(sequence: segments.count + 1, duration: fallback, programDateTime: start))
        }
        let published = segments.count
        stranded = onDisk.filter { $0 > published }.sorted()
        self.segments = segments
    }

    /// What `reel live` says at start about spools left by earlier runs, e.g. `1 stream waits in
    /// the spool: desk (12 segments not published); publish it with reel publish desk --origin URL`;
    /// nil when none waits. `waiting` is (stream id, segment files) in the order to name them.
    public static func waitingSentence(_ waiting: [(streamID: String, segments: Int)]) -> String? {
        guard let first = waiting.first else { return nil }
        func segments(_ n: Int) -> String { n == 0 ? "its playlist" : n == 1 ? "1 segment" : "\(n) segments" }
        let names = waiting.map { "\($0.streamID) (\(segments($0.segments)) not published)" }.joined(separator: ", ")
        let head = waiting.count == 1 ? "1 stream waits in the spool" : "\(waiting.count) streams wait in the spool"
        let command = "reel publish \(waiting.count == 1 ? first.streamID : "ID") --origin URL (or --output DIR)"
        return "\(head): \(names); publish \(waiting.count == 1 ? "it" : "each") with \(command)"
    }
}
