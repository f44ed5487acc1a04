/// The local archive writer's encoding: HEVC + AAC in one MP4, saved when the stream stops.
///
/// The archive keeps every audio sample and, while its encoder keeps up, every frame; when it
/// cannot, frames are left out on purpose (``ArchiveRatePolicy``, then its full queue), each
/// counted and reported, so the capture never waits for it. A failing live path never stops it.
public struct ArchiveSettings: Hashable, Sendable {
    /// Video codecs the archive can be written with.
    public enum VideoCodec: String, Hashable, Sendable {
        /// H.265 / HEVC (`hvc1`).
        case hevc
    }

    /// Audio codecs the archive can be written with.
    public enum AudioCodec: String, Hashable, Sendable {
        /// AAC-LC.
        case aac
    }

    /// The video codec.
    public var videoCodec: VideoCodec
    /// The audio codec.
    public var audioCodec: AudioCodec
    /// The encoded size in portrait; landscape swaps it (see ``dimensions(_:)``).
    public var portraitDimensions: VideoDimensions
    /// The video bitrate in bits per second.
    public var videoBitsPerSecond: Int
    /// The audio bitrate in bits per second.
    public var audioBitsPerSecond: Int

    /// Archive settings; the defaults are those of docs/behaviour.md §2, HLS writer.
    public init(
        videoCodec: VideoCodec = .hevc,
        audioCodec: AudioCodec = .aac,
        portraitDimensions: VideoDimensions = VideoDimensions(width: 1080, height: 1920),
        videoBitsPerSecond: Int = 5_000_000,
        audioBitsPerSecond: Int = 128_000
    ) {
        self.videoCodec = videoCodec
        self.audioCodec = audioCodec
        self.portraitDimensions = portraitDimensions
        self.videoBitsPerSecond = videoBitsPerSecond
        self.audioBitsPerSecond = audioBitsPerSecond
    }

    /// HEVC 1080 × 1920 at 5 Mbps, AAC at 128 kbps.
    public static let `default` = ArchiveSettings()

    /// The encoded size for `orientation`: 1080 × 1920 portrait, 1920 × 1080 landscape.
    public func dimensions(_ orientation: VideoDimensions.Orientation = .portrait) -> VideoDimensions {
        portraitDimensions.oriented(orientation)
    }
}
