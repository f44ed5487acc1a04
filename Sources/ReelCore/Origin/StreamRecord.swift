import Foundation

/// What the origin knows of one stream's stored files, from which its ``StreamSummary`` and
/// its media playlists' tallies come: the stream's own playlist (or init segment) and, for an
/// ABR ladder, each rung's.
///
/// A stream with no rung is summarised from its own playlist, exactly as before ladders
/// existed. A stream with at least one rung is a ladder: its own `playlist.m3u8` is the
/// multivariant playlist, which lists no segment and never ends, so it says nothing about
/// progress; the summary is judged from the rungs instead (see ``summary(layout:)``).
public struct StreamRecord: Sendable, Hashable {
    /// One stored playlist (or, before the first playlist, init segment).
    public struct Entry: Sendable, Hashable {
        /// When the playlist (else the init segment) was last written.
        public var updatedAt: Date
        /// The tally of the whole playlist as stored; nil while only the init segment is there.
        public var tally: PlaylistTally?

        public init(updatedAt: Date, tally: PlaylistTally?) {
            self.updatedAt = updatedAt
            self.tally = tally
        }
    }

    /// The stream's own folder: its media playlist, or a ladder's multivariant playlist.
    public var own: Entry?
    /// Each rung's, by rung name (``StreamLayout/isValidRungName(_:)``).
    public var rungs: [String: Entry] = [:]

    public init(own: Entry? = nil, rungs: [String: Entry] = [:]) {
        self.own = own
        self.rungs = rungs
    }

    /// Whether nothing of the stream is known (then it is not listed).
    public var isEmpty: Bool { own == nil && rungs.isEmpty }

    /// The entry of the folder `rung` names (nil: the stream's own).
    public subscript(rung: String?) -> Entry? {
        get { rung.map { rungs[$0] } ?? own }
        set {
            if let rung { rungs[rung] = newValue } else { own = newValue }
        }
    }

    /// The stream's summary; nil when nothing is known.
    ///
    /// Without rungs: its own playlist's counts (no segment while only the init is there).
    /// A ladder: listed under its stream id with the multivariant playlist's URL (what a
    /// player opens); `segmentCount` is the smallest of its rungs' (the segments every
    /// rendition can play), `isFinished` holds once every rung's playlist ended, `updatedAt`
    /// is the latest write of any of its playlists (or init segments), and `renditions` names
    /// the rungs in name order.
    public func summary(layout: StreamLayout) -> StreamSummary? {
        let stream = layout.stream
        guard !rungs.isEmpty else {
            return own.map { StreamSummary(layout: stream, updatedAt: $0.updatedAt, tally: $0.tally ?? PlaylistTally()) }
        }
        let entries = Array(rungs.values)
        var summary = StreamSummary(layout: stream, updatedAt: (entries + (own.map { [$0] } ?? [])).map(\.updatedAt).max()!,
                                    tally: PlaylistTally())
        summary.segmentCount = entries.map { $0.tally?.segmentCount ?? 0 }.min()!
        summary.isFinished = entries.allSatisfy { $0.tally?.isFinished == true }
        summary.renditions = rungs.keys.sorted()
        return summary
    }
}
