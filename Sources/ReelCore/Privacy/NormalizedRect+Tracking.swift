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
