import Foundation

/// Where the artwork sits in the preview: one of nine anchors in the preview's frame.
public enum OverlayAnchor: String, Sendable, Hashable, Codable, CaseIterable {
    case topLeft = "top-left", top, topRight = "top-right"
    case left, center, right
    case bottomLeft = "bottom-left", bottom, bottomRight = "bottom-right"

    /// The anchor as fractions of the free space: 0 = left/top, 0.5 = centre, 1 = right/bottom.
    public var fraction: (x: Double, y: Double) {
        switch self {
        case .topLeft: (0, 0)
        case .top: (0.5, 0)
        case .topRight: (1, 0)
        case .left: (0, 0.5)
        case .center: (0.5, 0.5)
        case .right: (1, 0.5)
        case .bottomLeft: (0, 1)
        case .bottom: (0.5, 1)
        case .bottomRight: (1, 1)
        }
    }
}

/// How the user placed the artwork over the preview (docs/behaviour.md §4): aspect-fit into the
/// preview, scaled about its own centre, turned about its centre, aligned to an anchor and
/// moved by an offset. ``transform(art:preview:)`` turns it into the one affine transform that
/// the preview draws with and the photo is burned in with.
public struct OverlayPlacement: Sendable, Hashable, Codable {
    /// The artwork's placement is not usable.
    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// The scale is not within ``scaleRange``.
        case scale(Double)
        /// The rotation or an offset is not a finite number.
        case notFinite(String)

        public var description: String {
            switch self {
            case let .scale(value):
                "scale \(value) is outside \(OverlayPlacement.scaleRange.lowerBound)…\(OverlayPlacement.scaleRange.upperBound) (1 = fitted into the picture)"
            case let .notFinite(what): "the \(what) must be a finite number"
            }
        }
    }

    /// The scales accepted: 1 is the artwork fitted into the preview.
    public static let scaleRange: ClosedRange<Double> = 0.05...20

    /// Which of the nine places the fitted, scaled artwork is aligned to.
    public var anchor: OverlayAnchor
    /// Moves the artwork right by this fraction of the preview's width (negative: left).
    public var offsetX: Double
    /// Moves the artwork down by this fraction of the preview's height (negative: up).
    public var offsetY: Double
    /// The artwork's size relative to fitted (1: as large as fits whole inside the preview).
    public var scale: Double
    /// Clockwise turn on screen about the artwork's centre, in degrees.
    public var rotationDegrees: Double

    /// A placement; the defaults are the artwork fitted and centred.
    public init(anchor: OverlayAnchor = .center, offsetX: Double = 0, offsetY: Double = 0,
                scale: Double = 1, rotationDegrees: Double = 0) {
        self.anchor = anchor
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.scale = scale
        self.rotationDegrees = rotationDegrees
    }

    /// Fitted and centred.
    public static let `default` = OverlayPlacement()

    /// Throws when the placement cannot be drawn.
    public func validate() throws(Error) {
        guard scale.isFinite, Self.scaleRange.contains(scale) else { throw .scale(scale) }
        guard rotationDegrees.isFinite else { throw .notFinite("rotation") }
        guard offsetX.isFinite, offsetY.isFinite else { throw .notFinite("offset") }
    }

    /// The transform from artwork coordinates (0…1 across the artwork, origin top-left) to
    /// preview coordinates (0…1 across the preview, origin top-left), for an artwork of `art`
    /// pixels shown over a preview of `preview`'s shape.
    ///
    /// Built in a square-pixel space one preview-height tall (so a turn does not shear):
    /// the artwork's unit square → its fitted size × scale → turned about its centre → its
    /// unturned box aligned to the anchor within the preview, plus the offset → divided by
    /// the preview's size. The result is affine, so the preview and the burn-in use the same
    /// six numbers.
    public func transform(art: VideoDimensions, preview: VideoDimensions) -> AffineTransform {
        let previewWidth = Double(preview.width) / Double(preview.height), previewHeight = 1.0
        let artAspect = Double(art.width) / Double(art.height)
        // Aspect-fit: the largest box of the artwork's shape inside the preview.
        let fitWidth = min(previewWidth, previewHeight * artAspect)
        let boxWidth = fitWidth * scale, boxHeight = fitWidth / artAspect * scale
        let (fx, fy) = anchor.fraction
        let left = fx * (previewWidth - boxWidth) + offsetX * previewWidth
        let top = fy * (previewHeight - boxHeight) + offsetY * previewHeight
        let radians = rotationDegrees * .pi / 180
        return AffineTransform.scale(x: boxWidth, y: boxHeight)
            .concatenating(.translation(x: -boxWidth / 2, y: -boxHeight / 2))
            .concatenating(.rotation(radians: radians))
            .concatenating(.translation(x: left + boxWidth / 2, y: top + boxHeight / 2))
            .concatenating(.scale(x: 1 / previewWidth, y: 1 / previewHeight))
    }
}
