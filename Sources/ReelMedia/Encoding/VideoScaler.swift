import CFFmpeg
import ReelCore

/// Converts frames of any size and pixel format to one output size in YUV 4:2:0, filling the
/// output (centre crop, as a phone fills a portrait frame from a landscape sensor).
///
/// The output is video range (16–235) for the encoders of the recordings, or full range
/// (0–255) with ``fullRange`` for JPEG; the input's range is read from each frame.
final class VideoScaler {
    let width: Int, height: Int
    /// Full-range output (JPEG) instead of video range.
    let fullRange: Bool
    private var context: OpaquePointer?
    private var sourceKey: (Int32, Int32, Int32, Int32, Int32, Int32)?  // w, h, format, cropped w, cropped h, full range
    /// Where the output pictures come from (made on first use).
    private var pictures: PicturePool?

    init(width: Int, height: Int, fullRange: Bool = false) {
        self.width = width
        self.height = height
        self.fullRange = fullRange
    }

    deinit { sws_freeContext(context) }

    /// The centre crop of a `sw`x`sh` picture that has the output's aspect ratio, nearest to
    /// it among the sizes that sit exactly in the middle at an even offset (4:2:0 chroma needs
    /// even offsets): the margin on each side is even, so the size differs from the source's
    /// by a multiple of 4.
    static func cropFill(sourceWidth sw: Int, sourceHeight sh: Int, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        func centred(_ full: Int, _ ideal: Double) -> (offset: Int, size: Int) {
            let size = min(full, full - 4 * Int(((Double(full) - ideal) / 4).rounded()))
            return ((full - size) / 2, size)
        }
        // Compare aspect ratios exactly: sw/sh vs width/height.
        if sw * height > sh * width {
            let (x, cw) = centred(sw, Double(sh * width) / Double(height))
            return (x, 0, cw, sh)
        } else {
            let (y, ch) = centred(sh, Double(sw * height) / Double(width))
            return (0, y, sw, ch)
        }
    }

    /// A new frame of the output size holding `source` cropped and scaled; pts unset. Its
    /// buffer comes from the scaler's ``PicturePool`` and returns there when the frame is freed.
    func scale(_ source: VideoFrame) throws -> UnsafeMutablePointer<AVFrame> {
        if pictures == nil { pictures = try PicturePool(width: width, height: height) }
        let out = try pictures!.picture()
        do {
            try scale(source, into: out)
        } catch {
            var f: UnsafeMutablePointer<AVFrame>? = out
            av_frame_free(&f)
            throw error
        }
        return out
    }

    private func scale(_ source: VideoFrame, into out: UnsafeMutablePointer<AVFrame>) throws {
        let src = source.avFrame.pointee
        let crop = VideoScaler.cropFill(sourceWidth: Int(src.width), sourceHeight: Int(src.height), width: width, height: height)
        // A shallow reference whose data pointers are moved to the crop (any pixel format).
        guard let view = av_frame_clone(source.avFrame) else { throw FFmpegError("referencing a frame", code: AV.error(ENOMEM)) }
        defer { var v: UnsafeMutablePointer<AVFrame>? = view; av_frame_free(&v) }
        view.pointee.crop_left = numericCast(crop.x)
        view.pointee.crop_top = numericCast(crop.y)
        view.pointee.crop_right = numericCast(Int(src.width) - crop.x - crop.width)
        view.pointee.crop_bottom = numericCast(Int(src.height) - crop.y - crop.height)
        // Unaligned: the exact crop. Without it libavutil rounds the left edge down for pointer
        // alignment but keeps the right one, and the picture comes out off-centre and squeezed.
        try check(av_frame_apply_cropping(view, Int32(AV_FRAME_CROP_UNALIGNED)), "cropping a \(src.width)x\(src.height) frame")
        let sourceFullRange: Int32 = src.color_range == AVCOL_RANGE_JPEG ? 1 : 0
        let key = (view.pointee.width, view.pointee.height, view.pointee.format, Int32(crop.width), Int32(crop.height), sourceFullRange)
        if context == nil || sourceKey.map({ $0 != key }) ?? true {
            sws_freeContext(context)
            context = sws_getContext(view.pointee.width, view.pointee.height, AVPixelFormat(rawValue: view.pointee.format),
                                     Int32(width), Int32(height), AV_PIX_FMT_YUV420P, SWS_BILINEAR, nil, nil, nil)
            sourceKey = key
            guard context != nil else {
                throw FFmpegError("preparing a scaler from \(source.pixelFormatName) \(view.pointee.width)x\(view.pointee.height)", code: AV.error(EINVAL))
            }
            if fullRange { Self.setRanges(context, source: sourceFullRange, destination: 1) }
        }
        try check(av_frame_make_writable(out), "preparing an output picture")
        let result = Self.scale(context, from: view, to: out)
        try check(result, "scaling \(source.width)x\(source.height) to \(width)x\(height)")
    }

    /// Tells the scaler the input's and output's ranges (1: full, 0: video), keeping its matrix.
    static func setRanges(_ context: OpaquePointer?, source: Int32, destination: Int32) {
        var inverse: UnsafeMutablePointer<Int32>?, table: UnsafeMutablePointer<Int32>?
        var sourceRange: Int32 = 0, destinationRange: Int32 = 0, brightness: Int32 = 0, contrast: Int32 = 0, saturation: Int32 = 0
        guard sws_getColorspaceDetails(context, &inverse, &sourceRange, &table, &destinationRange, &brightness, &contrast, &saturation) >= 0 else { return }
        sws_setColorspaceDetails(context, inverse, source, table, destination, brightness, contrast, saturation)
    }

    /// `sws_scale` of a whole frame into another (Swift cannot pass the frames' fixed-size
    /// plane arrays directly); returns its result (the output height, or a negative error).
    static func scale(_ context: OpaquePointer?, from source: UnsafeMutablePointer<AVFrame>, to out: UnsafeMutablePointer<AVFrame>) -> Int32 {
        withUnsafePointer(to: &source.pointee.data) { srcData in
            withUnsafePointer(to: &source.pointee.linesize) { srcLines in
                withUnsafeMutablePointer(to: &out.pointee.data) { dstData in
                    withUnsafeMutablePointer(to: &out.pointee.linesize) { dstLines in
                        srcData.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { s in
                            dstData.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { d in
                                srcLines.withMemoryRebound(to: Int32.self, capacity: 8) { sl in
                                    dstLines.withMemoryRebound(to: Int32.self, capacity: 8) { dl in
                                        sws_scale(context, s, sl, 0, source.pointee.height, d, dl)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
