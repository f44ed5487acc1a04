/// A rectangle in normalized picture coordinates: the picture spans 0…1 on both axes, the
/// origin is the top-left corner, y grows downwards (as face boxes are stored;
/// docs/behaviour.md §1, Face tracker).
///
/// Values outside 0…1 are allowed: a face box expanded around a face near the edge reaches
/// past it.
public struct NormalizedRect: Sendable, Hashable, CustomStringConvertible {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double

    /// A rectangle from its top-left corner and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole picture.
    public static let full = NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    /// The same area in the coordinates of `region` (itself in this rectangle's coordinates):
    /// where a box found in a whole picture lands in a crop of it.
    public func relative(to region: NormalizedRect) -> NormalizedRect {
        NormalizedRect(x: (x - region.x) / region.width, y: (y - region.y) / region.height,
                       width: width / region.width, height: height / region.height)
    }

    /// The centred region of a `source`-sized picture that fills a `target`-shaped frame:
    /// the part of the capture a centre-cropped canvas shows (what the scaler keeps).
    public static func centreFill(source: VideoDimensions, target: VideoDimensions) -> NormalizedRect {
        let sourceAspect = Double(source.width) / Double(source.height)
        let targetAspect = Double(target.width) / Double(target.height)
        if sourceAspect > targetAspect {
            let width = targetAspect / sourceAspect
            return NormalizedRect(x: (1 - width) / 2, y: 0, width: width, height: 1)
        } else {
            let height = sourceAspect / targetAspect
            return NormalizedRect(x: 0, y: (1 - height) / 2, width: 1, height: height)
        }
    }

    public var description: String { "(\(x), \(y), \(width)x\(height))" }
}
