import ReelCore

/// The solid privacy mask (`--privacy mask`): fills the ellipse of each face box with one
/// neutral colour, in place, on all three planes. It hides what a mosaic might still hint at
/// (a face's overall tone and shape), and it is cheaper: no block means.
///
/// The ellipse and its edge are the mosaic's (``MosaicCompositor/layout(of:width:height:)``,
/// ``MosaicCompositor/maskWeight(normalizedRadius:)``): the same box is covered as far out,
/// with the same soft edge, so a picture covered by one or the other hides the same pixels.
/// The colour is mid grey (Y, Cb and Cr all 128); output = `w·fill + (1 − w)·original` in
/// 1/256 steps, as the mosaic blends. Chroma's weight is taken at the centre of its 2×2 luma
/// quad.
public struct MaskCompositor: Sendable {
    /// The fill's luma and chroma value (a neutral mid grey).
    public static let fill: UInt8 = 128

    /// A compositor (it holds no state).
    public init() {}

    /// Fills the ellipse of every box in `boxes` (normalized to the picture, origin top-left)
    /// in `picture`. Boxes that are empty or outside the picture are skipped.
    public func apply(to picture: YUVPicture, boxes: [NormalizedRect]) {
        for box in boxes {
            guard let layout = MosaicCompositor.layout(of: box, width: picture.width, height: picture.height) else { continue }
            for index in 0..<3 { fill(picture.plane(index), scale: index == 0 ? 1 : 2, layout: layout) }
        }
    }

    /// Fills the whole picture (what is streamed when nothing can say where the faces are).
    public func fillWhole(_ picture: YUVPicture) {
        for index in 0..<3 {
            let plane = picture.plane(index)
            for y in 0..<plane.height { (plane.base + y * plane.stride).update(repeating: Self.fill, count: plane.width) }
        }
    }

    /// One plane: the rows the ellipse crosses, the opaque span written at once, the edge blended.
    private func fill(_ plane: YUVPicture.Plane, scale: Int, layout: MosaicCompositor.Layout) {
        let s = Double(scale), half = s / 2
        let rx = layout.radiusX, ry = layout.radiusY, cx = layout.centreX, cy = layout.centreY
        let inner = MosaicCompositor.opaqueRadius
        let fringe = MosaicCompositor.clearRadius - MosaicCompositor.opaqueRadius
        let value = Int(Self.fill)
        let row0 = max(0, Int(((cy - ry) / s - 0.5).rounded(.down)))
        let row1 = min(plane.height - 1, Int(((cy + ry) / s - 0.5).rounded(.up)))
        guard row0 <= row1 else { return }
        for y in row0...row1 {
            let dy = (Double(y) * s + half - cy) / ry
            let dy2 = dy * dy
            guard dy2 < 1 else { continue }
            let row = plane.base + y * plane.stride
            let outer = rx * (1 - dy2).squareRoot()
            let from = max(0, Int(((cx - outer) / s - half / s).rounded(.down)) - 1)
            let to = min(plane.width - 1, Int(((cx + outer) / s - half / s).rounded(.up)) + 1)
            guard from <= to else { continue }
            var x = from
            while x <= to {
                let dx = (Double(x) * s + half - cx) / rx
                let r = (dx * dx + dy2).squareRoot()
                if r <= inner {
                    // The opaque span: every pixel up to the last one inside the inner ellipse.
                    let span = rx * (inner * inner - dy2).squareRoot() * (1 - 1e-9)
                    let last = min(to, Int(((cx + span) / s - half / s).rounded(.down)))
                    if last >= x {
                        (row + x).update(repeating: Self.fill, count: last - x + 1)
                        x = last + 1
                        continue
                    }
                    row[x] = Self.fill
                } else if r < MosaicCompositor.clearRadius {
                    let weight = Int((256 * (MosaicCompositor.clearRadius - r) / fringe).rounded())
                    if weight > 0 {
                        row[x] = UInt8(truncatingIfNeeded: (weight * value + (256 - weight) * Int(row[x]) + 128) >> 8)
                    }
                }
                x += 1
            }
        }
    }
}
