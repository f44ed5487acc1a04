import CFFmpeg
import Foundation
import ReelCore

/// Encodes pictures into a fragmented MP4 whose fragments end where the caller says, and
/// hands out the bytes: the recording writer of the study recorder. It never opens a path;
/// the caller appends the bytes to its file (and syncs them) after each cut.
///
/// The file starts with ftyp + an empty moov (the track's description, no samples), then one
/// moof + mdat per ``cutFragment()``: a file cut short after any fragment still plays up to
/// there. Fragments need not start on a key frame (this is one file read from the start, not
/// HLS), so a caller can cut on time alone. With ``VideoEncoderSettings/zeroLatency`` every
/// picture's packet leaves the encoder at once, so a cut holds every picture given before it.
/// Not thread-safe: one owner thread.
public final class FragmentedMP4Writer {
    private let core: EncodingMuxer
    private var finished = false
    private var pending = 0

    /// Cuts only where asked; the moov comes first and stays empty; offsets per fragment.
    static let movflags = "frag_custom+empty_moov+default_base_moof"

    /// A writer encoding with `video`; `metadata` are global tags ("title", "comment").
    public init(video: VideoEncoderSettings, metadata: [String: String] = [:]) throws {
        core = try EncodingMuxer(video: video, audio: nil, output: .memory, movflags: FragmentedMP4Writer.movflags,
                                 metadata: metadata)
    }

    /// Pictures encoded so far.
    public var videoFrames: Int { core.videoFrames }
    /// Pictures given since the last cut.
    public var framesSinceCut: Int { pending }

    /// The header bytes (ftyp + empty moov), then everything up to the last cut, come out of
    /// ``cutFragment()``; this scales and encodes one picture at video time `pts`.
    public func appendVideo(_ frame: VideoFrame, pts: MediaTime) throws {
        try core.appendVideo(frame, pts: pts, keyFrame: false)
        pending += 1
    }

    /// Ends the fragment in progress and returns the bytes written since the last call (the
    /// first call also returns the header). Returns the header alone, or nothing, when no
    /// picture was given since the last cut.
    public func cutFragment() throws -> Data {
        if pending > 0 { try core.muxer.flushFragment() }
        pending = 0
        return core.muxer.takeBytes()
    }

    /// Flushes the encoder, writes the last fragment and the trailer; returns the last bytes.
    public func finish() throws -> Data {
        guard !finished else { return Data() }
        finished = true
        defer { core.muxer.teardown() }
        try core.finishEncoders()
        try core.muxer.writeTrailer()
        pending = 0
        return core.muxer.takeBytes()
    }

    /// Gives up after a failure: nothing more is encoded; what was cut stays valid.
    public func abandon() {
        finished = true
        core.muxer.teardown()
    }
}
