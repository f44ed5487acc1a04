/// An RGB colour space as a matrix-shaper ICC profile describes it: primaries, white point
/// and transfer curve. Reel's own spaces (sRGB, Display P3 and their linear twins) are made
/// from these numbers with lcms2; nothing is read from a profile file.
public struct RGBColorSpace: Sendable, Hashable, CustomStringConvertible {
    /// How code values relate to light.
    public enum Transfer: Sendable, Hashable {
        /// IEC 61966-2-1's piecewise curve (sRGB's, which Display P3 shares).
        case sRGB
        /// Code values are linear light.
        case linear
    }

    /// The CIE xy chromaticities of red, green and blue.
    public var red: (x: Double, y: Double) { (primaries[0], primaries[1]) }
    /// Green's xy.
    public var green: (x: Double, y: Double) { (primaries[2], primaries[3]) }
    /// Blue's xy.
    public var blue: (x: Double, y: Double) { (primaries[4], primaries[5]) }
    /// Red, green, blue xy, flattened (so the type stays Hashable).
    public let primaries: [Double]
    /// The white point's xy (D65 for both spaces here).
    public let white: [Double]
    /// The transfer curve.
    public let transfer: Transfer
    /// The name written into the profile's description.
    public let name: String

    /// sRGB (IEC 61966-2-1): BT.709 primaries, D65, the sRGB curve. JPEG photos are saved in it.
    public static let sRGB = RGBColorSpace(primaries: [0.64, 0.33, 0.30, 0.60, 0.15, 0.06], white: d65,
                                           transfer: .sRGB, name: "sRGB")
    /// Display P3: DCI-P3 primaries, D65, the sRGB curve. HEIC and TIFF photos are saved in it.
    public static let displayP3 = RGBColorSpace(primaries: [0.680, 0.320, 0.265, 0.690, 0.150, 0.060], white: d65,
                                                transfer: .sRGB, name: "Display P3")
    /// Display P3 primaries with linear code values: where the compositing happens.
    public static let linearDisplayP3 = displayP3.linear

    static let d65 = [0.3127, 0.3290]

    /// The same primaries and white with linear code values.
    public var linear: RGBColorSpace {
        RGBColorSpace(primaries: primaries, white: white, transfer: .linear, name: "\(name) (linear)")
    }

    /// The same primaries and white with the sRGB curve.
    public var encoded: RGBColorSpace {
        RGBColorSpace(primaries: primaries, white: white, transfer: .sRGB,
                      name: name.hasSuffix(" (linear)") ? String(name.dropLast(9)) : name)
    }

    public var description: String { name }

    public static func == (a: RGBColorSpace, b: RGBColorSpace) -> Bool {
        a.primaries == b.primaries && a.white == b.white && a.transfer == b.transfer
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(primaries)
        hasher.combine(white)
        hasher.combine(transfer)
    }
}
