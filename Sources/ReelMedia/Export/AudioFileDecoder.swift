import CFFmpeg
import Foundation
import ReelCore

/// Decodes a whole audio file (or a video's sound) to interleaved stereo float samples at one
/// rate, for the weekly vlog's background music (libswresample converts any format, rate and
/// layout).
public enum AudioFileDecoder {
    /// Every sample of `path` as interleaved stereo (L, R, L, R, …) at `sampleRate`; a file
    /// without sound or one that cannot be read is a clear error naming the file.
    public static func stereoSamples(of path: String, sampleRate: Int = 48_000) throws -> [Float] {
        let reader = try MediaReader(url: path, wantVideo: false, wantAudio: true)
        guard reader.hasAudioStream else { throw CaptureError(source: path, reason: "there is no sound in it") }
        var resampler: OpaquePointer?
        defer { swr_free(&resampler) }
        var key: (Int32, Int32, Int32)?
        var out: [Float] = []
        var outLayout = AVChannelLayout()
        reel_default_layout(&outLayout, 2)
        defer { av_channel_layout_uninit(&outLayout) }
        func convert(_ frame: UnsafeMutablePointer<AVFrame>?) throws {
            let inputCount = frame?.pointee.nb_samples ?? 0
            if let frame {
                let k = (frame.pointee.format, frame.pointee.sample_rate, frame.pointee.ch_layout.nb_channels)
                if key.map({ $0 != k }) ?? true {
                    swr_free(&resampler)
                    try check(swr_alloc_set_opts2(&resampler, &outLayout, AV_SAMPLE_FMT_FLT, Int32(sampleRate),
                                                  &frame.pointee.ch_layout, AVSampleFormat(rawValue: frame.pointee.format), frame.pointee.sample_rate, 0, nil),
                              "preparing the resampler for \(path)")
                    try check(swr_init(resampler), "preparing the resampler for \(path)")
                    key = k
                }
            }
            guard resampler != nil else { return }
            let capacity = Int(swr_get_out_samples(resampler, inputCount)) + 256
            var buffer = [Float](repeating: 0, count: capacity * 2)
            let count = try buffer.withUnsafeMutableBytes { raw -> Int32 in
                var outPointer: UnsafeMutablePointer<UInt8>? = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let status: Int32
                if let frame {
                    let source = UnsafeMutableRawPointer(frame.pointee.extended_data!).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
                    status = swr_convert(resampler, &outPointer, Int32(capacity), source, inputCount)
                } else {
                    status = swr_convert(resampler, &outPointer, Int32(capacity), nil, 0)
                }
                try check(status, "resampling \(path)")
                return status
            }
            out.append(contentsOf: buffer.prefix(Int(count) * 2))
        }
        while try reader.readFrames({ decoded in
            switch decoded {
            case .audio(let frame, _):
                defer { var f: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&f) }
                try convert(frame)
            case .video(let frame, _):
                var f: UnsafeMutablePointer<AVFrame>? = frame
                av_frame_free(&f)
            }
        }) {}
        try convert(nil)
        return out
    }
}

extension AudioBlock {
    /// A block of interleaved stereo float samples at `sampleRate`, first sample at `time`.
    public static func stereo(_ samples: ArraySlice<Float>, sampleRate: Int, at time: MediaTime) throws -> AudioBlock {
        guard let frame = av_frame_alloc() else { throw FFmpegError("allocating audio", code: AV.error(ENOMEM)) }
        let block = AudioBlock(taking: frame, captureTime: time)
        frame.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        frame.pointee.sample_rate = Int32(sampleRate)
        frame.pointee.nb_samples = Int32(samples.count / 2)
        reel_default_layout(&frame.pointee.ch_layout, 2)
        try check(av_frame_get_buffer(frame, 0), "allocating audio")
        samples.withUnsafeBytes { raw in
            frame.pointee.data.0!.update(from: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: raw.count)
        }
        return block
    }
}
