import CImage
import Foundation
import Synchronization

/// An lcms2 transform between two profiles on interleaved pixels (relative colorimetric
/// intent). Made without lcms2's one-pixel cache, so one transform may run on several threads
/// at once: ``apply(_:_:pixels:)`` splits big pictures across the cores.
final class ColorTransform: @unchecked Sendable {
    /// How pixels lie in memory.
    enum Layout {
        case rgb8, rgba8, rgb16, rgba16

        var cmsType: cmsUInt32Number {
            switch self {
            case .rgb8: reel_cms_type_rgb_8()
            case .rgba8: reel_cms_type_rgba_8()
            case .rgb16: reel_cms_type_rgb_16()
            case .rgba16: reel_cms_type_rgba_16()
            }
        }

        var bytesPerPixel: Int {
            switch self {
            case .rgb8: 3
            case .rgba8: 4
            case .rgb16: 6
            case .rgba16: 8
            }
        }
    }

    private let handle: cmsHTRANSFORM
    private let input: Layout, output: Layout

    /// A transform; alpha (when both layouts have it) is copied unchanged. Nil when lcms2
    /// cannot build it.
    init?(from source: ColorProfile, _ input: Layout, to target: ColorProfile, _ output: Layout) {
        var flags = cmsUInt32Number(cmsFLAGS_NOCACHE)
        if (input == .rgba8 || input == .rgba16) && (output == .rgba8 || output == .rgba16) {
            flags |= cmsUInt32Number(cmsFLAGS_COPY_ALPHA)
        }
        guard let handle = cmsCreateTransform(source.handle, input.cmsType, target.handle, output.cmsType,
                                              cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), flags) else { return nil }
        self.handle = handle
        self.input = input
        self.output = output
    }

    deinit { cmsDeleteTransform(handle) }

    /// Transforms `pixels` pixels from `source` into `target` (which may be the same memory
    /// when the layouts have the same size), in row bands on every core.
    func apply(_ source: UnsafeRawPointer, _ target: UnsafeMutableRawPointer, pixels: Int) {
        let bands = pixels >= 1 << 16 ? ProcessInfo.processInfo.activeProcessorCount : 1
        let band = (pixels + bands - 1) / bands
        let inStep = input.bytesPerPixel, outStep = output.bytesPerPixel
        let transform = UInt(bitPattern: handle)
        let src = UInt(bitPattern: source), dst = UInt(bitPattern: target)
        DispatchQueue.concurrentPerform(iterations: bands) { index in
            let start = index * band, count = min(band, pixels - start)
            guard count > 0 else { return }
            cmsDoTransform(UnsafeMutableRawPointer(bitPattern: transform), UnsafeRawPointer(bitPattern: src + UInt(start * inStep)),
                           UnsafeMutableRawPointer(bitPattern: dst + UInt(start * outStep)), cmsUInt32Number(count))
        }
    }
}

/// The transfer curve of a space tabulated for all 65,536 16-bit code values, as lcms2
/// converts between a linear grey profile and one with the curve (a table lookup per sample
/// instead of lcms2 evaluating the curve, or its inverse, per pixel).
enum ToneTable {
    /// Linear light → code values of `transfer`, 16-bit.
    static func encoding(_ transfer: RGBColorSpace.Transfer) -> [UInt16] { table(transfer, encoding: true) }

    /// Code values of `transfer` → linear light, 16-bit.
    static func decoding(_ transfer: RGBColorSpace.Transfer) -> [UInt16] { table(transfer, encoding: false) }

    private static func table(_ transfer: RGBColorSpace.Transfer, encoding: Bool) -> [UInt16] {
        cache.withLock { tables in
            let key = "\(transfer) \(encoding)"
            if let table = tables[key] { return table }
            let table = make(transfer, encoding: encoding)
            tables[key] = table
            return table
        }
    }

    private static let cache = Mutex<[String: [UInt16]]>([:])

    private static func make(_ transfer: RGBColorSpace.Transfer, encoding: Bool) -> [UInt16] {
        var ramp = (0...65535).map { UInt16($0) }
        guard transfer != .linear else { return ramp }
        let curve = ColorProfile.curve(transfer), linear = ColorProfile.curve(.linear)
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        let linearGrey = cmsCreateGrayProfile(&white, linear)!, curvedGrey = cmsCreateGrayProfile(&white, curve)!
        let (from, to) = encoding ? (linearGrey, curvedGrey) : (curvedGrey, linearGrey)
        let transform = cmsCreateTransform(from, reel_cms_type_gray_16(), to, reel_cms_type_gray_16(),
                                           cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), cmsUInt32Number(cmsFLAGS_NOOPTIMIZE))!
        ramp.withUnsafeMutableBufferPointer { cmsDoTransform(transform, $0.baseAddress, $0.baseAddress, 65536) }
        cmsDeleteTransform(transform)
        cmsCloseProfile(from)
        cmsCloseProfile(to)
        cmsFreeToneCurve(curve)
        cmsFreeToneCurve(linear)
        return ramp
    }
}

/// The 3×3 matrix between two linear RGB spaces, as lcms2 converts between their profiles
/// (relative colorimetric: the whites map onto each other), read off by converting the three
/// primaries once in floating point. Row-major, for code values 0…65535.
struct ColorMatrix3: Sendable {
    let m: [Float]

    static func between(_ source: RGBColorSpace, _ target: RGBColorSpace) -> ColorMatrix3 {
        cache.withLock { matrices in
            let key = [source, target]
            if let known = matrices[key] { return known }
            let transform = cmsCreateTransform(ColorProfile.shared(source).handle, reel_cms_type_rgb_dbl(),
                                               ColorProfile.shared(target).handle, reel_cms_type_rgb_dbl(),
                                               cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), cmsUInt32Number(cmsFLAGS_NOOPTIMIZE))!
            defer { cmsDeleteTransform(transform) }
            var columns = [[Double]]()
            for unit in [[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]] {
                var input = unit, output = [0.0, 0, 0]
                cmsDoTransform(transform, &input, &output, 1)
                columns.append(output)
            }
            let matrix = ColorMatrix3(m: (0..<3).flatMap { row in (0..<3).map { Float(columns[$0][row]) } })
            matrices[key] = matrix
            return matrix
        }
    }

    /// A product of the matrix as a table index: rounded, clipped to 0…65535.
    @inline(__always)
    static func index(_ value: Float) -> Int { Int(min(65535, max(0, value + 0.5))) }

    private static let cache = Mutex<[[RGBColorSpace]: ColorMatrix3]>([:])
}
