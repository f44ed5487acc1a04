/// What a tracker policy asks its caller to look for in the current picture. Faces are
/// cheap next to upper bodies (a cascade and a HOG pass at full size), so the body detectors
/// run only when a rule needs them.
public enum DetectionRequest: Sendable, Equatable {
    /// Faces only.
    case faces
    /// Faces and upper bodies: the face has been lost beyond the hold.
    case facesAndUpperBodies

    /// Whether upper bodies are to be looked for.
    public var includesUpperBodies: Bool { self == .facesAndUpperBodies }
}
