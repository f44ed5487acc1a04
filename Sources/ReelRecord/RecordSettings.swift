import Foundation
import ReelCore
import ReelMedia

/// Everything `reel record` needs to know, validated before anything starts.
public struct RecordSettings: Sendable {
    /// The session id: names the folder of the recording in progress.
    public var id: UUID
    /// The capture source.
    public var source: SourceSpec
    /// Timelapse or full.
    public var mode: RecordingMode
    /// Timelapse: active time between frames.
    public var interval: MediaTime
    /// The picture size (landscape; swapped when ``portrait``).
    public var canvas: RecordingCanvas
    /// Portrait instead of landscape.
    public var portrait: Bool
    /// The user's title and tags (kept in the MP4's metadata and the checkpoint).
    public var title: String?
    public var tags: [String]
    /// Where the finished MP4 goes (a new file; the thumbnail and face track go beside it).
    /// The recorder claims it at start (``numbersOutputWhenTaken``).
    public var outputPath: String
    /// When ``outputPath`` is taken at start: false (a name the user chose) refuses to record;
    /// true (the default name) takes the first free of `NAME-2.mp4`, `NAME-3.mp4` …
    public var numbersOutputWhenTaken = false
    /// Whether the face tracker was asked for (false: `--no-faces`; `reel recover` then does
    /// not look for faces either).
    public var facesRequested = true
    /// The folder holding recordings in progress, one subfolder per session
    /// (`$XDG_STATE_HOME/reel/recordings`).
    public var stateFolder: String
    /// Stop after this many seconds of capture (nil: until stopped).
    public var duration: Double?
    /// The study library the finished session goes into (nil: none, as in-process tests).
    public var libraryPath: String?
    /// No frame for this long: the source counts as interrupted.
    public var stallLimit = RecordingStateMachine.defaultStallLimit
    /// Time between periodic checkpoints.
    public var checkpointPeriod = CheckpointSchedule.defaultPeriod
    /// The longest stretch of capture one fragment of the file in progress covers (what a
    /// crash can lose at most).
    public var fragmentDuration = MediaTime(value: 2, timescale: 1)
    /// Waits between attempts to reopen a source that stopped: 0.5 s, then 1, 2, 4, 8, 10 s…
    public var reopenPolicy = RetryPolicy(quickDelays: [MediaTime(value: 1, timescale: 2)],
                                          backoffInitial: MediaTime(value: 1, timescale: 1),
                                          backoffCap: MediaTime(value: 10, timescale: 1))
    /// Refuse to start when the disk would be full within this many hours of recording
    /// (0: never refuse; the floor still stops the recording).
    public var minHours = 1.0
    /// The free space kept while recording (the floor) and used for the estimate.
    public var diskBudget = DiskBudget.standard
    /// Time between free-space checks while recording.
    public var diskCheckPeriod = MediaTime(value: 2, timescale: 1)
    /// Time between heat and load readings (``LoadAdaptationPolicy``).
    public var loadCheckPeriod = MediaTime(value: 2, timescale: 1)
    /// Where Linux exposes its thermal zones (`REEL_THERMAL_FOLDER` overrides it for `reel
    /// record`: a machine with sensors elsewhere, or a test).
    public var thermalFolder = "/sys/class/thermal"
    /// The command that keeps the machine awake while recording, before the program it runs
    /// (nil: do not; see `SleepInhibitor`).
    public var keepAwakeCommand: [String]? = ["systemd-inhibit", "--what=sleep:idle", "--mode=block", "--who=Reel",
                                              "--why=Recording a study session"]

    /// Full mode: the average bitrate docs/behaviour.md §1 asks for, 5 Mbps (≈ 2.25 GB an hour).
    public static let fullModeBitRate = 5_000_000
    /// Timelapse: constant quality (x264 CRF 23, its default), peaks capped at 8 Mbps.
    public static let timelapseQuality = 23
    public static let timelapsePeakBitRate = 8_000_000
    /// The x264 speed preset.
    public static let encoderPreset = EncoderPreset.veryfast

    /// Settings with defaults for the tuning knobs.
    public init(id: UUID = UUID(), source: SourceSpec, mode: RecordingMode, interval: MediaTime = MediaTime(value: 5, timescale: 1),
                canvas: RecordingCanvas = .hd1080, portrait: Bool = false, title: String? = nil, tags: [String] = [],
                outputPath: String, stateFolder: String, duration: Double? = nil, libraryPath: String? = nil) {
        self.id = id
        self.source = source
        self.mode = mode
        self.interval = interval
        self.canvas = canvas
        self.portrait = portrait
        self.title = title
        self.tags = tags
        self.outputPath = outputPath
        self.stateFolder = stateFolder
        self.duration = duration
        self.libraryPath = libraryPath
    }

    /// A settings problem a user can fix.
    public struct Error: Swift.Error, CustomStringConvertible {
        /// What is wrong and what to do.
        public var description: String
    }

    /// Checks the combination of settings (not the disk: the recorder does that before it starts).
    public func validate() throws(Error) {
        if mode == .timelapse {
            do { _ = try TimelapseSchedule(interval: interval) } catch { throw Error(description: "--interval: \(error)") }
        }
        guard outputPath.lowercased().hasSuffix(".mp4"), (outputPath as NSString).lastPathComponent.count > 4 else {
            throw Error(description: "--output must name an .mp4 file, got '\(outputPath)'")
        }
        if !(minHours >= 0) || !minHours.isFinite { throw Error(description: "--min-hours must be 0 or a positive number of hours") }
        if let duration, !(duration > 0) { throw Error(description: "--duration must be a positive number of seconds") }
        if let title {
            do { _ = try LibraryName.validate(title, as: .title) } catch { throw Error(description: "--title: \(error)") }
        }
        for tag in tags {
            do { _ = try Tag(tag) } catch { throw Error(description: "--tag: \(error)") }
        }
    }

    /// Bytes of video an hour of active study makes, an upper estimate (``DiskBudget``).
    public var videoBytesPerHour: Int64 {
        DiskBudget.videoBytesPerHour(mode: mode, fullBitRate: RecordSettings.fullModeBitRate,
                                     timelapsePeakBitRate: RecordSettings.timelapsePeakBitRate,
                                     outputFramesPerSecond: Double(TimelapseSchedule.outputFramesPerSecond),
                                     intervalSeconds: interval.seconds)
    }

    /// The picture size.
    public var dimensions: VideoDimensions { canvas.dimensions(portrait: portrait) }

    /// The encoder settings for a source delivering `framesPerSecond`.
    public func videoEncoder(sourceFramesPerSecond: Double) -> VideoEncoderSettings {
        let size = dimensions
        switch mode {
        case .timelapse:
            let fps = Int(TimelapseSchedule.outputFramesPerSecond)
            return VideoEncoderSettings(codec: .h264, width: size.width, height: size.height, framesPerSecond: fps,
                                        bitRate: RecordSettings.timelapsePeakBitRate, preset: RecordSettings.encoderPreset,
                                        keyFrameInterval: 10 * fps, zeroLatency: true,
                                        constantRateFactor: RecordSettings.timelapseQuality)
        case .full:
            let fps = max(1, Int(sourceFramesPerSecond.rounded()))
            return VideoEncoderSettings(codec: .h264, width: size.width, height: size.height, framesPerSecond: fps,
                                        bitRate: RecordSettings.fullModeBitRate, preset: RecordSettings.encoderPreset,
                                        keyFrameInterval: 2 * fps, zeroLatency: true)
        }
    }

    /// MP4 metadata: the title, and the tags as a comment.
    public var metadata: [String: String] {
        var tags: [String: String] = ["comment": "Reel study recording (\(mode.rawValue)\(mode == .timelapse ? ", every \(interval.seconds.formatted3) s of study" : ""))"]
        if let title { tags["title"] = title }
        if !self.tags.isEmpty { tags["comment"]! += "; tags: " + self.tags.joined(separator: ", ") }
        tags[RecordingOutput.stampTag] = RecordingOutput.videoStamp(id: id)  // what makes the finished file this session's
        return tags
    }

    /// The folder of this recording in progress.
    public var sessionFolder: String { stateFolder + "/" + id.uuidString.lowercased() }
    /// The thumbnail beside the output: `NAME.jpg`.
    public var thumbnailPath: String { RecordingFinisher.thumbnailPath(for: outputPath) }
    /// The face track beside the output: `NAME.faces.json`.
    public var faceTrackPath: String { RecordingFinisher.faceTrackPath(for: outputPath) }

    /// `$XDG_STATE_HOME/reel/recordings`.
    public static func defaultStateFolder(_ folders: XDGDirectories) -> String {
        folders.state + "/reel/recordings"
    }

    /// `$XDG_DATA_HOME/reel/recordings/reel-YYYYMMDD-HHMMSS-MODE.mp4` (local time). The name
    /// goes down to the second, so two recordings started in one second share it: the recorder
    /// claims it at start and takes `-2`, `-3`… when it is taken (``numbersOutputWhenTaken``).
    public static func defaultOutputPath(_ folders: XDGDirectories, mode: RecordingMode, now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return folders.data + "/reel/recordings/reel-" + formatter.string(from: now) + "-" + mode.rawValue + ".mp4"
    }
}
