import CFFmpeg
import ReelCore

extension VideoFrame {
    /// The YUV→RGB matrix this frame's pixels were made with: its own tag, BT.601 when it has
    /// none (what swscale, JPEG and most UVC cameras assume).
    public var colorMatrixName: String {
        switch avFrame.pointee.colorspace {
        case AVCOL_SPC_BT709: "BT.709"
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: "BT.2020"
        case AVCOL_SPC_SMPTE240M: "SMPTE 240M"
        default: "BT.601"
        }
    }

    /// The picture as 16-bit RGB code values (R, G, B per pixel, rows top to bottom, no
    /// padding), converted by swscale with the frame's matrix and range (``colorMatrixName``;
    /// video range unless the frame says full), chroma interpolated at full resolution.
    public func rgb48() throws -> [UInt16] {
        let w = width, h = height
        let source = AVPixelFormat(rawValue: pixelFormat)
        let flags = SWS_BICUBIC | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP | SWS_ACCURATE_RND
        guard let context = sws_getContext(Int32(w), Int32(h), source, Int32(w), Int32(h), AV_PIX_FMT_RGB48LE, flags, nil, nil, nil) else {
            throw FFmpegError("preparing an RGB conversion from \(pixelFormatName) \(w)x\(h)", code: AV.error(EINVAL))
        }
        defer { sws_freeContext(context) }
        let colorspace: Int32 = switch avFrame.pointee.colorspace {
        case AVCOL_SPC_BT709: SWS_CS_ITU709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: SWS_CS_BT2020
        case AVCOL_SPC_SMPTE240M: SWS_CS_SMPTE240M
        default: SWS_CS_ITU601
        }
        let fullRange: Int32 = avFrame.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0
        let coefficients = sws_getCoefficients(colorspace)
        sws_setColorspaceDetails(context, coefficients, fullRange, sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        guard let out = av_frame_alloc() else { throw FFmpegError("allocating a picture", code: AV.error(ENOMEM)) }
        defer { var f: UnsafeMutablePointer<AVFrame>? = out; av_frame_free(&f) }
        out.pointee.width = Int32(w)
        out.pointee.height = Int32(h)
        out.pointee.format = AV_PIX_FMT_RGB48LE.rawValue
        try check(av_frame_get_buffer(out, 32), "allocating a \(w)x\(h) RGB picture")
        try check(VideoScaler.scale(context, from: avFrame, to: out), "converting \(pixelFormatName) \(w)x\(h) to RGB")
        var samples = [UInt16](repeating: 0, count: w * h * 3)
        let stride = Int(out.pointee.linesize.0)
        let base = UnsafeRawPointer(out.pointee.data.0!)
        samples.withUnsafeMutableBytes { dst in
            for y in 0..<h {
                dst.baseAddress!.advanced(by: y * w * 6).copyMemory(from: base.advanced(by: y * stride), byteCount: w * 6)
            }
        }
        return samples
    }
}
