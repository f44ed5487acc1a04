import Foundation
import ReelCore
import ReelMedia

/// The vlog's one continuous timeline: every picture at the next frame time, the music
/// following the pictures, both queued on the run's encoder.
final class VlogTimeline {
    /// The run the pictures go to (it counts them).
    let run: ExportRun
    private let music: VlogSoundtrack
    private let framesPerSecond: Int
    private let progress: (Int) -> ExportProgress

    /// A timeline at `framesPerSecond`; `progress` turns a picture count into the progress shown.
    init(run: ExportRun, music: VlogSoundtrack, framesPerSecond: Int, progress: @escaping (Int) -> ExportProgress) {
        self.run = run
        self.music = music
        self.framesPerSecond = framesPerSecond
        self.progress = progress
    }

    /// The time of picture `index`.
    func time(_ index: Int) -> MediaTime { MediaTime(value: Int64(index), timescale: Int32(framesPerSecond)) }

    /// Shows `picture` for one frame, and the music up to its end.
    func emit(_ picture: VideoFrame) throws {
        try run.write(picture, pts: time(run.pictures), progress: progress)
        try music.write(untilFrame: run.pictures, framesPerSecond: framesPerSecond, on: run)
    }

    /// The music up to the last picture's end.
    func finishMusic() throws {
        try music.write(untilFrame: run.pictures, framesPerSecond: framesPerSecond, on: run)
    }
}

/// The vlog's background music: decoded once as 48 kHz stereo, looped or trimmed to the vlog,
/// faded in and out (``WeeklyVlog/musicGain(at:total:)``), written in blocks of 1024 samples
/// as the pictures advance. Empty without music.
final class VlogSoundtrack {
    static let sampleRate = 48_000
    private static let block = 1024
    private let samples: [Float]
    private let totalSeconds: Double
    /// Samples per channel written so far.
    private var written = 0

    /// The music at `path` (nil: none) for a vlog of `totalSeconds`; a file that cannot be
    /// read or holds no sound is a vlog error.
    init(path: String?, totalSeconds: Double) throws {
        self.totalSeconds = totalSeconds
        guard let path else {
            samples = []
            return
        }
        do {
            samples = try AudioFileDecoder.stereoSamples(of: path, sampleRate: Self.sampleRate)
        } catch {
            throw WeeklyVlog.Error("cannot read the background music: \(error)")
        }
        guard samples.count >= 2 else { throw WeeklyVlog.Error("the background music \(path) holds no sound") }
    }

    /// Whether there is no music.
    var isEmpty: Bool { samples.isEmpty }

    /// AAC stereo at 160 kb/s, or nil without music.
    var encoderSettings: AudioEncoderSettings? {
        isEmpty ? nil : AudioEncoderSettings(sampleRate: Self.sampleRate, channels: 2, bitRate: 160_000)
    }

    /// Writes every whole block that ends by picture `index`'s time.
    func write(untilFrame index: Int, framesPerSecond: Int, on run: ExportRun) throws {
        guard !isEmpty else { return }
        let end = index * Self.sampleRate / framesPerSecond
        while written + Self.block <= end {
            var block = [Float](repeating: 0, count: Self.block * 2)
            for i in 0..<Self.block {
                let n = written + i
                let gain = Float(WeeklyVlog.musicGain(at: Double(n) / Double(Self.sampleRate), total: totalSeconds))
                let source = (n * 2) % samples.count
                block[2 * i] = samples[source] * gain
                block[2 * i + 1] = samples[(source + 1) % samples.count] * gain
            }
            let pts = MediaTime(value: Int64(written), timescale: Int32(Self.sampleRate))
            try run.write(audio: try AudioBlock.stereo(block[...], sampleRate: Self.sampleRate, at: pts), pts: pts)
            written += Self.block
        }
    }
}
