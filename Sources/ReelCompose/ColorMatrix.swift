/// How RGB artwork (stamps, the watermark, captions) becomes Y′CbCr for the picture.
///
/// Both matrices produce *limited range* (Y 16…235, Cb/Cr 16…240), as H.264 video carries it:
/// `Y = 16 + 219·(Kr·R + Kg·G + Kb·B)`, `Cb = 128 + 224·(B − Y′)/(2·(1 − Kb))`,
/// `Cr = 128 + 224·(R − Y′)/(2·(1 − Kr))`, with R, G, B in 0…1 (the sRGB-encoded values, no
/// linearization) and Y′ the unscaled luma. Reel's canvases are HD (1280×720 and up), so
/// ``bt709`` is what the export uses; ``bt601`` is there for SD pictures.
public enum ColorMatrix: Sendable, Hashable {
    /// ITU-R BT.709 (HD): Kr 0.2126, Kb 0.0722. Red (255, 0, 0) → (63, 102, 240).
    case bt709
    /// ITU-R BT.601 (SD): Kr 0.299, Kb 0.114. Red (255, 0, 0) → (81, 90, 240).
    case bt601

    /// The matrix for a picture of this height (BT.709 from 720 lines up, as FFmpeg assumes).
    public static func forHeight(_ height: Int) -> ColorMatrix { height >= 720 ? .bt709 : .bt601 }

    private var coefficients: (kr: Double, kb: Double) {
        switch self {
        case .bt709: (0.2126, 0.0722)
        case .bt601: (0.299, 0.114)
        }
    }

    /// The limited-range Y, Cb, Cr of an 8-bit RGB colour, rounded.
    public func yuv(red: UInt8, green: UInt8, blue: UInt8) -> (y: UInt8, u: UInt8, v: UInt8) {
        let (kr, kb) = coefficients
        let r = Double(red) / 255, g = Double(green) / 255, b = Double(blue) / 255
        let luma = kr * r + (1 - kr - kb) * g + kb * b
        let y = 16 + 219 * luma
        let u = 128 + 224 * (b - luma) / (2 * (1 - kb))
        let v = 128 + 224 * (r - luma) / (2 * (1 - kr))
        func byte(_ x: Double) -> UInt8 { UInt8(min(255, max(0, x.rounded()))) }
        return (byte(y), byte(u), byte(v))
    }
}
