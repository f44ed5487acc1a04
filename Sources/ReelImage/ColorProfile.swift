import CImage
import Foundation
import Synchronization

/// An ICC profile held by lcms2: one of Reel's own (``init(_:)``, made in code) or one an
/// image carries (``init(icc:source:)``).
public final class ColorProfile: @unchecked Sendable {
    /// A profile that cannot be used.
    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// lcms2 cannot parse it.
        case broken(source: String)
        /// It is not for RGB pictures (a grey or CMYK profile).
        case notRGB(source: String, space: String)

        public var description: String {
            switch self {
            case let .broken(source):
                "the ICC colour profile in \(source) is broken; save the image again with an sRGB profile (or none)"
            case let .notRGB(source, space):
                "the ICC colour profile in \(source) is for \(space) pictures, not RGB; save the image as RGB with an sRGB profile (or none)"
            }
        }
    }

    // `@unchecked Sendable`: lcms2 profiles are read-only once made; lcms2 guards its lazy
    // tag reads with the profile's own mutex.
    let handle: cmsHPROFILE

    /// The profile of `space`: a matrix-shaper v4 profile made by lcms2 from the primaries, the
    /// white point and the curve (parametric type 4 for sRGB's), described by the space's name.
    public convenience init(_ space: RGBColorSpace) {
        var white = cmsCIExyY(x: space.white[0], y: space.white[1], Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: space.red.x, y: space.red.y, Y: 1),
            Green: cmsCIExyY(x: space.green.x, y: space.green.y, Y: 1),
            Blue: cmsCIExyY(x: space.blue.x, y: space.blue.y, Y: 1))
        let curve = Self.curve(space.transfer)
        var curves: [OpaquePointer?] = [curve, curve, curve]
        let handle = curves.withUnsafeMutableBufferPointer { cmsCreateRGBProfile(&white, &primaries, $0.baseAddress)! }
        cmsFreeToneCurve(curve)
        let description = cmsMLUalloc(nil, 1)
        cmsMLUsetASCII(description, "en", "US", space.name)
        cmsWriteTag(handle, cmsSigProfileDescriptionTag, UnsafeRawPointer(description))
        let copyright = cmsMLUalloc(nil, 1)
        cmsMLUsetASCII(copyright, "en", "US", "No copyright, use freely")
        cmsWriteTag(handle, cmsSigCopyrightTag, UnsafeRawPointer(copyright))
        cmsMLUfree(description)
        cmsMLUfree(copyright)
        self.init(handle: handle)
    }

    /// An image's own profile; `source` names the image in errors.
    public convenience init(icc: [UInt8], source: String) throws(Error) {
        guard let handle = icc.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else {
            throw .broken(source: source)
        }
        let space = cmsGetColorSpace(handle)
        guard space == cmsSigRgbData else {
            cmsCloseProfile(handle)
            throw .notRGB(source: source, space: space == cmsSigGrayData ? "grey" : space == cmsSigCmykData ? "CMYK" : "other")
        }
        // A profile lcms2 can read but cannot build a transform from is broken too.
        let probe = cmsCreateTransform(handle, reel_cms_type_rgb_16(), ColorProfile.shared(.linearDisplayP3).handle,
                                       reel_cms_type_rgb_16(), cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), 0)
        guard let probe else {
            cmsCloseProfile(handle)
            throw .broken(source: source)
        }
        cmsDeleteTransform(probe)
        self.init(handle: handle)
    }

    init(handle: cmsHPROFILE) {
        self.handle = handle
    }

    deinit { cmsCloseProfile(handle) }

    /// The profile as ICC bytes, to embed in a file.
    public var iccData: [UInt8] {
        var length: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(handle, nil, &length) != 0, length > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        _ = bytes.withUnsafeMutableBytes { cmsSaveProfileToMem(handle, $0.baseAddress, &length) }
        return bytes
    }

    /// The profile's description ("Display P3", "sRGB", or what an image's profile says).
    public var name: String {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &buffer, 256)
        return count > 0 ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }

    /// A new lcms2 tone curve for `transfer` (the caller frees it with `cmsFreeToneCurve`).
    static func curve(_ transfer: RGBColorSpace.Transfer) -> OpaquePointer {
        switch transfer {
        case .linear:
            return cmsBuildGamma(nil, 1.0)
        case .sRGB:
            // Y = ((X + 0.055) / 1.055)^2.4 above 0.04045, X / 12.92 below.
            var parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
            return cmsBuildParametricToneCurve(nil, 4, &parameters)
        }
    }

    private static let cache = Mutex<[RGBColorSpace: ColorProfile]>([:])

    /// Reel's profile of `space`, made once.
    public static func shared(_ space: RGBColorSpace) -> ColorProfile {
        cache.withLock { profiles in
            if let profile = profiles[space] { return profile }
            let profile = ColorProfile(space)
            profiles[space] = profile
            return profile
        }
    }
}
