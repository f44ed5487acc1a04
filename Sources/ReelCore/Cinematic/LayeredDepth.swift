import Foundation

/// The cinematic camera's depth: a Linux camera has no depth sensor, so Reel estimates a
/// *layered* 2.5-D scene from what it sees — never a measurement. Depth is kept in dioptres
/// (1 / metres: 0 is infinitely far), the unit blur is linear in.
///
/// - Each subject is a flat layer at the distance its box's width gives for a typical real
///   width (a face 0.15 m, a cat's face 0.08 m, an upper body 0.45 m) through a lens of
///   ``horizontalFieldOfView``.
/// - Everything else is the background, at ``backgroundDioptres``.
/// - A point's plane is the nearest subject layer whose box holds it, else the background.
public enum LayeredDepth {
    /// The lens assumed (degrees across the picture's width): a typical webcam.
    public static let horizontalFieldOfView = 70.0
    /// The background's depth: 4 m.
    public static let backgroundDioptres = 0.25
    /// The nearest a layer may be: 0.2 m (5 dioptres).
    public static let nearestDioptres = 5.0

    /// The real width a subject of `kind` typically has, in metres.
    public static func typicalWidth(of kind: SubjectKind) -> Double {
        switch kind {
        case .face: 0.15
        case .catFace: 0.08
        case .upperBody: 0.45
        }
    }

    /// The layer of a subject: its distance from its box's width (a share of the picture's
    /// width), in dioptres, between the background's and ``nearestDioptres``.
    public static func dioptres(of kind: SubjectKind, bounds: NormalizedRect) -> Double {
        guard bounds.width > 0 else { return backgroundDioptres }
        let halfAngle = horizontalFieldOfView / 2 * Double.pi / 180
        let metres = typicalWidth(of: kind) / (2 * tan(halfAngle) * bounds.width)
        return min(nearestDioptres, max(backgroundDioptres, 1 / metres))
    }

    /// The plane at (`x`, `y`): the nearest subject holding the point, else the background.
    public static func dioptres(atX x: Double, y: Double, subjects: [CinematicSubject]) -> Double {
        subjects.filter { $0.bounds.contains(x: x, y: y) }
            .map { dioptres(of: $0.kind, bounds: $0.bounds) }
            .max() ?? backgroundDioptres
    }
}

extension NormalizedRect {
    /// Whether (`x`, `y`) lies in the box (edges included).
    public func contains(x px: Double, y py: Double) -> Bool {
        px >= x && px <= x + width && py >= y && py <= y + height
    }
}
