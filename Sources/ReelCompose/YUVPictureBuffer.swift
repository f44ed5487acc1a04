/// A 4:2:0 picture that owns its planes (tightly packed): for stills, tests and benchmarks.
/// Hand its ``picture`` to the compositors; the view is valid while the buffer lives.
public final class YUVPictureBuffer {
    /// Width in luma pixels.
    public let width: Int
    /// Height in luma pixels.
    public let height: Int
    private let storage: UnsafeMutablePointer<UInt8>
    private let count: Int

    /// A picture of `width` × `height`, filled with `fill` (Y, Cb, Cr; black in limited range
    /// by default).
    public init(width: Int, height: Int, fill: (y: UInt8, u: UInt8, v: UInt8) = (16, 128, 128)) {
        precondition(width > 0 && height > 0, "a picture needs a positive size")
        self.width = width
        self.height = height
        let lumaCount = width * height
        let chromaCount = ((width + 1) / 2) * ((height + 1) / 2)
        count = lumaCount + 2 * chromaCount
        storage = .allocate(capacity: count)
        storage.initialize(repeating: fill.y, count: lumaCount)
        (storage + lumaCount).initialize(repeating: fill.u, count: chromaCount)
        (storage + lumaCount + chromaCount).initialize(repeating: fill.v, count: chromaCount)
    }

    deinit { storage.deallocate() }

    /// The borrowed view of the planes.
    public var picture: YUVPicture {
        let lumaCount = width * height
        let chromaCount = ((width + 1) / 2) * ((height + 1) / 2)
        return YUVPicture(width: width, height: height,
                          y: storage, yStride: width,
                          u: storage + lumaCount, uStride: (width + 1) / 2,
                          v: storage + lumaCount + chromaCount, vStride: (width + 1) / 2)
    }

    /// All bytes, planes one after the other (Y, Cb, Cr), as a raw `yuv420p` file holds them.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    /// Replaces the content with `bytes` (the layout of ``bytes``).
    public func load(_ bytes: [UInt8]) {
        precondition(bytes.count == count, "\(bytes.count) bytes for a \(width)x\(height) yuv420p picture of \(count)")
        bytes.withUnsafeBufferPointer { storage.update(from: $0.baseAddress!, count: count) }
    }

    /// A copy with its own planes.
    public func copy() -> YUVPictureBuffer {
        let other = YUVPictureBuffer(width: width, height: height)
        other.storage.update(from: storage, count: count)
        return other
    }
}
