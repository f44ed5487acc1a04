/// A borrowed 8-bit 4:2:0 planar picture (yuv420p): the format of the decoded frames and of
/// the H.264 encoder's input. ReelCompose draws into it in place.
///
/// The picture does not own its memory: whoever builds it (the export pipeline, from an
/// `AVFrame`'s `data`/`linesize`; or a ``YUVPictureBuffer``) keeps the planes alive and
/// writable while it is used, and uses it from one thread at a time.
///
/// Chroma planes are `(width + 1) / 2` × `(height + 1) / 2`. Chroma sample `(cx, cy)` covers
/// the luma pixels `2cx…2cx+1` × `2cy…2cy+1` (the compositor treats chroma as centred on that
/// 2×2 quad).
public struct YUVPicture {
    /// Width in luma pixels.
    public let width: Int
    /// Height in luma pixels.
    public let height: Int
    /// The luma plane (Y).
    public let y: UnsafeMutablePointer<UInt8>
    /// Bytes from one luma row to the next.
    public let yStride: Int
    /// The blue-difference chroma plane (Cb).
    public let u: UnsafeMutablePointer<UInt8>
    /// Bytes from one Cb row to the next.
    public let uStride: Int
    /// The red-difference chroma plane (Cr).
    public let v: UnsafeMutablePointer<UInt8>
    /// Bytes from one Cr row to the next.
    public let vStride: Int

    /// A picture over existing planes. Strides may exceed the row width (padding), never be
    /// smaller than it.
    public init(width: Int, height: Int,
                y: UnsafeMutablePointer<UInt8>, yStride: Int,
                u: UnsafeMutablePointer<UInt8>, uStride: Int,
                v: UnsafeMutablePointer<UInt8>, vStride: Int) {
        precondition(width > 0 && height > 0, "a picture needs a positive size")
        precondition(yStride >= width && uStride >= (width + 1) / 2 && vStride >= (width + 1) / 2,
                     "a stride is shorter than its plane's row")
        self.width = width
        self.height = height
        self.y = y
        self.yStride = yStride
        self.u = u
        self.uStride = uStride
        self.v = v
        self.vStride = vStride
    }

    /// Width of the chroma planes.
    public var chromaWidth: Int { (width + 1) / 2 }
    /// Height of the chroma planes.
    public var chromaHeight: Int { (height + 1) / 2 }

    /// The picture's long side in pixels (the mosaic's block size is 3 % of it).
    public var longSide: Int { max(width, height) }

    /// One plane of the picture, as the compositor's loops see it.
    struct Plane {
        var base: UnsafeMutablePointer<UInt8>
        var stride: Int
        var width: Int
        var height: Int
    }

    /// Plane 0 (Y), 1 (Cb) or 2 (Cr).
    func plane(_ index: Int) -> Plane {
        switch index {
        case 0: Plane(base: y, stride: yStride, width: width, height: height)
        case 1: Plane(base: u, stride: uStride, width: chromaWidth, height: chromaHeight)
        default: Plane(base: v, stride: vStride, width: chromaWidth, height: chromaHeight)
        }
    }
}
