import ReelMedia
import ReelRuntime

/// How much one fan-out queue of `reel live` may hold: a number of items (video frames and
/// audio blocks) and a number of bytes, both chosen from the source's frame rate and size.
///
/// Decoded pictures are what fill memory: a 1080p frame is about 3 MB, so a queue bounded
/// only in items held up to 150 MB of frames waiting for the archive. The byte bound counts
/// what each frame really keeps alive (``ReelMedia/CaptureSample/byteCost``) against
/// ``bytesPerPixel`` × width × height per picture.
///
/// - Real time (a camera, the test pattern): the live queue holds 1 s and the archive's 2 s
///   of capture, in items and in bytes, so a short stall of an encoder loses nothing; past
///   that the policy drops the oldest video frame (never audio) and capture never waits.
/// - `--fast` (a file as fast as the encoders go): nothing is dropped, so a full queue makes
///   the source wait; waiting is the point, and a few pictures are enough to keep every
///   encoder busy. The archive (the slowest encoder) would otherwise run 2 s of decoded
///   frames ahead for nothing.
struct BranchQueueBounds: Equatable, Sendable {
    /// Items the queue holds before its policy applies.
    var capacity: Int
    /// Bytes the queue holds before its policy applies.
    var byteLimit: Int

    /// The bytes a queue reckons per pixel of a picture: an 8-bit 4:2:0 picture with its
    /// decoder's padding takes about 1.6, a camera's packed 4:2:2 exactly 2.
    static let bytesPerPixel = 2
    /// Seconds of capture the live queue holds in real time.
    static let liveSeconds = 1.0
    /// Seconds of capture the archive queue holds in real time.
    static let archiveSeconds = 2.0
    /// Pictures a queue holds with `--fast`.
    /// Pictures a queue holds with `--fast`: the one its encoder takes next. The encoder
    /// works on the picture it popped while the source decodes the following one, so one is
    /// enough to keep it busy. Measured on the 1080p `--fast` benchmark (debug build, 20 s,
    /// peak RSS, before the scaler's picture pool): 1 → 339 MB, 2 → 343, 4 → 348, 8 → 363;
    /// bounded in items only (120) → 463. CPU time and wall time did not change.
    static let fastPictures = 1

    /// The bounds of a queue holding `seconds` of capture in real time, or ``fastPictures``
    /// with `fast`, for a source of `framesPerSecond` pictures of `width` × `height`.
    ///
    /// In real time the items are two per frame of those seconds (a frame and about an audio
    /// block), as before the byte bound came. With `--fast` the bytes decide: eight items per
    /// picture leave room for the audio blocks between them at any frame rate, and a picture
    /// larger than the bound (10-bit) still enters an empty queue.
    static func holding(seconds: Double, fast: Bool, framesPerSecond: Double, width: Int, height: Int) -> BranchQueueBounds {
        let pictureBytes = max(width * height * bytesPerPixel, 1)
        if fast {
            return BranchQueueBounds(capacity: 8 * fastPictures, byteLimit: fastPictures * pictureBytes)
        }
        let pictures = max(Int(framesPerSecond * seconds), 1)
        return BranchQueueBounds(capacity: 2 * pictures, byteLimit: pictures * pictureBytes)
    }

    /// A queue of these bounds for the fan-out, counting each sample's bytes and dropping
    /// only video frames (when `policy` drops at all).
    func queue(name: String, policy: ConsumerQueue<CaptureSample>.Policy) -> ConsumerQueue<CaptureSample> {
        ConsumerQueue(name: name, capacity: capacity, byteLimit: byteLimit, policy: policy,
                      isDroppable: { $0.isDroppable }, byteCost: { $0.byteCost })
    }
}
