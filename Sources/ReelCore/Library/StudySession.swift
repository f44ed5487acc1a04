import Foundation

/// One finished study recording, as the library keeps it (docs/behaviour.md §1, Library and
/// backup).
///
/// A plain value: the store (`ReelStore.StudyLibrary`) saves and reads it, backup and restore
/// merge it by ``id``.
public struct StudySession: Sendable, Equatable, Codable {
    /// The session id (the recording's id; also the name of its work folder while recording).
    public var id: UUID
    /// When the recording started and ended (wall clock).
    public var startedAt: Date, endedAt: Date
    /// Study time counted by the active clock, in seconds.
    public var activeSeconds: Double
    /// Length of the video, in seconds.
    public var videoSeconds: Double
    /// Timelapse or full.
    public var mode: RecordingMode
    /// Timelapse: seconds of study between frames (nil in full mode).
    public var intervalSeconds: Double?
    /// The finished MP4.
    public var filePath: String
    /// The JPEG beside it (nil: none was made).
    public var thumbnailPath: String?
    /// The face track beside it (nil: none was written).
    public var faceTrackPath: String?
    /// The user's title.
    public var title: String?
    /// Tag names (unique, exact spelling, in the order given).
    public var tags: [String]
    /// True when `reel recover` finished it after a crash (its end may be up to 2 s short).
    public var recovered: Bool
    /// How the recording coped with heat and load (nil: not measured, as for a recovered
    /// session or one recorded before Reel measured it).
    public var load: RecordingLoad?

    /// A session.
    public init(id: UUID, startedAt: Date, endedAt: Date, activeSeconds: Double, videoSeconds: Double, mode: RecordingMode,
                intervalSeconds: Double?, filePath: String, thumbnailPath: String?, faceTrackPath: String?,
                title: String?, tags: [String], recovered: Bool = false, load: RecordingLoad? = nil) {
        self.id = id
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.activeSeconds = activeSeconds
        self.videoSeconds = videoSeconds
        self.mode = mode
        self.intervalSeconds = intervalSeconds
        self.filePath = filePath
        self.thumbnailPath = thumbnailPath
        self.faceTrackPath = faceTrackPath
        self.title = title
        var seen = Set<String>()
        self.tags = tags.filter { seen.insert($0).inserted }
        self.recovered = recovered
        self.load = load
    }
}
