/// How `reel live --privacy` covers the faces in the stream: the export's covers.
public enum LivePrivacy: String, Sendable, CaseIterable {
    /// The export's mosaic through its soft elliptical mask.
    case mosaic
    /// A solid neutral fill in the same ellipse.
    case mask
}
