import Foundation
import ReelCore
import ReelMedia

/// The H.264 the cinematic camera writes: CRF 20 for a video with the blur baked in, 16 for an
/// editable recording's unblurred pictures (rendered again later, so kept closer to the
/// source); a key frame every 2 s.
public enum CinematicEncoding {
    /// The CRF of a picture that is shown as it is.
    public static let bakedCRF = 20
    /// The CRF of an editable recording's unblurred pictures.
    public static let editableCRF = 16

    /// The encoder's settings for `width`×`height` at `framesPerSecond`.
    public static func video(width: Int, height: Int, framesPerSecond: Double, editable: Bool = false) -> VideoEncoderSettings {
        let fps = max(1, Int(framesPerSecond.rounded()))
        return VideoEncoderSettings(codec: .h264, width: width, height: height, framesPerSecond: fps,
                                    bitRate: width * height * fps / 5, keyFrameInterval: 2 * fps,
                                    constantRateFactor: editable ? editableCRF : bakedCRF)
    }
}

/// A cinematic clip being written: the fragmented MP4 (so a crash keeps every fragment) and,
/// for an editable clip, its sidecar of layers and decisions beside it. Times count from the
/// first sample; a picture whose time does not advance is left out. Used by `reel cinematic
/// --output` and by the studio's record button; one thread writes.
public final class CinematicClipWriter {
    /// The MP4.
    public let path: String
    /// Whether the pictures are kept unblurred with a sidecar.
    public let editable: Bool
    private let writer: MP4ArchiveWriter
    private let sidecar: CinematicSidecarWriter?
    private var first: MediaTime?
    private var lastVideo: MediaTime?
    /// Pictures written.
    public private(set) var pictures = 0
    /// The time of the last picture written, in seconds from the first sample.
    public private(set) var seconds = 0.0

    /// Creates `path` (and, editable, its sidecar) for pictures of `format` (an even size);
    /// neither may exist. Nothing is left behind when it cannot be made.
    public init(path: String, format: CaptureFormat, editable: Bool) throws {
        self.path = path
        self.editable = editable
        let video = CinematicEncoding.video(width: format.width, height: format.height, framesPerSecond: format.framesPerSecond, editable: editable)
        let audio = format.audio.map { AudioEncoderSettings(sampleRate: $0.sampleRate, channels: min(2, $0.channels), bitRate: 128_000) }
        writer = try MP4ArchiveWriter(path: path, video: video, audio: audio)
        guard editable else {
            sidecar = nil
            return
        }
        let cells = LayerMap.size(forWidth: format.width, height: format.height)
        let header = CinematicSidecar.Header(width: format.width, height: format.height, cellsWidth: cells.width, cellsHeight: cells.height)
        do {
            sidecar = try CinematicSidecarWriter(path: CinematicSidecarWriter.path(forVideo: path), header: header)
        } catch {
            writer.abandon()
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
    }

    /// A sample's time in the clip (the first sample's capture time is 0).
    public func time(of captureTime: MediaTime) -> MediaTime {
        let start = first ?? captureTime
        first = start
        return captureTime - start
    }

    /// Appends a picture at `pts` (from ``time(of:)``) and, editable, the camera's `result` for
    /// it; false when it was left out (its time does not advance).
    @discardableResult
    public func appendVideo(_ frame: VideoFrame, pts: MediaTime, result: CinematicFrame?) throws -> Bool {
        if let lastVideo, pts <= lastVideo { return false }
        try writer.appendVideo(frame, pts: pts)
        if let sidecar, let result { try sidecar.append(result, at: pts) }
        lastVideo = pts
        pictures += 1
        seconds = pts.seconds
        return true
    }

    /// Appends sound at `pts`.
    public func appendAudio(_ block: AudioBlock, pts: MediaTime) throws {
        try writer.appendAudio(block, pts: pts)
    }

    /// Closes the MP4 and the sidecar, which ends with the finished video's identity
    /// (``CinematicSidecar/VideoIdentity``).
    public func finish() throws {
        try writer.finish()
        guard let sidecar else { return }
        let ticks = lastVideo.map { $0.converted(to: 90_000).value } ?? 0
        try sidecar.close(video: CinematicSidecarWriter.identity(ofVideo: path, pictures: pictures, ticks: ticks))
    }

    /// Closes after a failure: every fragment written stays.
    public func abandon() {
        writer.abandon()
        try? sidecar?.close()
    }

    /// Whether the MP4 holds a whole fragment of pictures (a `moof` and the complete `mdat`
    /// after it): what a failure leaves is worth keeping only then.
    public var holdsPictures: Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return false }
        var offset: UInt64 = 0, fragment = false
        while offset + 8 <= size {
            guard (try? handle.seek(toOffset: offset)) != nil, let head = try? handle.read(upToCount: 16), head.count >= 8 else { return false }
            let bytes = [UInt8](head)
            var length = bytes[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if length == 1, bytes.count == 16 { length = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
            if length == 0 { length = size - offset }
            guard length >= 8, offset + length <= size else { return false }
            switch String(decoding: bytes[4..<8], as: UTF8.self) {
            case "moof": fragment = true
            case "mdat" where fragment: return true
            default: break
            }
            offset += length
        }
        return false
    }

    /// Removes the MP4 and the sidecar (after a failure that left no picture in them).
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
        if let sidecar { try? FileManager.default.removeItem(atPath: sidecar.path) }
    }
}
