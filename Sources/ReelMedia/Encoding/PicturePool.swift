import CFFmpeg

/// Reusable YUV 4:2:0 pictures of one size, for a scaler that makes a new picture per frame.
///
/// Each picture's planes live in one buffer from an `AVBufferPool`: when the last reference
/// to a picture goes (the encoder has copied it), its buffer returns to the pool and the next
/// picture takes it. Without the pool every frame allocated and freed 3 MB (a 1080x1920
/// archive picture) on the branch's thread, and the freed blocks stayed in that thread's
/// malloc arena: about 10 MB more peak memory on the `--fast` benchmark. Pictures from the
/// pool are writable by their one holder, like `av_frame_get_buffer`'s, and may outlive the
/// pool (its buffers are freed when the last one comes back).
///
/// Not thread-safe to take from (one owner thread); the pictures themselves can go anywhere.
final class PicturePool {
    let width: Int, height: Int
    private let pool: OpaquePointer
    private let lineSizes: [Int32]
    private let planeOffsets: [Int]

    /// Line and plane alignment in bytes (what SIMD code in the scaler and encoders expects).
    static let alignment = 64

    /// A pool of `width` × `height` pictures.
    init(width: Int, height: Int) throws {
        func aligned(_ value: Int) -> Int { (value + PicturePool.alignment - 1) / PicturePool.alignment * PicturePool.alignment }
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        let lines = [aligned(width), aligned(chromaWidth), aligned(chromaWidth)]
        let rows = [height, chromaHeight, chromaHeight]
        var offsets: [Int] = []
        var size = 0
        for plane in 0..<3 {
            offsets.append(size)
            size += aligned(lines[plane] * rows[plane])
        }
        // av_frame_get_buffer's slack past the last line, for SIMD reads of a whole vector.
        size += PicturePool.alignment
        guard let pool = av_buffer_pool_init(size, nil) else {
            throw FFmpegError("allocating a \(width)x\(height) picture pool", code: AV.error(ENOMEM))
        }
        self.width = width
        self.height = height
        self.pool = pool
        self.lineSizes = lines.map { Int32($0) }
        self.planeOffsets = offsets
    }

    deinit {
        var pool: OpaquePointer? = pool
        av_buffer_pool_uninit(&pool)
    }

    /// A new picture the caller owns (free it with `av_frame_free`), its planes from the pool.
    func picture() throws -> UnsafeMutablePointer<AVFrame> {
        guard let frame = av_frame_alloc() else { throw FFmpegError("allocating a video frame", code: AV.error(ENOMEM)) }
        guard let buffer = av_buffer_pool_get(pool), let base = buffer.pointee.data else {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&f)
            throw FFmpegError("allocating \(width)x\(height) picture buffers", code: AV.error(ENOMEM))
        }
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.buf.0 = buffer
        let raw = UnsafeMutableRawPointer(frame)
        let data = (raw + MemoryLayout<AVFrame>.offset(of: \AVFrame.data)!).assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
        let lines = (raw + MemoryLayout<AVFrame>.offset(of: \AVFrame.linesize)!).assumingMemoryBound(to: Int32.self)
        for plane in 0..<3 {
            data[plane] = base + planeOffsets[plane]
            lines[plane] = lineSizes[plane]
        }
        frame.pointee.extended_data = data
        return frame
    }
}
