import Foundation

/// What a recording in progress writes next to its video every 30 s and at every pause, so
/// the next start can finish it after a crash (docs/behaviour.md §1, Robustness on a desk).
///
/// JSON, keys sorted, dates ISO 8601 UTC with milliseconds. The writer replaces it atomically (temp file, fsync,
/// rename): a reader finds the previous checkpoint or the new one, never a mix.
public struct RecordingCheckpoint: Sendable, Equatable, Codable {
    /// The format this Reel writes.
    public static let currentVersion = 1

    /// The format version.
    public var version: Int
    /// The session id.
    public var id: UUID
    /// The fragmented MP4 being written.
    public var videoPath: String
    /// Where the finished MP4 goes.
    public var outputPath: String
    /// The picture size.
    public var canvasWidth: Int, canvasHeight: Int
    /// The mode.
    public var mode: RecordingMode
    /// Timelapse: seconds of active time between frames (nil in full mode).
    public var intervalSeconds: Double?
    /// Active time so far, in seconds.
    public var activeSeconds: Double
    /// Frames in the video so far.
    public var framesWritten: Int
    /// The state when written.
    public var state: RecordingStateMachine.State
    /// When the recording started and when this checkpoint was written.
    public var startedAt: Date, updatedAt: Date
    /// The user's title and tags.
    public var title: String?
    public var tags: [String]
    /// The face positions so far (as of this checkpoint; the face log in the work folder has
    /// the newer ones, see ``FaceSampleLog``).
    public var faceTrack: FaceTrack
    /// Whether the face tracker was asked for (false: `--no-faces`); nil in checkpoints written
    /// before this field existed, which count as asked for.
    public var facesRequested: Bool?
    /// The camera device the recording holds (`/dev/video0`; nil for files, the test source,
    /// and checkpoints written before this field existed): a second recording from it is
    /// refused.
    public var device: String?

    /// A checkpoint of the current format.
    public init(id: UUID, videoPath: String, outputPath: String, canvas: VideoDimensions, mode: RecordingMode,
                intervalSeconds: Double?, activeSeconds: Double, framesWritten: Int, state: RecordingStateMachine.State,
                startedAt: Date, updatedAt: Date, title: String?, tags: [String], faceTrack: FaceTrack, facesRequested: Bool = true, device: String? = nil) {
        version = RecordingCheckpoint.currentVersion
        self.id = id
        self.videoPath = videoPath
        self.outputPath = outputPath
        canvasWidth = canvas.width
        canvasHeight = canvas.height
        self.mode = mode
        self.intervalSeconds = intervalSeconds
        self.activeSeconds = activeSeconds
        self.framesWritten = framesWritten
        self.state = state
        self.startedAt = startedAt
        self.updatedAt = updatedAt
        self.title = title
        self.tags = tags
        self.faceTrack = faceTrack
        self.facesRequested = facesRequested
        self.device = device
    }

    /// The canvas.
    public var canvas: VideoDimensions { VideoDimensions(width: canvasWidth, height: canvasHeight) }

    /// A checkpoint that cannot be used, with what is wrong.
    public struct Error: Swift.Error, CustomStringConvertible, Equatable {
        /// What is wrong and what to do.
        public var description: String
    }

    /// Dates: ISO 8601 UTC with milliseconds (recovery measures from the start; whole seconds
    /// also read, as the first checkpoints were written).
    static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!)

    /// The JSON bytes.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(RecordingCheckpoint.dateStyle))
        }
        return try encoder.encode(self)
    }

    /// Reads a checkpoint; a damaged or newer one is an ``Error`` that says so.
    public static func decode(json data: Data) throws(Error) -> RecordingCheckpoint {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = try? RecordingCheckpoint.dateStyle.parse(text) { return date }
            if let date = try? Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!).parse(text) { return date }
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not an ISO 8601 date"))
        }
        struct VersionOnly: Decodable { var version: Int }
        guard let probe = try? decoder.decode(VersionOnly.self, from: data) else {
            throw Error(description: data.isEmpty ? "the checkpoint is empty" : "the checkpoint is not a Reel checkpoint (no version field, or not JSON)")
        }
        guard probe.version <= currentVersion else {
            throw Error(description: "checkpoint version \(probe.version) was written by a newer Reel (this one reads \(currentVersion)); update Reel")
        }
        do {
            let checkpoint = try decoder.decode(RecordingCheckpoint.self, from: data)
            try checkpoint.validate()
            return checkpoint
        } catch let error as Error {
            throw error
        } catch let error as FaceTrack.Error {
            throw Error(description: "the checkpoint's \(error)")
        } catch let DecodingError.keyNotFound(key, _) {
            throw Error(description: "the checkpoint is damaged: '\(key.stringValue)' is missing")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw Error(description: "the checkpoint is damaged at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'")
        } catch let DecodingError.dataCorrupted(context) {
            throw Error(description: "the checkpoint is damaged: \(context.debugDescription)")
        } catch {
            throw Error(description: "the checkpoint is damaged: \(error)")
        }
    }

    private func validate() throws(Error) {
        guard !videoPath.isEmpty, !outputPath.isEmpty else { throw Error(description: "the checkpoint names no video file") }
        guard canvasWidth > 0, canvasHeight > 0 else { throw Error(description: "the checkpoint's canvas \(canvasWidth)x\(canvasHeight) is not a picture size") }
        guard activeSeconds >= 0, activeSeconds.isFinite, framesWritten >= 0 else {
            throw Error(description: "the checkpoint's active time or frame count is negative")
        }
        if mode == .timelapse, !(intervalSeconds.map { $0 > 0 } ?? false) {
            throw Error(description: "the checkpoint is a timelapse without a positive interval")
        }
    }
}

/// When to write the next checkpoint: every 30 s of wall time while the recorder runs (in any
/// state: an interruption that lasts is recorded too), and at once after a pause or an
/// interruption (the caller asks for those with ``requestNow()``).
public struct CheckpointSchedule: Sendable, Equatable {
    /// The period docs/behaviour.md §1 (Robustness on a desk) asks for: 30 s.
    public static let defaultPeriod = MediaTime(value: 30, timescale: 1)

    /// Time between periodic checkpoints.
    public let period: MediaTime
    /// When the last checkpoint was written (nil: none yet).
    public private(set) var lastWritten: MediaTime?
    private var requested = false

    /// A schedule with `period` between checkpoints.
    public init(period: MediaTime = CheckpointSchedule.defaultPeriod) {
        precondition(period > .zero, "a checkpoint period must be positive")
        self.period = period
    }

    /// Asks for a checkpoint at the next ``isDue(now:)``.
    public mutating func requestNow() { requested = true }

    /// Whether a checkpoint is due at `now` (the first one at once).
    public func isDue(now: MediaTime) -> Bool {
        guard !requested, let lastWritten else { return true }
        return now - lastWritten >= period
    }

    /// Records that a checkpoint was written at `now`.
    public mutating func written(at now: MediaTime) {
        lastWritten = now
        requested = false
    }
}

/// Notices a source that stopped delivering: no frame for `limit` while the capture is not
/// itself held up (waiting for the writer is not the source's fault).
public struct StallWatch: Sendable, Equatable {
    /// How long without a frame counts as stopped.
    public let limit: MediaTime
    /// When the last frame arrived (nil: none yet, measured from the start).
    public private(set) var lastFrame: MediaTime

    /// A watch started at `now`.
    public init(limit: MediaTime, now: MediaTime) {
        self.limit = limit
        lastFrame = now
    }

    /// A frame arrived at `now`.
    public mutating func frameArrived(at now: MediaTime) { lastFrame = max(lastFrame, now) }

    /// Whether the source counts as stopped at `now`; `captureWaiting` when the capture is
    /// blocked on a full queue (then it is never the source's fault, and the watch restarts).
    public mutating func isStalled(now: MediaTime, captureWaiting: Bool) -> Bool {
        if captureWaiting {
            lastFrame = now
            return false
        }
        return now - lastFrame > limit
    }
}
