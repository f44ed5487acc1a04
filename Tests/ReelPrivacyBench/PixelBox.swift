import Foundation

/// An axis-aligned rectangle in pixels of one frame (origin top-left, y down).
public struct PixelBox: Codable, Sendable, Equatable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double

    /// A box from its edges and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// Width × height (0 for an empty box).
    public var area: Double { max(0, width) * max(0, height) }

    /// The part inside a `frameWidth` × `frameHeight` picture (width or height 0 when outside).
    public func clipped(toWidth frameWidth: Int, height frameHeight: Int) -> PixelBox {
        let left = max(0, x), top = max(0, y)
        let right = min(Double(frameWidth), x + width), bottom = min(Double(frameHeight), y + height)
        return PixelBox(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// The same centre, each side multiplied by `factor`.
    public func scaled(by factor: Double) -> PixelBox {
        PixelBox(x: x + width * (1 - factor) / 2, y: y + height * (1 - factor) / 2, width: width * factor, height: height * factor)
    }

    /// Intersection over union with `other` (0 when they do not meet).
    public func intersectionOverUnion(_ other: PixelBox) -> Double {
        let w = min(x + width, other.x + other.width) - max(x, other.x)
        let h = min(y + height, other.y + other.height) - max(y, other.y)
        guard w > 0, h > 0 else { return 0 }
        return w * h / (area + other.area - w * h)
    }
}
