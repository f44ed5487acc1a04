/// Whose face a tap on a body belongs to: the cut-out's way to a person the segmentation is
/// unsure of (a busy background, an unusual pose or costume). The face then seeds the person's
/// shape, so it must plausibly be the tapped body's own.
///
/// A face qualifies when the point is in it or below its middle, at most ``maxSideways`` face
/// widths to either side of its middle and at most ``maxBelow`` face heights below it (a person
/// is about 7.5 heads tall). Of those, the nearest wins: sideways distance in face widths plus a
/// quarter of the distance down in face heights (a body reaches further down than sideways).
public enum CutoutTap {
    /// How far to either side of a face's middle its body may be tapped, in face widths (the
    /// shoulders span about three).
    public static let maxSideways = 2.0
    /// How far below a face's middle its body may be tapped, in face heights.
    public static let maxBelow = 8.0

    /// The index in `faces` of the face whose body the point (`x`, `y`, fractions of the
    /// picture) is on, or nil when none qualifies. Boxes of zero size never do.
    public static func face(at x: Double, _ y: Double, among faces: [NormalizedRect]) -> Int? {
        var best: (index: Int, distance: Double)?
        for (index, face) in faces.enumerated() where face.width > 0 && face.height > 0 {
            let sideways = abs(x - (face.x + face.width / 2)) / face.width
            let below = (y - (face.y + face.height / 2)) / face.height
            let inFace = x >= face.x && x <= face.x + face.width && y >= face.y && y <= face.y + face.height
            guard inFace || (below >= 0 && below <= maxBelow && sideways <= maxSideways) else { continue }
            let distance = sideways + max(0, below) / 4
            if best == nil || distance < best!.distance { best = (index, distance) }
        }
        return best?.index
    }
}
