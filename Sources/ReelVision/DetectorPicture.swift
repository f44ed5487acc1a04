import ReelCore

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

    /// A rectangle of a picture in pixels (origin top-left).
    public struct PixelRect: Sendable, Hashable {
        /// The left column.
        public var x: Int
        /// The top row.
        public var y: Int
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int

        /// A rectangle.
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// The part of `rect` a crop takes (``cropped(_:)``): for yuv420p, the corners moved out
    /// to even columns and rows (left and top down, right and bottom up, so the chroma planes
    /// start on a whole sample and nothing asked for is lost), then clipped to the picture. An
    /// empty rectangle (width or height 0) when `rect` misses the picture.
    public func clipped(_ rect: PixelRect) -> PixelRect {
        var x0 = rect.x, y0 = rect.y, x1 = rect.x + max(0, rect.width), y1 = rect.y + max(0, rect.height)
        if format == .yuv420p {
            x0 = x0 & ~1
            y0 = y0 & ~1
            x1 = (x1 + 1) & ~1
            y1 = (y1 + 1) & ~1
        }
        x0 = min(max(x0, 0), width)
        y0 = min(max(y0, 0), height)
        x1 = min(max(x1, x0), width)
        y1 = min(max(y1, y0), height)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// A view of the rectangle `rect` of this picture (``clipped(_:)``: clipped to it, even
    /// for yuv420p): the same planes with their base pointers moved to the rectangle's corner
    /// and the same strides, so nothing is copied and the view is valid as long as this
    /// picture's memory is. Every format works (an rgb24 or bgr24 column is 3 bytes). An empty
    /// view (width or height 0, which a detector rejects) when `rect` misses the picture.
    public func cropped(_ rect: PixelRect) -> DetectorPicture {
        let area = clipped(rect)
        var view = self
        view.width = area.width
        view.height = area.height
        let bytesPerPixel = format == .rgb24 || format == .bgr24 ? 3 : 1
        for index in planes.indices {
            let shift = index == 0 ? 0 : 1  // yuv420p chroma: half the columns and rows
            let offset = (area.y >> shift) * planes[index].stride + (area.x >> shift) * bytesPerPixel
            view.planes[index].base = planes[index].base + offset
        }
        return view
    }

    /// ``cropped(_:)`` of the rectangle (`x`, `y`, `width`, `height`).
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> DetectorPicture {
        cropped(PixelRect(x: x, y: y, width: width, height: height))
    }

    /// Plain-text validation, the same checks the C side makes, so a wrong picture is a clear
    /// error before any pointer is read.
    func problem() -> String? {
        if width <= 0 || height <= 0 { return "picture size \(width)x\(height) is empty" }
        let needed = format == .yuv420p ? 3 : 1
        if planes.count != needed { return "a \(format) picture needs \(Counted.noun(needed, "plane")), got \(planes.count)" }
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
