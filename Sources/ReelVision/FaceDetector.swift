import ReelCore

/// Something that finds faces (or, for ``UpperBodyDetector``, heads and shoulders) in a
/// picture: the input side of the face tracker (docs/behaviour.md §1, Face tracker).
///
/// Boxes are ``ReelCore/Detection``s normalized to the picture (origin top-left), so the
/// tracker's rules never see pixels and tests can feed scripted detections through a
/// conforming type of their own.
///
/// Implementations are safe to call from any thread; calls on one detector are serialized.
public protocol FaceDetector: AnyObject, Sendable {
    /// A short name for reports and warnings ("CenterFace", "Haar cascade", …).
    var name: String { get }

    /// What the detector finds in `picture`, most likely (or largest) first. The picture's
    /// memory is read during the call only.
    func detect(_ picture: DetectorPicture) throws -> [Detection]
}
