import ReelCore

/// What the export draws over one face box in one frame (after the review step's edits).
public enum FaceCover {
    /// The privacy mosaic over the box (normalized, origin top-left).
    case mosaic(NormalizedRect)
    /// The solid mask (a neutral fill in the mosaic's ellipse) over the box.
    case mask(NormalizedRect)
    /// A stamp image over the box.
    case stamp(NormalizedRect, Stamp)
}
