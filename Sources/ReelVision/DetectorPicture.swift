/// A borrowed 8-bit picture a detector looks at: pointers into memory the caller owns, valid
/// for the duration of one `detect` call only (nothing is copied or kept).
///
/// ReelVision does not know video frames: the pipeline above wires a frame's planes into
/// one of these. For a yuv420p frame pass all three planes (``init(yuv420p:width:height:)``):
/// the detectors downscale first and convert only the small picture (CenterFace needs RGB;
/// the cascades and HOG read the luma plane only), so no caller converts a full-size frame.
public struct DetectorPicture {
    /// How the bytes are laid out.
    public enum Format: Sendable, Hashable {
        /// One plane, one byte per pixel (grey levels, or a frame's luma plane alone).
        case gray8
        /// One plane, three bytes per pixel in the order R, G, B.
        case rgb24
        /// One plane, three bytes per pixel in the order B, G, R.
        case bgr24
        /// Three planes: Y at full size, U and V at half width and half height (rounded up),
        /// BT.601 limited range (what FFmpeg's decoders and cameras deliver).
        case yuv420p
    }

    /// One plane: where its first row starts and how many bytes each row takes.
    public struct Plane {
        /// The first byte of the first row.
        public var base: UnsafeRawPointer
        /// Bytes from one row to the next (at least the row's width in bytes).
        public var stride: Int

        /// A plane.
        public init(base: UnsafeRawPointer, stride: Int) {
            self.base = base
            self.stride = stride
        }
    }

    /// The layout.
    public var format: Format
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// One plane, or three for ``Format/yuv420p`` (Y, U, V).
    public var planes: [Plane]

    /// A single-plane picture (`gray8`, `rgb24` or `bgr24`).
    public init(format: Format, base: UnsafeRawPointer, width: Int, height: Int, stride: Int) {
        self.format = format
        self.width = width
        self.height = height
        planes = [Plane(base: base, stride: stride)]
    }

    /// A yuv420p picture from its three planes (Y, U, V), as a decoded video frame holds them.
    public init(yuv420p planes: (y: Plane, u: Plane, v: Plane), width: Int, height: Int) {
        format = .yuv420p
        self.width = width
        self.height = height
        self.planes = [planes.y, planes.u, planes.v]
    }

    /// Plain-text validation, the same checks the C side makes, so a wrong picture is a clear
    /// error before any pointer is read.
    func problem() -> String? {
        if width <= 0 || height <= 0 { return "picture size \(width)x\(height) is empty" }
        let needed = format == .yuv420p ? 3 : 1
        if planes.count != needed { return "a \(format) picture needs \(needed) plane(s), got \(planes.count)" }
        let rowBytes = format == .rgb24 || format == .bgr24 ? width * 3 : width
        if planes[0].stride < rowBytes { return "plane 0 stride \(planes[0].stride) is below its row size \(rowBytes)" }
        if format == .yuv420p {
            for index in 1...2 where planes[index].stride < (width + 1) / 2 {
                return "plane \(index) stride \(planes[index].stride) is below its row size \((width + 1) / 2)"
            }
        }
        return nil
    }
}
