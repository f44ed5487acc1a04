import Foundation

/// A 2-D affine transform: `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
///
/// The six numbers are in the order of CSS's `matrix(a, b, c, d, e, f)` (with `e = tx`,
/// `f = ty`), so a page can draw with the very transform the compositor burns in.
public struct AffineTransform: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How x feeds x'.
    public var a: Double
    /// How x feeds y'.
    public var b: Double
    /// How y feeds x'.
    public var c: Double
    /// How y feeds y'.
    public var d: Double
    /// Added to x'.
    public var tx: Double
    /// Added to y'.
    public var ty: Double

    /// A transform from its six numbers.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// Leaves every point where it is.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// Moves every point by (`x`, `y`).
    public static func translation(x: Double, y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// Scales about the origin.
    public static func scale(x: Double, y: Double) -> AffineTransform {
        AffineTransform(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// Turns about the origin by `radians`; with y growing downwards (picture coordinates) a
    /// positive angle turns clockwise on screen, as CSS `rotate()` does.
    public static func rotation(radians: Double) -> AffineTransform {
        let cosine = cos(radians), sine = sin(radians)
        return AffineTransform(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// This transform followed by `next`: `next.apply(self.apply(p))`.
    public func concatenating(_ next: AffineTransform) -> AffineTransform {
        AffineTransform(a: next.a * a + next.c * b, b: next.b * a + next.d * b,
                        c: next.a * c + next.c * d, d: next.b * c + next.d * d,
                        tx: next.a * tx + next.c * ty + next.tx, ty: next.b * tx + next.d * ty + next.ty)
    }

    /// The area factor (zero when the transform flattens the plane).
    public var determinant: Double { a * d - b * c }

    /// The transform that undoes this one; nil when it flattens the plane.
    public var inverted: AffineTransform? {
        let det = determinant
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        return AffineTransform(a: d / det, b: -b / det, c: -c / det, d: a / det,
                               tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// Where the point (`x`, `y`) goes.
    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + c * y + tx, b * x + d * y + ty)
    }

    public var description: String { "matrix(\(a), \(b), \(c), \(d), \(tx), \(ty))" }
}
