import Foundation

/// Where the face was in one recorded frame: the series the recorder stores beside the video
/// and the export's mosaic follows (docs/behaviour.md §1, Face tracker). Positions only, never
/// pixels.
public struct FaceTrackSample: Sendable, Equatable {
    /// How the box was found. Every change between a detected face and an estimate starts a
    /// new segment (the unit the review step edits).
    public enum Kind: Int, Sendable, Equatable, CaseIterable {
        /// A detected face (expanded and smoothed), or one held for up to 1.5 s after it was lost.
        case face = 0
        /// The head estimated from an upper body (its top 50 %, middle 75 % width).
        case upperBody = 1
        /// A wider box around the last face (no upper body found).
        case widenedFace = 2
        /// No face seen yet: the top region of the picture.
        case defaultRegion = 3
    }

    /// Video time of the frame (the recording's own timeline, not capture time).
    public var time: MediaTime
    /// The segment number.
    public var segment: Int
    /// How the box was found.
    public var kind: Kind
    /// The box in the recorded picture (the canvas), normalized, origin top-left.
    public var box: NormalizedRect
    /// Whose face: 0 for a study session's single subject; in arbitrary videos, where every
    /// face is tracked, one stable id per face.
    public var subject: Int

    /// A sample.
    public init(time: MediaTime, segment: Int, kind: Kind, box: NormalizedRect, subject: Int = 0) {
        self.time = time
        self.segment = segment
        self.kind = kind
        self.box = box
        self.subject = subject
    }
}

/// The face positions of a recording, in video-time order: versioned and compact.
///
/// Stored as JSON, one small array per sample so an hour of full recording (18 000 samples
/// at 5 a second) stays a few hundred kilobytes:
///
/// ```json
/// {"version":1,"timescale":600,"boxScale":10000,"samples":[[0,0,0,1500,0,7000,4500],...]}
/// ```
///
/// Each sample is `[time, segment, kind, x, y, width, height]`: time in 1/600 s of video
/// time (exact for 10 fps timelapses and for full recordings, whose timestamps use that
/// timescale), the box in 1/10000 of the picture (a fifth of a pixel at 1920 wide).
///
/// Version 2 adds the subject as an eighth number, `[time, segment, kind, x, y, width,
/// height, subject]`, for tracks of several faces (arbitrary videos, `--all-faces`). A track
/// whose samples are all subject 0 (every study session) is still written as version 1, byte
/// for byte as before, so older Reels keep reading it; a track of several faces is version 2,
/// which an older Reel refuses ("update Reel") instead of mixing the faces into one. Both
/// versions are read.
public struct FaceTrack: Sendable, Equatable, Codable {
    /// The newest format this Reel reads and writes (version 1 is still written when every
    /// sample is subject 0).
    public static let currentVersion = 2
    /// Units per second of sample times.
    public static let timescale: Int32 = 600
    /// Units per picture width or height of box coordinates.
    public static let boxScale = 10_000

    /// The samples, in the order they were taken.
    public var samples: [FaceTrackSample]

    /// A track holding `samples`.
    public init(samples: [FaceTrackSample] = []) {
        self.samples = samples
    }

    /// Adds a sample, stored at the track's precision (so what is kept in memory equals what
    /// a reader gets back).
    public mutating func append(_ sample: FaceTrackSample) {
        samples.append(FaceTrack.quantized(sample))
    }

    /// `sample` rounded to the stored precision.
    public static func quantized(_ sample: FaceTrackSample) -> FaceTrackSample {
        func q(_ v: Double) -> Double { (v * Double(boxScale)).rounded() / Double(boxScale) }
        return FaceTrackSample(time: sample.time.converted(to: timescale), segment: sample.segment, kind: sample.kind,
                               box: NormalizedRect(x: q(sample.box.x), y: q(sample.box.y),
                                                   width: q(sample.box.width), height: q(sample.box.height)),
                               subject: sample.subject)
    }

    /// A track that cannot be read.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        /// Written by a newer Reel.
        case unsupportedVersion(Int)
        /// A sample that is not seven (version 1) or eight (version 2) whole numbers, or holds
        /// an unknown kind, a negative segment or subject, or a negative size.
        case badSample(index: Int, reason: String)

        public var description: String {
            switch self {
            case .unsupportedVersion(let version):
                "face track version \(version) is newer than this Reel understands (\(FaceTrack.currentVersion)); update Reel"
            case let .badSample(index, reason): "face track sample \(index) is damaged: \(reason)"
            }
        }
    }

    private enum Keys: String, CodingKey { case version, timescale, boxScale, samples }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version <= FaceTrack.currentVersion, version >= 1 else { throw Error.unsupportedVersion(version) }
        let timescale = try container.decode(Int32.self, forKey: .timescale)
        let boxScale = try container.decode(Int.self, forKey: .boxScale)
        guard timescale > 0, boxScale > 0 else {
            throw DecodingError.dataCorruptedError(forKey: .timescale, in: container, debugDescription: "timescale and boxScale must be positive")
        }
        let rows = try container.decode([[Int64]].self, forKey: .samples)
        let columns = version == 1 ? 7 : 8
        samples = try rows.enumerated().map { index, row in
            guard row.count == columns else { throw Error.badSample(index: index, reason: "\(row.count) numbers instead of \(columns)") }
            guard let kind = FaceTrackSample.Kind(rawValue: Int(row[2])) else {
                throw Error.badSample(index: index, reason: "unknown kind \(row[2])")
            }
            guard row[1] >= 0 else { throw Error.badSample(index: index, reason: "negative segment \(row[1])") }
            guard row[5] >= 0, row[6] >= 0 else { throw Error.badSample(index: index, reason: "negative box size \(row[5])x\(row[6])") }
            let subject = columns == 8 ? row[7] : 0
            guard subject >= 0 else { throw Error.badSample(index: index, reason: "negative subject \(subject)") }
            let scale = Double(boxScale)
            return FaceTrackSample(time: MediaTime(value: row[0], timescale: timescale), segment: Int(row[1]), kind: kind,
                                   box: NormalizedRect(x: Double(row[3]) / scale, y: Double(row[4]) / scale,
                                                       width: Double(row[5]) / scale, height: Double(row[6]) / scale),
                                   subject: Int(subject))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        let multiSubject = samples.contains { $0.subject != 0 }
        try container.encode(multiSubject ? 2 : 1, forKey: .version)
        try container.encode(FaceTrack.timescale, forKey: .timescale)
        try container.encode(FaceTrack.boxScale, forKey: .boxScale)
        let scale = Double(FaceTrack.boxScale)
        let rows: [[Int64]] = samples.map { s in
            let row = [s.time.converted(to: FaceTrack.timescale).value, Int64(s.segment), Int64(s.kind.rawValue),
                       Int64((s.box.x * scale).rounded()), Int64((s.box.y * scale).rounded()),
                       Int64((s.box.width * scale).rounded()), Int64((s.box.height * scale).rounded())]
            return multiSubject ? row + [Int64(s.subject)] : row
        }
        try container.encode(rows, forKey: .samples)
    }

    /// The track as compact JSON (keys sorted, so equal tracks give equal bytes).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Reads a track written by ``jsonData()``.
    public static func decode(json data: Data) throws -> FaceTrack {
        try JSONDecoder().decode(FaceTrack.self, from: data)
    }
}

/// When the recorder asks the face tracker for a position (docs/behaviour.md §1, Face tracker:
/// one sample per written frame in timelapse mode, one per 0.2 s in full mode), on the video's
/// own timeline.
///
/// Under heat or load the recorder widens the cadence by ``factor`` (``LoadLevel``): every
/// `factor`-th written frame in timelapse mode, `factor` × 0.2 s in full mode.
public struct FaceSampleSchedule: Sendable, Equatable {
    /// Time between samples in full mode.
    public static let fullModeCadence = MediaTime(value: 1, timescale: 5)

    /// How often.
    public enum Cadence: Sendable, Equatable {
        /// Every written frame (timelapse).
        case everyWrittenFrame
        /// At most one frame per this much video time, the first frame always (full mode).
        case every(MediaTime)
    }

    /// The cadence.
    public let cadence: Cadence
    /// The cadence is widened this many times (1: as docs/behaviour.md §1 says).
    public var factor = 1 {
        didSet { precondition(factor >= 1, "factor must be at least 1") }
    }
    /// The video time of the last sample; nil before the first.
    public private(set) var lastSample: MediaTime?
    private var framesSinceSample = 0

    /// A schedule with `cadence`.
    public init(cadence: Cadence) {
        self.cadence = cadence
    }

    /// The schedule for a recording mode.
    public init(mode: RecordingMode) {
        self.init(cadence: mode == .timelapse ? .everyWrittenFrame : .every(FaceSampleSchedule.fullModeCadence))
    }

    /// Whether the written frame at video time `time` is sampled (and if so, counts it).
    public mutating func isDue(at time: MediaTime) -> Bool {
        framesSinceSample += 1
        switch cadence {
        case .everyWrittenFrame:
            if lastSample != nil, framesSinceSample < factor { return false }
        case .every(let step):
            if let lastSample, time - lastSample < step * Int64(factor) { return false }
        }
        lastSample = time
        framesSinceSample = 0
        return true
    }
}
