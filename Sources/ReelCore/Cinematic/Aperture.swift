import Foundation

/// The simulated aperture (docs/behaviour.md §3: "an f-number (smaller means a more blurred
/// background) within the format's minimum, maximum and default").
///
/// The range is the original's: f/2 to f/16, f/4.5 by default. The blur is a thin lens's: the
/// circle of confusion of a 50 mm lens on a 36 mm wide (full-frame) sensor, `c = f²/N · |D − F|`
/// (D the point's depth, F the focal depth, both in dioptres; exact when the focus is far
/// beyond the focal length), scaled to the picture's width; the blur radius is half of it, at
/// most ``maxRadiusShare`` of the width (the renderer's largest blur).
public struct Aperture: Sendable, Hashable, CustomStringConvertible {
    /// The widest (strongest blur).
    public static let minimum = 2.0
    /// The narrowest.
    public static let maximum = 16.0
    /// The default.
    public static let standard = Aperture(checked: 4.5)
    /// The simulated lens's focal length and sensor width, in metres.
    public static let focalLength = 0.050, sensorWidth = 0.036
    /// The largest blur radius, as a share of the picture's width.
    public static let maxRadiusShare = 0.03

    /// Why an f-number is refused.
    public struct OutOfRange: Error, CustomStringConvertible {
        public let fNumber: Double
        public var description: String {
            "f/\(fNumber) is outside the aperture's range: give f-numbers from \(Aperture.minimum) to \(Aperture.maximum) (default \(Aperture.standard.fNumber))"
        }
    }

    /// The f-number.
    public let fNumber: Double

    /// The aperture `fNumber`, or an error naming the range.
    public init(fNumber: Double) throws(OutOfRange) {
        guard fNumber.isFinite, fNumber >= Self.minimum, fNumber <= Self.maximum else { throw OutOfRange(fNumber: fNumber) }
        self.fNumber = fNumber
    }

    private init(checked: Double) { fNumber = checked }

    /// The number in an f-number written as "2.8" or "f/2.8"; nil when there is none.
    public static func number(in text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        return Double(trimmed.hasPrefix("f/") ? String(trimmed.dropFirst(2)) : trimmed)
    }

    public var description: String { "f/\(fNumber)" }

    /// The blur radius, in pixels of a picture `width` wide, of what lies at `dioptres` while
    /// the focus is at `focus` (dioptres).
    public func blurRadius(dioptres: Double, focus: Double, width: Int) -> Double {
        min(radiusPerDioptre(width: width) * abs(dioptres - focus), Self.maxRadius(width: width))
    }

    /// The blur radius per dioptre between a point and the focus, in pixels of a picture
    /// `width` wide (before the cap): half the circle of confusion `f²/N` over the sensor.
    public func radiusPerDioptre(width: Int) -> Double {
        Self.focalLength * Self.focalLength / fNumber / Self.sensorWidth * Double(width) / 2
    }

    /// The largest blur radius in a picture `width` wide.
    public static func maxRadius(width: Int) -> Double { maxRadiusShare * Double(width) }
}
