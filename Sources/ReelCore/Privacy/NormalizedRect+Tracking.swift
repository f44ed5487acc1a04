import Foundation

/// The rectangle arithmetic the face tracker's rules and the review edits use
/// (docs/behaviour.md §1, Face tracker). All in normalized picture coordinates, origin
/// top-left, y down.
extension NormalizedRect {
    /// Right edge.
    public var maxX: Double { x + width }
    /// Bottom edge.
    public var maxY: Double { y + height }
    /// Horizontal centre.
    public var midX: Double { x + width / 2 }
    /// Vertical centre.
    public var midY: Double { y + height / 2 }
    /// Width × height (0 for an empty or inverted rectangle).
    public var area: Double { max(0, width) * max(0, height) }
    /// Whether the rectangle covers no area.
    public var isEmpty: Bool { !(width > 0 && height > 0) }

    /// A rectangle of `width` × `height` centred on (`midX`, `midY`).
    public init(midX: Double, midY: Double, width: Double, height: Double) {
        self.init(x: midX - width / 2, y: midY - height / 2, width: width, height: height)
    }

    /// The part inside the picture (0…1 on both axes); an empty rectangle on the nearest
    /// border when nothing is inside; the rectangle itself, bit for bit, when it is inside.
    public func clamped() -> NormalizedRect {
        if x >= 0, y >= 0, maxX <= 1, maxY <= 1, width >= 0, height >= 0 { return self }
        let left = min(max(x, 0), 1), top = min(max(y, 0), 1)
        let right = min(max(maxX, left), 1), bottom = min(max(maxY, top), 1)
        return NormalizedRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// `self + (other - self) × t` on every edge: `t = 0` is `self`, `t = 1` is `other`.
    public func interpolated(to other: NormalizedRect, fraction t: Double) -> NormalizedRect {
        NormalizedRect(x: x + (other.x - x) * t, y: y + (other.y - y) * t,
                       width: width + (other.width - width) * t, height: height + (other.height - height) * t)
    }

    /// The same centre, width × `sx` and height × `sy`.
    public func scaled(width sx: Double, height sy: Double) -> NormalizedRect {
        NormalizedRect(midX: midX, midY: midY, width: width * sx, height: height * sy)
    }

    /// The rectangle moved by (`dx`, `dy`).
    public func offsetBy(dx: Double, dy: Double) -> NormalizedRect {
        NormalizedRect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// The smallest rectangle holding both.
    public func union(_ other: NormalizedRect) -> NormalizedRect {
        let left = min(x, other.x), top = min(y, other.y)
        return NormalizedRect(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }

    /// The box round both, grown evenly about its centre until the ellipse inscribed in it
    /// holds the ellipses inscribed in each (a face cover is that ellipse: the plain union's
    /// ellipse leaves the ends of two boxes apart outside it). Equal boxes side by side, `d`
    /// apart, need a growth of √(2 / (2 − r)) with r = d / (width + d): 1 for none, towards √2.
    public func ellipseUnion(_ other: NormalizedRect) -> NormalizedRect {
        let round = union(other)
        guard round.width > 0, round.height > 0 else { return round }
        let a = round.width / 2, b = round.height / 2
        var needed = 1.0
        for box in [self, other] where box.width > 0 && box.height > 0 {
            // The farthest of points round the inner ellipse, in the outer ellipse's measure.
            for step in 0..<72 {
                let angle = Double(step) * Double.pi / 36
                let px = box.midX + box.width / 2 * cos(angle) - round.midX
                let py = box.midY + box.height / 2 * sin(angle) - round.midY
                needed = max(needed, (px / a) * (px / a) + (py / b) * (py / b))
            }
        }
        // The points are 5° apart: a little over, so that the ellipse between them is inside too.
        let grow = needed > 1 + 1e-9 ? needed.squareRoot() * 1.005 : 1
        return round.scaled(width: grow, height: grow)
    }

    /// Whether the two boxes share some area (touching edges do not count).
    public func intersects(_ other: NormalizedRect) -> Bool {
        min(maxX, other.maxX) > max(x, other.x) && min(maxY, other.maxY) > max(y, other.y)
    }

    /// Intersection over union with `other`, 0…1 (0 when either is empty).
    public func intersectionOverUnion(_ other: NormalizedRect) -> Double {
        let w = min(maxX, other.maxX) - max(x, other.x)
        let h = min(maxY, other.maxY) - max(y, other.y)
        guard w > 0, h > 0 else { return 0 }
        let intersection = w * h
        let union = area + other.area - intersection
        return union > 0 ? intersection / union : 0
    }

    /// Distance between the two centres.
    public func centreDistance(to other: NormalizedRect) -> Double {
        let dx = midX - other.midX, dy = midY - other.midY
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The distance between the centres in this box's own sizes (across in its widths, up and
    /// down in its heights): the same for the same place in the picture whatever the picture's
    /// shape. Distances in normalized units count a pixel up or down 16/9 times a pixel across
    /// in a 16:9 picture, so a face's reach measured in its widths was half as far up and down
    /// as sideways (a turning face, detected 80 px across and 60 px up from its last place,
    /// was taken for a new face).
    public func distanceInBoxes(to other: NormalizedRect) -> Double {
        guard width > 0, height > 0 else { return .infinity }
        let dx = (midX - other.midX) / width, dy = (midY - other.midY) / height
        return (dx * dx + dy * dy).squareRoot()
    }
}
