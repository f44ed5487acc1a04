/// The video encoders Reel uses, named by what they make; the raw value is FFmpeg's encoder.
public enum VideoCodec: String, Sendable, Equatable, CaseIterable {
    /// H.264 with libx264 (the live stream, recordings, exports).
    case h264 = "libx264"
    /// HEVC with libx265 (the live archive).
    case hevc = "libx265"

    /// FFmpeg's name for the encoder, e.g. "libx264".
    public var encoderName: String { rawValue }
}

/// x264's and x265's speed presets, fastest first (the raw value is the preset's name).
public enum EncoderPreset: String, Sendable, Equatable, CaseIterable {
    case ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow

    /// The preset named `name`, or an error listing the names there are.
    public init(parsing name: String) throws(VideoEncoderSettings.Error) {
        guard let preset = EncoderPreset(rawValue: name) else {
            throw VideoEncoderSettings.Error(
                description: "unknown encoder preset '\(name)': use one of \(EncoderPreset.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = preset
    }
}

/// How to encode a video track.
public struct VideoEncoderSettings: Sendable, Equatable {
    /// A setting that cannot be used, with what to do instead.
    public struct Error: Swift.Error, CustomStringConvertible, Equatable {
        /// What is wrong.
        public var description: String
    }

    /// Which encoder.
    public var codec: VideoCodec
    /// Output size.
    public var width: Int, height: Int
    /// Nominal frame rate (for rate control; timestamps come from the frames).
    public var framesPerSecond: Int
    /// Average bitrate in bits per second; with ``constantRateFactor`` set, the peak rate
    /// instead (0: no cap).
    public var bitRate: Int
    /// x264/x265 constant rate factor (lower is better, 23 is x264's default): encode for a
    /// constant quality instead of an average bitrate. Nil: average bitrate.
    public var constantRateFactor: Int?
    /// Encoder speed preset.
    public var preset: EncoderPreset
    /// Key frames come only where the caller forces them (segment boundaries) when true;
    /// otherwise one every `keyFrameInterval` frames.
    public var keyFramesOnDemand: Bool
    /// Frames between key frames when not on demand.
    public var keyFrameInterval: Int
    /// Encoder threads (0: the encoder decides).
    public var threads: Int
    /// Lowest latency: no look-ahead, no frame reordering.
    public var zeroLatency: Bool

    /// Settings with Reel's defaults for the rest.
    public init(codec: VideoCodec, width: Int, height: Int, framesPerSecond: Int, bitRate: Int, preset: EncoderPreset = .veryfast,
                keyFramesOnDemand: Bool = false, keyFrameInterval: Int = 60, threads: Int = 0, zeroLatency: Bool = false,
                constantRateFactor: Int? = nil) {
        self.codec = codec
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.bitRate = bitRate
        self.preset = preset
        self.keyFramesOnDemand = keyFramesOnDemand
        self.keyFrameInterval = keyFrameInterval
        self.threads = threads
        self.zeroLatency = zeroLatency
        self.constantRateFactor = constantRateFactor
    }
}

/// How to encode an audio track (AAC-LC).
public struct AudioEncoderSettings: Sendable, Equatable {
    /// Output sample rate.
    public var sampleRate: Int
    /// Output channels (1 or 2).
    public var channels: Int
    /// Bitrate in bits per second.
    public var bitRate: Int

    /// AAC at `bitRate`, 48 kHz by default.
    public init(sampleRate: Int = 48_000, channels: Int, bitRate: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitRate = bitRate
    }
}
