/// One area the export covers in one frame (docs/behaviour.md §1, Export compositor): a face
/// track's box after the review edits, with what to put there.
public struct PrivacyRegion: Sendable, Equatable {
    /// How the area is covered.
    public enum Treatment: Sendable, Equatable {
        /// The pixellated mosaic through the soft elliptical mask.
        case mosaic
        /// A stamp image over the face: the PNG's reference as the review stored it (a path).
        case stamp(String)
    }

    /// The area, normalized to the exported picture, origin top-left, clamped to the picture.
    public var box: NormalizedRect
    /// What covers it.
    public var treatment: Treatment

    /// A region.
    public init(box: NormalizedRect, treatment: Treatment) {
        self.box = box
        self.treatment = treatment
    }
}
