/// The branches of `reel live`'s capture fan-out: how reports and queues are told apart
/// (never by a queue's name or a position).
enum LiveBranchID: String, Hashable, Sendable, CaseIterable {
    /// The HLS stream (H.264 + AAC, fMP4 segments to the publisher).
    case live
    /// The archive MP4 (HEVC + AAC).
    case archive
}
