/// A video frame size in pixels, `width × height`.
public struct VideoDimensions: Hashable, Sendable, CustomStringConvertible {
    /// How the picture is held: tall (portrait) or wide (landscape).
    public enum Orientation: String, Hashable, Sendable, CaseIterable {
        /// Taller than wide.
        case portrait
        /// Wider than tall.
        case landscape
    }

    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A `width × height` size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The same size with width and height exchanged.
    public var swapped: VideoDimensions { VideoDimensions(width: height, height: width) }

    /// The size held as `orientation`: width ≤ height for portrait, width ≥ height for
    /// landscape (swapping when needed).
    public func oriented(_ orientation: Orientation) -> VideoDimensions {
        switch orientation {
        case .portrait: return width <= height ? self : swapped
        case .landscape: return width >= height ? self : swapped
        }
    }

    /// `"WIDTHxHEIGHT"`, as HLS RESOLUTION writes it.
    public var description: String { "\(width)x\(height)" }
}
