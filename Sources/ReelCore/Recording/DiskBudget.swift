/// How much disk a recording needs, and when to stop one before the disk is full
/// (docs/recording.md, Disk space). Pure rules: the caller measures free space (statvfs) and
/// says which file system holds what.
///
/// A recording writes twice: while recording, the fragmented MP4 grows in the work folder
/// (`$XDG_STATE_HOME/reel/recordings/ID`); at finish, the normal MP4 (moov first) is written
/// at the output, a full copy, before the fragmented one is removed. So a file system holding
/// both needs about twice the recording at the peak; one holding only the work folder needs
/// the recording; one holding only the output needs the recording's size free at finish.
public struct DiskBudget: Sendable, Equatable {
    /// Free space kept in every case (checkpoint, thumbnail, face track, library, other
    /// programs): the recording stops before free space falls under it.
    public var minimumFree: Int64
    /// Kept on top of the finishing copy on the file system that will hold the output.
    public var margin: Int64

    /// 1 GiB kept in every case, and 256 MiB on top of the finishing copy.
    public static let standard = DiskBudget(minimumFree: 1 << 30, margin: 256 << 20)

    public init(minimumFree: Int64, margin: Int64) {
        self.minimumFree = minimumFree
        self.margin = margin
    }

    /// What one file system holds.
    public struct Volume: Sendable, Equatable {
        /// Free bytes (for an unprivileged user).
        public var free: Int64
        /// Whether the recording in progress grows here, and whether the finished MP4 goes here.
        public var holdsWork: Bool, holdsOutput: Bool

        public init(free: Int64, holdsWork: Bool, holdsOutput: Bool) {
            self.free = free
            self.holdsWork = holdsWork
            self.holdsOutput = holdsOutput
        }

        /// Copies of the recording this file system takes at the peak (0, 1 or 2).
        public var copies: Int64 { (holdsWork ? 1 : 0) + (holdsOutput ? 1 : 0) }
    }

    // MARK: Before starting

    /// Bytes of video an hour of active study makes, an upper estimate. Full: the average
    /// bit rate (5 Mbps → 2.25 GB an hour). Timelapse: one output frame per `interval` seconds
    /// of study, each at most the peak rate's share of a frame at the output frame rate
    /// (constant quality, CRF 23, capped at 8 Mbps at 10 fps → ≤ 100 kB a frame →
    /// 360 MB an hour at interval 1 s, 72 MB at 5 s); real timelapses are usually smaller.
    public static func videoBytesPerHour(mode: RecordingMode, fullBitRate: Int, timelapsePeakBitRate: Int,
                                         outputFramesPerSecond: Double, intervalSeconds: Double) -> Int64 {
        switch mode {
        case .full:
            return Int64(fullBitRate) / 8 * 3600
        case .timelapse:
            let bytesPerFrame = Double(timelapsePeakBitRate) / 8 / outputFramesPerSecond
            return Int64((3600 / max(intervalSeconds, 0.001) * bytesPerFrame).rounded(.up))
        }
    }

    /// The answer for one file system before starting.
    public struct Fit: Sendable, Equatable {
        /// The volume looked at.
        public var volume: Volume
        /// Bytes of free space this recording uses per hour at the peak (copies × video).
        public var neededPerHour: Int64
        /// Hours of recording that fit before the floor stops it (infinite when nothing grows here).
        public var hours: Double
    }

    /// How many hours of recording `volume` takes before ``shouldStop(volumes:recordingBytes:)``
    /// would stop it: the recording `r` may grow while `free − r·work ≥ minimumFree` and
    /// `free − r·work ≥ r·output + margin`.
    public func fit(_ volume: Volume, videoBytesPerHour: Int64) -> Fit {
        let work = Double(volume.holdsWork ? 1 : 0), copies = Double(volume.copies)
        let free = Double(volume.free)
        var bytes = Double.infinity
        if work > 0 { bytes = min(bytes, (free - Double(minimumFree)) / work) }
        if copies > 0 { bytes = min(bytes, (free - Double(margin)) / copies) }
        let hours = bytes.isInfinite ? .infinity : max(0, bytes) / Double(max(videoBytesPerHour, 1))
        return Fit(volume: volume, neededPerHour: volume.copies * videoBytesPerHour, hours: hours)
    }

    /// The file systems that would run out within `minHours` (empty: start).
    public func shortfalls(_ volumes: [Volume], videoBytesPerHour: Int64, minHours: Double) -> [Fit] {
        guard minHours > 0 else { return [] }
        return volumes.map { fit($0, videoBytesPerHour: videoBytesPerHour) }.filter { $0.hours < minHours }
    }

    // MARK: While recording

    /// The free space `volume` must keep while the recording holds `recordingBytes`: the
    /// minimum, or the finishing copy plus the margin where the output goes, whichever is larger.
    public func floor(for volume: Volume, recordingBytes: Int64) -> Int64 {
        max(minimumFree, (volume.holdsOutput ? recordingBytes : 0) + margin)
    }

    /// The first volume under its floor (nil: keep recording).
    public func shouldStop(volumes: [Volume], recordingBytes: Int64) -> Volume? {
        volumes.first { $0.free < floor(for: $0, recordingBytes: recordingBytes) }
    }
}
