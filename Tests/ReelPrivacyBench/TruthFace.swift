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

    /// Whether pixel centre (`px`, `py`) lies in the rotated face rectangle.
    public func rectangleContains(_ px: Double, _ py: Double) -> Bool {
        let dx = px - centerX, dy = py - centerY
        let c = cos(angle), s = sin(angle)
        let u = dx * c + dy * s, v = -dx * s + dy * c
        return abs(u) <= width / 2 && abs(v) <= height / 2
    }
}
