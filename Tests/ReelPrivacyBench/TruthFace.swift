import Foundation

/// Where one pasted face is in one frame, as the clip's filter graph put it there.
///
/// The face is the photo's face rectangle (by eye, `PrivacyClips.photoFace`) scaled, rotated
/// by `angle` about its centre and moved. `box` is the bounding box of that rotated rectangle
/// clipped to the frame: the "known face box" the benchmarks compare against.
public struct TruthFace: Codable, Sendable, Equatable {
    /// Which pasted face (0 for the first layer, 1 for the second of the two-face clip).
    public var layer: Int
    /// The face rectangle's centre, in frame pixels (may lie outside the frame).
    public var centerX: Double
    /// The face rectangle's centre, in frame pixels (may lie outside the frame).
    public var centerY: Double
    /// The face rectangle's width before rotation.
    public var width: Double
    /// The face rectangle's height before rotation.
    public var height: Double
    /// Clockwise rotation in radians (ffmpeg's `rotate` convention, y down).
    public var angle: Double
    /// The rotated rectangle's bounding box, clipped to the frame.
    public var box: PixelBox
    /// For a face turned towards profile: the turn in radians (the rectangle is then the
    /// turned face's visible part); nil for a face looking at the camera.
    public var yaw: Double?
    /// The heads drawn in front of this face (later layers), whose opaque part hides what is
    /// behind; nil or empty: nothing in front.
    public var hiddenBy: [Silhouette]?
    /// The share of the face ellipse not hidden by ``hiddenBy`` (1 with nothing in front).
    public var visibleShare: Double?
    /// The head this face belongs to (hairline to chin, ear to ear: the photo's
    /// `PrivacyClips.photoHead` moved, scaled and rolled with the face; a turned face keeps its
    /// whole head), its bounding box clipped to the frame; nil in truths written before it.
    public var head: PixelBox?

    /// An ellipse drawn over the picture (a pasted head's opaque part): centre, radii along
    /// its own axes, and clockwise rotation in radians.
    public struct Silhouette: Codable, Sendable, Equatable {
        /// Centre, in frame pixels.
        public var centerX: Double
        /// Centre, in frame pixels.
        public var centerY: Double
        /// Radius along the ellipse's own x axis.
        public var radiusX: Double
        /// Radius along the ellipse's own y axis.
        public var radiusY: Double
        /// Clockwise rotation in radians.
        public var angle: Double

        /// An ellipse.
        public init(centerX: Double, centerY: Double, radiusX: Double, radiusY: Double, angle: Double) {
            self.centerX = centerX; self.centerY = centerY; self.radiusX = radiusX; self.radiusY = radiusY; self.angle = angle
        }

        /// Whether pixel centre (`px`, `py`) lies inside.
        public func contains(_ px: Double, _ py: Double) -> Bool {
            let dx = px - centerX, dy = py - centerY
            let c = cos(angle), s = sin(angle)
            let u = dx * c + dy * s, v = -dx * s + dy * c
            return (u * u) / (radiusX * radiusX) + (v * v) / (radiusY * radiusY) <= 1
        }
    }

    /// A face; `box` is computed from the others and the frame size.
    public init(layer: Int, centerX: Double, centerY: Double, width: Double, height: Double, angle: Double,
                frameWidth: Int, frameHeight: Int) {
        self.layer = layer
        self.centerX = centerX; self.centerY = centerY
        self.width = width; self.height = height; self.angle = angle
        let c = abs(cos(angle)), s = abs(sin(angle))
        let bw = width * c + height * s, bh = width * s + height * c
        box = PixelBox(x: centerX - bw / 2, y: centerY - bh / 2, width: bw, height: bh)
            .clipped(toWidth: frameWidth, height: frameHeight)
    }

    /// Whether pixel centre (`px`, `py`) lies in the ellipse inscribed in the rotated face
    /// rectangle scaled by `scale` (the face proper: eyes, nose, mouth; not the rectangle's corners).
    public func ellipseContains(_ px: Double, _ py: Double, scale: Double = 1) -> Bool {
        let dx = px - centerX, dy = py - centerY
        let c = cos(angle), s = sin(angle)
        let u = dx * c + dy * s, v = -dx * s + dy * c
        let a = width * scale / 2, b = height * scale / 2
        return (u * u) / (a * a) + (v * v) / (b * b) <= 1
    }

    /// Whether pixel centre (`px`, `py`) lies in the face ellipse (scaled by `scale`) and is
    /// not hidden by a head in front: the part of the face a viewer can see.
    public func visiblyContains(_ px: Double, _ py: Double, scale: Double = 1) -> Bool {
        guard ellipseContains(px, py, scale: scale) else { return false }
        return !(hiddenBy ?? []).contains { $0.contains(px, py) }
    }

    /// The share of the face ellipse (scale 1) that ``hiddenBy`` leaves visible, counted on a
    /// grid of `step` pixels over the face's unclipped bounding box.
    public func measuredVisibleShare(step: Double = 1) -> Double {
        guard let hiddenBy, !hiddenBy.isEmpty else { return 1 }
        let c = abs(cos(angle)), s = abs(sin(angle))
        let bw = width * c + height * s, bh = width * s + height * c
        var inside = 0, visible = 0
        var y = centerY - bh / 2 + step / 2
        while y < centerY + bh / 2 {
            var x = centerX - bw / 2 + step / 2
            while x < centerX + bw / 2 {
                if ellipseContains(x, y) {
                    inside += 1
                    if !hiddenBy.contains(where: { $0.contains(x, y) }) { visible += 1 }
                }
                x += step
            }
            y += step
        }
        return inside > 0 ? Double(visible) / Double(inside) : 1
    }

    /// Whether pixel centre (`px`, `py`) lies in the rotated face rectangle.
    public func rectangleContains(_ px: Double, _ py: Double) -> Bool {
        let dx = px - centerX, dy = py - centerY
        let c = cos(angle), s = sin(angle)
        let u = dx * c + dy * s, v = -dx * s + dy * c
        return abs(u) <= width / 2 && abs(v) <= height / 2
    }
}
