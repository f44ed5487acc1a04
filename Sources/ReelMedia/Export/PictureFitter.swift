import CFFmpeg
import ReelCore

/// Fits pictures of any size into one canvas size without cropping: scaled to fit, centred,
/// the rest black (letterbox or pillarbox). Each result is a new yuv420p picture only the
/// caller holds. Used by the weekly vlog, whose layout is fixed while the sessions' sizes vary.
public final class PictureFitter {
    /// The canvas size (even numbers).
    public let width: Int, height: Int
    private var scaler: VideoScaler?

    /// A fitter into `width` x `height` (even numbers).
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The centred rectangle a `sourceWidth` x `sourceHeight` picture fills in a `width` x
    /// `height` canvas: the aspect ratio kept (to the nearest even pixel), even offsets.
    public static func fitted(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        func even(_ v: Double) -> Int { max(2, Int((v / 2).rounded()) * 2) }
        let scale = min(Double(width) / Double(max(sourceWidth, 1)), Double(height) / Double(max(sourceHeight, 1)))
        let w = min(width, even(Double(sourceWidth) * scale)), h = min(height, even(Double(sourceHeight) * scale))
        return (((width - w) / 2) & ~1, ((height - h) / 2) & ~1, w, h)
    }

    /// A black canvas picture stamped `time`.
    public func blank(at time: MediaTime) throws -> VideoFrame {
        let frame = try VideoFrame.allocate(width: width, height: height, format: AV_PIX_FMT_YUV420P)
        let picture = VideoFrame(taking: frame, captureTime: time)
        try picture.withWritablePlanes { planes in
            for (index, plane) in planes.enumerated() {
                let rows = index == 0 ? height : height / 2
                plane.base.update(repeating: index == 0 ? 16 : 128, count: plane.stride * rows)
            }
        }
        return picture
    }

    /// `frame` scaled into the canvas, with `time`.
    public func fit(_ frame: VideoFrame, at time: MediaTime) throws -> VideoFrame {
        let place = Self.fitted(sourceWidth: frame.width, sourceHeight: frame.height, width: width, height: height)
        if scaler?.width != place.width || scaler?.height != place.height {
            scaler = VideoScaler(width: place.width, height: place.height)
        }
        let scaled = VideoFrame(taking: try scaler!.scale(frame), captureTime: time)
        let canvas = try blank(at: time)
        let source = scaled.avFrame.pointee
        try canvas.withWritablePlanes { planes in
            let sourcePlanes = [(source.data.0!, Int(source.linesize.0)), (source.data.1!, Int(source.linesize.1)), (source.data.2!, Int(source.linesize.2))]
            for index in 0..<3 {
                let shift = index == 0 ? 0 : 1
                let (x, y, w, h) = (place.x >> shift, place.y >> shift, place.width >> shift, place.height >> shift)
                for row in 0..<h {
                    (planes[index].base + (y + row) * planes[index].stride + x)
                        .update(from: sourcePlanes[index].0 + row * sourcePlanes[index].1, count: w)
                }
            }
        }
        return canvas
    }
}
